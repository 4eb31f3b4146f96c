import Foundation

/// Writes a small trace into a fresh temporary directory, hands its path to `body`, and
/// removes the directory afterwards.
func withTrace<T>(_ text: String, name: String = "trace.csv", _ body: (String) throws -> T) rethrows -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("odr-sim-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent(name)
    try! Data(text.utf8).write(to: url)
    return try body(url.path)
}

/// `<repo>/../shared/traces/`, found from this file's path (CI has it beside the clone).
let sharedTraces: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()   // Tests/ODRPoliciesTests/
    .deletingLastPathComponent()   // Tests/
    .deletingLastPathComponent()   // the repository
    .deletingLastPathComponent()   // its parent, which holds shared/
    .appendingPathComponent("shared/traces")
