import ODRCore
import ODRPolicies
import TestSupport
import Testing

/// Every registered policy under a randomized workload on a real device: multi-tag
/// requests, held packs, running apps, uninstalls. The device checks every answer (victims
/// are candidates, no duplicates, enough bytes or all candidates) and stops the program on a
/// wrong one, so surviving the run is the assertion; the test adds its own space checks.
@Suite struct RegistryTests {
    @Test("every registered policy: a unique command-line name, its own name, one line of summary, well-formed options")
    func registryEntries() {
        #expect(Set(PolicyRegistry.names).count == PolicyRegistry.all.count)
        // Scenarios without `policies:` run the default.
        #expect(PolicyRegistry.names.contains("apple"))
        for descriptor in PolicyRegistry.all {
            // A name --policy takes as written, in a shell and in a CSV cell.
            #expect(
                !descriptor.name.isEmpty && descriptor.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" },
                "\(descriptor.name)")
            #expect(PolicyRegistry.descriptor(named: descriptor.name)?.name == descriptor.name)
            #expect(PolicyRegistry.descriptor(named: descriptor.name.uppercased()) == nil)
            // The policy's name comes from its descriptor: a fresh instance reports it.
            #expect(descriptor.make(PolicyContext()).name == descriptor.name)
            #expect(!descriptor.summary.isEmpty && !descriptor.summary.contains("\n"))
            let keys = descriptor.options.map(\.key)
            #expect(Set(keys).count == keys.count, "\(descriptor.name): an option declared twice")
            for option in descriptor.options {
                // Keys as scenario files write them; `apps` is where per-app options go.
                #expect(
                    option.key != "apps" && option.key.allSatisfy { $0.isLowercase || $0 == "_" },
                    "\(descriptor.name).\(option.key)")
                #expect(!option.summary.isEmpty && !option.summary.contains("\n"))
            }
            #expect(PolicyRegistry.options[descriptor.name]?.map(\.key) == keys)
        }
    }

    @Test("offline policies, and only they, need the future: without it they still run")
    func offlinePolicies() {
        let offline = PolicyRegistry.all.filter(\.needsFuture)
        #expect(offline.map(\.name) == ["belady"])
        for descriptor in offline { #expect(descriptor.make(PolicyContext(future: nil)).name == descriptor.name) }
    }

    /// One step of the randomized workload, drawn before the run so the future is known.
    enum Step {
        case begin(app: Int, tags: [Int])
        case end(Int)
        case deliver
        case launch(Int)
        case terminate(Int)
        case reinstall(Int)
    }

    static func catalogs() -> [Catalog] {
        // Three apps; resources with one or two tags, so some packs are shared by tags.
        (0..<3).map { a in
            var resources: [Resource] = []
            for r in 0..<12 {
                let size = Int64(5 + (r * 7 + a * 3) % 40)
                var tags = ["t\(r % 8)"]
                if r % 3 == 0 { tags.append("t\((r + 1) % 8)") }
                resources.append(Resource(name: "r\(r)", size: size, tags: tags))
            }
            return try! Catalog(resources: resources)
        }
    }

    static func steps(seed: UInt64, count: Int) -> [Step] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            switch g.below(20) {
            case 0..<9: .begin(app: g.below(3), tags: (0..<(1 + g.below(2))).map { _ in g.below(8) })
            case 9..<14: .end(g.below(1000))
            case 14..<17: .deliver
            case 17: .launch(g.below(3))
            case 18: .terminate(g.below(3))
            default: .reinstall(g.below(3))
            }
        }
    }

    @Test(arguments: PolicyRegistry.names)
    func survivesARandomizedRun(policy name: String) {
        let catalogs = Self.catalogs()
        for seed in UInt64(1)...3 {
            let steps = Self.steps(seed: seed, count: 1500)
            // The future: the packs of every begin, in order (failed requests count too).
            var firstPack: [Int32] = []
            var total: Int32 = 0
            for c in catalogs {
                firstPack.append(total)
                total += Int32(c.packs.count)
            }
            let future = FutureRequests(
                requests: steps.compactMap { step -> [PackID]? in
                    guard case .begin(let a, let tags) = step else { return nil }
                    return tags.flatMap { catalogs[a].tags[$0].packs.map { PackID(rawValue: firstPack[a] + $0) } }
                })
            let context = PolicyContext(
                seed: seed, future: future, options: PolicyOptions(values: ["default_quota": 60]))
            let device = ODRDevice(
                capacity: 400, otherData: 50, policy: PolicyRegistry.descriptor(named: name)!.make(context))
            device.recordsEvents = false
            let apps = catalogs.enumerated().map { device.addApp(name: "a\($0.offset)", catalog: $0.element) }
            for app in apps { device.install(app, at: 0) }
            var live: [RequestID] = []
            var g = SplitMix64(seed: seed &+ 100)
            var time = 0.0
            for step in steps {
                time += 1
                switch step {
                case .begin(let a, let tags):
                    if let request = device.beginAccessing(
                        apps[a], tags: tags.map { TagID(rawValue: Int32($0)) }, at: time
                    ).request {
                        live.append(request)
                    }
                case .end(let i):
                    if !live.isEmpty { device.endAccessing(live.remove(at: i % live.count), at: time) }
                case .deliver:
                    // Deliver part or all of each running download.
                    for download in device.downloads() where download.isRunnable {
                        let bytes = g.below(2) == 0 ? download.remaining : Int64(g.below(Int(download.remaining) + 1))
                        device.receive(bytes, for: download.pack, at: time)
                    }
                case .launch(let a): device.launch(apps[a], at: time)
                case .terminate(let a): device.terminate(apps[a], at: time)
                case .reinstall(let a):
                    device.uninstall(apps[a], at: time)
                    device.install(apps[a], at: time)
                }
                #expect(device.usedBytes <= device.capacity)
                #expect(device.freeBytes >= 0)
                live.removeAll { !device.isLive($0) }
            }
            #expect(device.ledger.purges > 0, "the workload should put the disk under pressure")
        }
    }
}
