// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency is identified by its directory's name, which is whatever the clone of
// odr-sim is called (odr-sim, main, a worktree…), so find it rather than hard-code it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks for odr-sim, kept in their own package so the main build does not depend on
// the benchmark framework. Run from this directory:
//   swift package benchmark                       (all benchmarks)
//   swift package benchmark --target ReplayThroughput
//   swift package benchmark --target KernelThroughput
//   swift package benchmark --target StudyThroughput
let package = Package(
    name: "odr-sim-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.0.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "StudyThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Experiments", package: root),
                .product(name: "Metrics", package: root),
                .product(name: "ODRPolicies", package: root),
                .product(name: "Reports", package: root),
                .product(name: "ScenarioFile", package: root),
            ],
            path: "Benchmarks/StudyThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ReplayThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ODRPolicies", package: root),
                .product(name: "OdrSimCLI", package: root),
            ],
            path: "Benchmarks/ReplayThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "KernelThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ODRCore", package: root),
                .product(name: "ODRPolicies", package: root),
                .product(name: "Simulation", package: root),
                .product(name: "Workload", package: root),
                // For Metrics' RunRecorder (the report rows of `odr-sim run`).
                .product(name: "OdrSimCLI", package: root),
            ],
            path: "Benchmarks/KernelThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
