// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for odr-sim, kept in their own package so the main build does not depend on
// the benchmark framework. Run from this directory:
//   swift package benchmark                       (all benchmarks)
//   swift package benchmark --target ReplayThroughput
let package = Package(
    name: "odr-sim-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.0.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ReplayThroughput",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ODRPolicies", package: "odr-sim"),
                .product(name: "OdrSimCLI", package: "odr-sim"),
            ],
            path: "Benchmarks/ReplayThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
