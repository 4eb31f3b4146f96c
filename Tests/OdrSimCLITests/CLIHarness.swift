import Foundation
import TestSupport

/// Runs the built `odr-sim` executable, as a user would.
struct CLI {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The debug binary `swift test` builds next to the test bundle.
    static var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [
            bundle.appendingPathComponent("odr-sim"), repository.appendingPathComponent(".build/debug/odr-sim"),
        ]
        where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return repository.appendingPathComponent(".build/debug/odr-sim")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws
        -> Result
    {
        try run(executable: binary, arguments, in: directory, environment: environment)
    }

    /// Runs `executable` (odr-sim, or a shell that starts it) with `arguments`.
    static func run(
        executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let output = try ProcessRun.run(
            executable, arguments, in: directory ?? repository, environment: environment)
        return Result(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("odr-sim-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A small scenario: one 64 MB tag downloaded, released, purged by photo growth, fetched again
/// after the photos are deleted.
let smallScenario = """
    name: small
    duration: 1h
    policies: [apple]
    device: {capacity: 1000MB, used: 900MB}
    network: [{at: 0, bandwidth: 300Mbps, kind: wifi}]
    apps:
      - id: game
        resources:
          - {name: map, size: 64MB, tags: [level-1]}
    events:
      - {at: 0, app: game, install: true}
      - {at: 0, app: game, launch: true}
      - {at: 1m, app: game, request: [level-1], id: r1}
      - {at: 2m, app: game, end: r1}
      - {at: 3m, disk: +50MB}
      - {at: 3m30s, disk: -50MB}
      - {at: 4m, app: game, request: [level-1], id: r2}

    """
