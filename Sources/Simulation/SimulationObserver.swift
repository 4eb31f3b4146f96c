import ODRCore

/// Receives what happens during a run: the core's events, link changes and periodic samples.
///
/// Reports (CSV, histograms) are built by observers; the kernel itself keeps none.
public protocol SimulationObserver: AnyObject {
    /// One event of the core, in order. `simulator.requestKey(of:)` says which of the
    /// scenario's requests it concerns.
    func simulator(_ simulator: Simulator, emitted event: ODREvent)
    /// False when the observer reads only `requestGranted` events (wait statistics): the
    /// core then records no others, which makes a run markedly cheaper. True by default.
    var observesAllEvents: Bool { get }
    /// The link changed (scripted phase or generated spell).
    func simulator(_ simulator: Simulator, linkChangedTo bandwidth: Double, kind: LinkKind, at time: Double)
    /// A periodic sample point; read the device's state through `simulator.device`.
    func simulator(_ simulator: Simulator, sampleAt time: Double)
}

extension SimulationObserver {
    public var observesAllEvents: Bool { true }
    public func simulator(_ simulator: Simulator, linkChangedTo bandwidth: Double, kind: LinkKind, at time: Double) {}
    public func simulator(_ simulator: Simulator, sampleAt time: Double) {}
}
