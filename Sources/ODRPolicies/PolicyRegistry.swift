import ODRCore
import Synchronization

/// Every purge policy odr-sim knows, by name.
///
/// Adding a policy means writing its file (a ``PurgePolicy`` with a static `descriptor`)
/// and adding one line to ``builtIn``. The order of ``all`` is the order `odr-sim policies`
/// lists them in: the built-in policies, then those registered while the program runs
/// (plug-ins loaded by `--policy-plugin`, ``register(_:)``).
public enum PolicyRegistry {
    /// Every policy: the built-in ones, then the registered ones in the order they came.
    public static var all: [PolicyDescriptor] {
        let added = registered.withLock { $0 }
        return added.isEmpty ? builtIn : builtIn + added
    }

    /// Policies added while the program runs.
    private static let registered = Mutex<[PolicyDescriptor]>([])

    /// Adds a policy under its descriptor's name, unless a policy of that name exists.
    public static func register(_ descriptor: PolicyDescriptor) throws(DuplicatePolicy) {
        try registered.withLock { (added) throws(DuplicatePolicy) in
            guard
                !builtIn.contains(where: { $0.name == descriptor.name })
                    && !added.contains(where: { $0.name == descriptor.name })
            else {
                throw DuplicatePolicy(name: descriptor.name)
            }
            added.append(descriptor)
        }
    }

    /// The policies odr-sim is built with.
    public static let builtIn: [PolicyDescriptor] = [
        ApplePolicy.descriptor,
        LRUPolicy.descriptor,
        FIFOPolicy.descriptor,
        LFUPolicy.descriptor,
        GDSFPolicy.descriptor,
        LargestFirstPolicy.descriptor,
        BestFitPolicy.descriptor,
        RandomPolicy.descriptor,
        AndroidQuotaPolicy.descriptor,
        BeladyPolicy.descriptor,
        SievePolicy.descriptor,
        S3FIFOPolicy.descriptor,
        ClockPolicy.descriptor,
        LFUDAPolicy.descriptor,
        ARCPolicy.descriptor,
        TwoQPolicy.descriptor,
        SLRUPolicy.descriptor,
        WTinyLFUPolicy.descriptor,
        LIRSPolicy.descriptor,
    ]

    /// The policy called `name` (exact, case-sensitive), if any.
    public static func descriptor(named name: String) -> PolicyDescriptor? {
        all.first { $0.name == name }
    }

    /// A name given on a command line or in a file, resolved where it comes in: the
    /// descriptor, or the one wording every command uses for a name it does not know.
    public static func resolve(_ name: String) throws(UnknownPolicy) -> PolicyDescriptor {
        guard let descriptor = descriptor(named: name) else { throw UnknownPolicy(name: name) }
        return descriptor
    }

    /// ``resolve(_:)`` for each name, in order; a name given twice is refused (a policy's runs
    /// are known by its name, so two of them could not be told apart).
    public static func resolve(_ names: [String]) throws(UnknownPolicy) -> [PolicyDescriptor] {
        var descriptors: [PolicyDescriptor] = []
        for name in names {
            guard !descriptors.contains(where: { $0.name == name }) else {
                throw UnknownPolicy(name: name, repeated: true)
            }
            descriptors.append(try resolve(name))
        }
        return descriptors
    }

    /// All names, in registry order.
    public static var names: [String] { all.map(\.name) }

    /// The policies that read the future (bounds, never deployable): never an app's or the
    /// system's, never a verdict's best.
    public static var offline: Set<String> { Set(all.filter(\.needsFuture).map(\.name)) }

    /// The options each policy declares, by name: what a scenario parser checks
    /// `policy_options:` against.
    public static var options: [String: [PolicyOption]] {
        Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.options) })
    }
}

/// A policy registered under a name that is taken.
public struct DuplicatePolicy: Error, Equatable, CustomStringConvertible {
    public let name: String
    public init(name: String) { self.name = name }
    public var description: String {
        "a policy named '\(name)' exists already; give the plug-in another name (PATH:NAME)"
    }
}

/// A policy name odr-sim does not know: `unknown policy 'lur'; known policies: apple, lru, …`.
/// A policy name that cannot be resolved: unknown, or (`repeated`) given twice in one list.
public struct UnknownPolicy: Error, Equatable, CustomStringConvertible {
    public let name: String
    public var repeated = false

    public init(name: String, repeated: Bool = false) {
        self.name = name
        self.repeated = repeated
    }

    public var description: String {
        repeated
            ? "policy '\(name)' is named twice; give each policy once"
            : "unknown policy '\(name)'; known policies: \(PolicyRegistry.names.joined(separator: ", "))"
    }
}

extension PolicyRegistry {
    /// Every registered policy, one line each (name, what it purges first, offline or not),
    /// each option of it on a line below: `odr-sim policies`.
    public static func listing() -> [String] {
        let width = names.map(\.count).max() ?? 0
        return all.flatMap { policy in
            let pad = String(repeating: " ", count: width - policy.name.count)
            return ["\(policy.name)\(pad)  \(policy.summary)\(policy.needsFuture ? " (offline)" : "")"]
                + policy.options.map { option in
                    let key = option.scope == .app ? "apps.<id>.\(option.key)" : option.key
                    return
                        "\(String(repeating: " ", count: width))    \(key) (\(option.kind.rawValue)): \(option.summary)"
                }
        }
    }

    /// Every registered policy as a Markdown table: name, rule, options.
    public static func markdownTable() -> String {
        var lines = ["| name | rule | options |", "|---|---|---|"]
        for policy in all {
            let options = policy.options.map { option in
                let key = option.scope == .app ? "apps.<id>.\(option.key)" : option.key
                return "`\(key)` (\(option.kind.rawValue)): \(option.summary)"
            }
            let rule = policy.summary + (policy.needsFuture ? " (offline)" : "")
            lines.append("| `\(policy.name)` | \(rule) | \(options.joined(separator: "; ")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
