// swift-tools-version: 6.1
import PackageDescription

// Dependencies point one way, from the command line down to the core. Each target and the
// targets it depends on (in brackets, the packages it uses), drawn from the targets below by
// scripts/architecture (--update rewrites it here and in docs/architecture.md; a test holds both):
// architecture:begin
//   odr-sim-live  → LiveCLI
//   LiveCLI       → CommandShell, Experiments, Live, Metrics, OdrSimCLI, Quantities, Reports, SafeOutput,
//                   ScenarioFile, Simulation  [ArgumentParser]
//   odr-sim       → OdrSimCLI
//   OdrSimCLI     → Advice, AdviceOutput, Bounds, CommandShell, Experiments, Metrics, ODRCore, ODRPolicies,
//                   PolicyPlugins, Quantities, Reports, SafeOutput, ScenarioFile, Simulation, TextInput, TraceReplay
//                   [ArgumentParser]
//   AdviceOutput  → Advice, Metrics, ODRCore, Reports, TextInput
//   Advice        → Experiments, Metrics, ODRCore, ODRPolicies, Quantities, Simulation, TextInput
//   Reports       → Bounds, Experiments, Metrics, ODRPolicies, Quantities, SafeOutput, Simulation, TraceReplay
//                   [Mustache]
//   CommandShell  → PolicyPlugins, SafeOutput, TextInput  [ArgumentParser]
//   Experiments   → Bounds, Metrics, ODRCore, ODRPolicies, Quantities, Simulation, TextInput
//   Live          → Metrics, ODRCore, SafeOutput, Simulation, TextInput  [NIOCore, NIOHTTP1, NIOPosix]
//   ScenarioFile  → ODRCore, Quantities, Simulation, TextInput, Workload  [Yams]
//   Metrics       → ODRCore, Quantities, Simulation, Stochastic, TextInput  [Histogram]
//   PolicyPlugins → COdrSimPolicy, ODRCore, ODRPolicies, SafeOutput, TextInput
//   TraceReplay   → CPrefetch, CZstd, ODRCore, ODRPolicies, Quantities, TextInput
//   Workload      → Quantities, Simulation, Stochastic
//   ODRPolicies   → CPrefetch, ODRCore, Stochastic  [HeapModule]
//   Simulation    → ODRCore  [HeapModule]
//   Bounds        → CFlow
//   ODRCore       → CPrefetch
//   SafeOutput    → TextInput
//   Stochastic    → CGSL
//   CFlow         → —
//   CGSL          → —
//   COdrSimPolicy → —
//   CPrefetch     → —
//   CZstd         → —
//   Quantities    → —
//   TestSupport   → —
//   TextInput     → —
// architecture:end
// ODRCore reads no clock, file or network; Quantities and TextInput depend on nothing.
let package = Package(
    name: "odr-sim",
    products: [
        .executable(name: "odr-sim", targets: ["odr-sim"]),
        // `odr-sim serve` and `odr-sim live` (SwiftNIO): a product of its own, built on first use, so
        // that odr-sim's own first build compiles no NIO (docs/live.md).
        .executable(name: "odr-sim-live", targets: ["odr-sim-live"]),
        .library(name: "ODRCore", targets: ["ODRCore"]),
        .library(name: "ODRPolicies", targets: ["ODRPolicies"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Workload", targets: ["Workload"]),
        .library(name: "ScenarioFile", targets: ["ScenarioFile"]),
        .library(name: "Metrics", targets: ["Metrics"]),
        .library(name: "Experiments", targets: ["Experiments"]),
        .library(name: "Reports", targets: ["Reports"]),
        .library(name: "TraceReplay", targets: ["TraceReplay"]),
        .library(name: "Bounds", targets: ["Bounds"]),
        .library(name: "Advice", targets: ["Advice"]),
        .library(name: "AdviceOutput", targets: ["AdviceOutput"]),
        .library(name: "OdrSimCLI", targets: ["OdrSimCLI"]),
        .library(name: "TextInput", targets: ["TextInput"]),
        .library(name: "SafeOutput", targets: ["SafeOutput"]),
        .library(name: "PolicyPlugins", targets: ["PolicyPlugins"]),
        .library(name: "Quantities", targets: ["Quantities"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.1.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        // GNU Scientific Library (Debian: libgsl-dev): random streams, distributions, t-quantiles.
        .systemLibrary(name: "CGSL", pkgConfig: "gsl", providers: [.apt(["libgsl-dev"])]),
        // Zstandard (Debian: libzstd-dev): compressed traces (.oracleGeneral.zst), streamed.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // Minimum-cost flow by LEMON's network simplex (Debian: liblemon-dev, headers only),
        // behind a C interface: the solver of the offline bounds.
        // Optimized in debug builds too: the network simplex at -O0 is 6× slower, too slow for
        // the tests that check it against the authors' results.
        .target(name: "CFlow", cxxSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // Offline bounds on misses (PFOO-L, FOO-L, FOO-U) for request sequences.
        .target(name: "Bounds", dependencies: ["CFlow"]),
        // A cache prefetch hint (Swift has none), for memory-bound replays of large traces: a
        // header and its module map, nothing to compile (Sources/CPrefetch/module.modulemap).
        .systemLibrary(name: "CPrefetch"),
        // The grammars of quantities (sizes, durations, bandwidths, budgets, exact decimals) and
        // the largest value of each (ModelLimits): one floor below every reader of numbers.
        .target(name: "Quantities"),
        // The one reader of text inputs (scenarios, studies, telemetry, baselines, shard and
        // exchange files): CRLF, byte-order marks, NUL and non-files handled alike.
        .target(name: "TextInput"),
        // What odr-sim may write and how (it never removes a file it did not write): report
        // folders, staging and signals, standard output checked to its end, one-line failures.
        .target(name: "SafeOutput", dependencies: ["TextInput"]),
        // The ODR state machine: sans-I/O; a prefetch hint for its records.
        .target(name: "ODRCore", dependencies: ["CPrefetch"]),
        // Seeded random streams and distributions over GSL.
        .target(name: "Stochastic", dependencies: ["CGSL"]),
        // Purge strategies, one file each, behind ODRCore's PurgePolicy.
        // swift-collections' Heap for the apple policy.
        .target(
            name: "ODRPolicies",
            dependencies: [
                "ODRCore", "Stochastic", "CPrefetch", .product(name: "HeapModule", package: "swift-collections"),
            ]),
        // Discrete-event kernel and the models that drive the core (network, disk, apps).
        .target(
            name: "Simulation",
            dependencies: ["ODRCore", .product(name: "HeapModule", package: "swift-collections")]
        ),
        // Stochastic workload generators expanding a scenario's `workload:` section.
        .target(
            name: "Workload",
            dependencies: [
                "Simulation", "Stochastic", "Quantities",
            ]
        ),
        // Scenario files (.scn, YAML) into Simulation's Scenario; knows nothing of metrics.
        .target(
            name: "ScenarioFile",
            dependencies: ["Simulation", "ODRCore", "Workload", "TextInput", "Quantities", "Yams"]),
        // Runs into numbers: events and ledgers into CSV rows, statistics, regression checks.
        .target(
            name: "Metrics",
            dependencies: [
                "ODRCore", "Simulation", "Stochastic", "TextInput", "Quantities",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // Plans of runs (points × policies × replications), their scheduling on cores and on
        // shards, and the merge of shards: run, compare, check and sweep all go through it.
        .target(
            name: "Experiments",
            dependencies: ["ODRCore", "ODRPolicies", "Simulation", "Metrics", "Bounds", "TextInput", "Quantities"]),
        // The layout an app team should ship (`odr-sim advise`): layouts of one app's
        // resources, each written as a scenario and simulated through Experiments.
        .target(
            name: "Advice",
            dependencies: [
                "ODRCore", "ODRPolicies", "Simulation", "Metrics", "Experiments", "TextInput", "Quantities",
            ]),
        // Reports a person looks at: SVG charts and self-contained HTML pages (Mustache
        // templates), from the same rows the CSV writers take.
        .target(
            name: "Reports",
            dependencies: [
                "Metrics", "Simulation", "Experiments", "ODRPolicies", "TraceReplay", "Bounds", "Quantities",
                "SafeOutput", .product(name: "Mustache", package: "swift-mustache"),
            ]),
        // What `odr-sim advise` writes and says (``AdviceAnswer``): apart from Reports so that
        // Reports and Advice, both long to optimize, compile side by side in a first build.
        .target(
            name: "AdviceOutput",
            dependencies: ["Advice", "Reports", "Metrics", "ODRCore", "TextInput"]),
        // The plug-in interface (odrsim_policy.h): what a purge policy in C, or the Python
        // host, implements; a plug-in is built against this header alone.
        .target(name: "COdrSimPolicy"),
        // Purge policies loaded at run time (`--policy-plugin`), checked against the contract.
        .target(
            name: "PolicyPlugins",
            dependencies: ["COdrSimPolicy", "ODRCore", "ODRPolicies", "SafeOutput", "TextInput"]),
        // Cache-trace replay (time,obj_id,size CSV) through the core.
        .target(
            name: "TraceReplay",
            dependencies: ["ODRCore", "ODRPolicies", "CZstd", "CPrefetch", "Quantities", "TextInput"]),
        // How odr-sim's executables run a command line: the one main (one-line failures, exit
        // statuses, checked standard output), and handing `serve` and `live` to odr-sim-live.
        .target(
            name: "CommandShell",
            dependencies: [
                "SafeOutput", "TextInput", "PolicyPlugins",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "OdrSimCLI",
            dependencies: [
                "ODRCore", "ODRPolicies", "Simulation", "ScenarioFile", "Metrics", "Experiments", "Reports",
                "TraceReplay", "Bounds", "Quantities",
                "Advice", "AdviceOutput", "TextInput", "SafeOutput", "PolicyPlugins", "CommandShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "odr-sim", dependencies: ["OdrSimCLI"]),
        // Real downloads through the unchanged core (issue 56): the pack server, the folder of
        // packs and its manifest, the transfers, and the real-clock loop around the simulator.
        .target(
            name: "Live",
            dependencies: [
                "ODRCore", "Simulation", "Metrics", "TextInput", "SafeOutput",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // `odr-sim-live serve` and `odr-sim-live live`: the command line of Live, on odr-sim's.
        .target(
            name: "LiveCLI",
            dependencies: [
                "Live", "OdrSimCLI", "CommandShell", "Simulation", "ScenarioFile", "Experiments", "Metrics", "Reports",
                "SafeOutput", "Quantities",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "odr-sim-live", dependencies: ["LiveCLI"]),

        .testTarget(
            name: "ODRCoreTests",
            dependencies: [
                "ODRCore", "ODRPolicies", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ODRPoliciesTests",
            dependencies: [
                "ODRCore", "ODRPolicies", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TraceReplayTests", dependencies: ["TraceReplay", "ODRCore", "ODRPolicies", "CZstd", "TestSupport"]),
        .testTarget(name: "BoundsTests", dependencies: ["Bounds", "TraceReplay", "ODRPolicies", "TestSupport"]),
        // What several test targets share: a seeded generator and the trace fixtures.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ReportsTests", dependencies: ["Reports"]),
        .testTarget(
            name: "SimulationTests",
            dependencies: [
                "ODRCore", "ODRPolicies", "Simulation", "Workload", "Metrics", "Experiments",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "MetricsTests",
            dependencies: ["Metrics", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "ExperimentsTests",
            dependencies: ["Experiments", "Metrics", "Simulation", "ODRCore", "ODRPolicies", "TestSupport"]),
        .testTarget(
            name: "WorkloadTests",
            dependencies: [
                "Workload", "Stochastic", "Simulation", "ODRCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "AdviceTests",
            dependencies: ["Advice", "ScenarioFile", "Simulation", "ODRCore", "ODRPolicies", "Metrics", "TextInput"],
            exclude: ["Fixtures"]),
        .testTarget(name: "TextInputTests", dependencies: ["TextInput"]),
        .testTarget(
            name: "LiveTests", dependencies: ["Live", "ODRPolicies", "ScenarioFile", "Simulation", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ScenarioFileTests",
            dependencies: ["ScenarioFile", "Simulation", "Workload", "ODRCore", "ODRPolicies", "Quantities"]),
        .testTarget(
            name: "OdrSimCLITests",
            dependencies: [
                "OdrSimCLI", "Metrics", "Experiments", "ScenarioFile", "Simulation", "ODRCore", "ODRPolicies",
                "Reports", "SafeOutput", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    // LEMON 1.3 (CFlow) predates C++17.
    cxxLanguageStandard: .cxx14
)
