import Foundation

/// Writes a small trace into a fresh temporary directory and returns its path.
func writeTrace(_ text: String, name: String = "trace.csv") -> String {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("odr-sim-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try! Data(text.utf8).write(to: url)
    return url.path
}

/// `<repo>/../shared/traces/`, found from this file's path (CI has it beside the clone).
let sharedTraces: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()   // Tests/ODRPoliciesTests/
    .deletingLastPathComponent()   // Tests/
    .deletingLastPathComponent()   // the repository
    .deletingLastPathComponent()   // its parent, which holds shared/
    .appendingPathComponent("shared/traces")
