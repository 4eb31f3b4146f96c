// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The path dependency is named by the clone's directory (odr-sim, main, a worktree…).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// libFuzzer targets for odr-sim's readers of untrusted input, in their own package so the
// main build stays lean. Build and run them with `scripts/fuzz` (which passes
// `--sanitize fuzzer --sanitize address`); each target is a `LLVMFuzzerTestOneInput`.
let package = Package(
    name: "odr-sim-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Scenario files: the YAML parser and, for small valid scenarios, a bounded run.
        .executableTarget(
            name: "FuzzScenario",
            dependencies: [
                .product(name: "ScenarioFile", package: root), .product(name: "Simulation", package: root),
                .product(name: "ODRPolicies", package: root), .product(name: "Experiments", package: root),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Study files: the study parser and every point's scenario (issue 24).
        .executableTarget(
            name: "FuzzStudy",
            dependencies: [.product(name: "ScenarioFile", package: root), .product(name: "ODRPolicies", package: root)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Cache traces: the CSV reader and, for small traces, a replay.
        .executableTarget(
            name: "FuzzTrace",
            dependencies: [.product(name: "TraceReplay", package: root), .product(name: "ODRPolicies", package: root)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Advise exchange files: the shards' shared runs, checked whole (issue 42).
        .executableTarget(
            name: "FuzzExchange",
            dependencies: [.product(name: "Advice", package: root), .product(name: "TextInput", package: root)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Telemetry traces: the streaming row reader behind `{kind: trace}` (issue 42).
        .executableTarget(
            name: "FuzzTelemetry",
            dependencies: [.product(name: "ScenarioFile", package: root), .product(name: "ODRPolicies", package: root)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Baselines: the RFC 4180 reader, the baseline reader and the regression check.
        .executableTarget(
            name: "FuzzBaseline",
            dependencies: [.product(name: "Metrics", package: root)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
