import ArgumentParser

public struct OdrSim: ParsableCommand {
    public init() {}
    public func run() {}
}
