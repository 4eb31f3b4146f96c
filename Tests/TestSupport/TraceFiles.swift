import Foundation

/// Writes a small trace into a fresh temporary directory, hands its path to `body`, and
/// removes the directory afterwards.
public func withTrace<T>(_ text: String, name: String = "trace.csv", _ body: (String) throws -> T) rethrows -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("odr-sim-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try! Data(text.utf8).write(to: url)
    return try body(url.path)
}

/// `Tests/Fixtures/traces/`: the CloudPhysics trace and libCacheSim's counts for it, carried
/// by the repository (their origin and sha256 in the README beside them).
public let traceFixtures: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/TestSupport/
    .deletingLastPathComponent()  // Tests/
    .appendingPathComponent("Fixtures/traces")
