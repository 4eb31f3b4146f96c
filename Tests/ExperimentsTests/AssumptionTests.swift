import Experiments
import Foundation
import Metrics
import ODRCore
import ODRPolicies
import Simulation
import Testing

/// Issue 38: every modelling choice no source documents is listed, with its alternatives.
@Suite("Assumptions")
struct AssumptionTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// The doc comment above each line that declares `public var NAME` or `static let NAME`
    /// in `file`, by the declared name.
    static func declarations(in file: String, matching prefixes: [String]) throws -> [(name: String, doc: String)] {
        let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var result: [(String, String)] = []
        for (i, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let prefix = prefixes.first(where: { trimmed.hasPrefix($0) }) else { continue }
            let name = String(trimmed.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber })
            var doc: [String] = []
            var j = i - 1
            while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                doc.insert(String(lines[j]), at: 0)
                j -= 1
            }
            result.append((name, doc.joined(separator: "\n")))
        }
        return result
    }

    @Test("every behaviour option of a platform profile cites its source or is an assumption odr-sim assumptions lists")
    func profileOptionsAreSourcedOrListed() throws {
        let covered = Set(Assumption.all.flatMap(\.covers))
        let options = try Self.declarations(in: "ODRCore/Platform/PlatformProfile.swift", matching: ["public var "])
        // The limits (max…, recommended…) are numbers of the presets' own cited pages; `name`
        // names a profile; the rest are rules.
        let rules = options.filter { !$0.name.hasPrefix("max") && $0.name != "recommendedTagSize" && $0.name != "name" }
        #expect(rules.count >= 8, "\(rules.map(\.name))")
        for rule in rules {
            #expect(
                rule.doc.contains("Source") || covered.contains("PlatformProfile.\(rule.name)"),
                "PlatformProfile.\(rule.name) cites no source and no assumption covers it")
        }
    }

    @Test("every default constant of the model cites its source or is an assumption")
    func modelConstantsAreSourcedOrListed() throws {
        let covered = Set(Assumption.all.flatMap(\.covers))
        var checked = 0
        for (file, type) in [
            ("Simulation/AppSpec.swift", "AppSpec"), ("ODRPolicies/AndroidQuotaPolicy.swift", "AndroidQuotaPolicy"),
            ("Simulation/DeviceSpec.swift", "DeviceSpec"),
        ] {
            for constant in try Self.declarations(
                in: file, matching: ["public static let default", "static let default"])
            {
                checked += 1
                let name = "\(type).default\(constant.name)"
                #expect(
                    constant.doc.contains("Source") || covered.contains(name),
                    "\(name) cites no source and no assumption covers it")
            }
        }
        #expect(checked >= 2)
        // Every code name an assumption covers exists.
        for name in covered {
            let parts = name.split(separator: ".")
            let found = try FileManager.default.subpathsOfDirectory(atPath: Self.sources.path).filter {
                $0.hasSuffix(".swift")
            }
            .contains {
                try String(contentsOf: Self.sources.appendingPathComponent($0), encoding: .utf8).contains(
                    String(parts[1]))
            }
            #expect(found, "\(name) is named by an assumption but declared nowhere")
        }
    }

    @Test("each alternative changes its point, and applies only where the rule exists")
    func alternativesChangeThePoint() throws {
        let catalog = try Catalog(resources: [Resource(name: "a", size: 1, tags: ["a"])], profile: .backgroundAssets)
        var scenario = Scenario(
            duration: 10, platform: .backgroundAssets, device: DeviceSpec(capacity: 100, used: 0),
            apps: [AppSpec(id: "game", catalog: catalog)], events: [])
        let ba = ExperimentPlan.Point(scenario)
        let lru = [LRUPolicy.descriptor]
        #expect(Assumption.systemRemovesForOtherData.applies(to: ba, policies: lru))
        let changed = Assumption.systemRemovesForOtherData.alternatives[0].applied(to: ba)
        #expect(changed.scenario.platform.systemRemovesForOtherData && !ba.scenario.platform.systemRemovesForOtherData)
        // Set by the scenario already: nothing left to vary.
        #expect(!Assumption.systemRemovesForOtherData.applies(to: changed, policies: lru))
        // On ODR the system always purges, and on Play the rule is documented: neither applies.
        scenario.platform = .ios18
        #expect(!Assumption.systemRemovesForOtherData.applies(to: ExperimentPlan.Point(scenario), policies: lru))
        scenario.platform = .playAssetDelivery
        #expect(!Assumption.systemRemovesForOtherData.applies(to: ExperimentPlan.Point(scenario), policies: lru))
        // Play's confirmation delay: every app at the default gets the alternative.
        let play = ExperimentPlan.Point(scenario)
        #expect(Assumption.cellularConfirmationDelay.applies(to: play, policies: lru))
        let never = try #require(Assumption.cellularConfirmationDelay.alternatives.first { $0.value == "never" })
        #expect(never.applied(to: play).scenario.apps[0].cellularConfirmationDelay == nil)
        // Play's 200 MB, read as 2^20-byte megabytes: 209,715,200 bytes; then set, nothing to vary.
        #expect(Assumption.largeDownloadThreshold.applies(to: play, policies: lru))
        let mebibytes = Assumption.largeDownloadThreshold.alternatives[0].applied(to: play)
        #expect(mebibytes.scenario.platform.cellularConfirmationBytes == 209_715_200)
        #expect(!Assumption.largeDownloadThreshold.applies(to: mebibytes, policies: lru))
        #expect(!Assumption.largeDownloadThreshold.applies(to: ba, policies: lru))
        // Android's quota timing is listed for android-quota alone; a sideloaded app's update is
        // listed where an app was not installed by Play.
        #expect(Assumption.androidQuotaTiming.alternatives.isEmpty)
        #expect(!Assumption.androidQuotaTiming.applies(to: play, policies: lru))
        #expect(!Assumption.userConfirmationUpdate.applies(to: play, policies: lru))
        var sideloaded = play
        sideloaded.scenario.apps[0].installedByPlay = false
        #expect(Assumption.userConfirmationUpdate.applies(to: sideloaded, policies: lru))
        // The Android quota matters only when android-quota runs.
        #expect(!Assumption.androidCacheQuota.applies(to: play, policies: lru))
        #expect(Assumption.androidCacheQuota.applies(to: play, policies: [AndroidQuotaPolicy.descriptor]))
        let quota = Assumption.androidCacheQuota.alternatives[0].applied(to: play)
        #expect(quota.policyOptions["android-quota"]?.value("default_quota") == Double(64 << 20))
    }

    @Test(
        """
        a verdict holds when the best is the same, flips when the new best is better with an interval that excludes \
        0, else is within the noise
        """
    )
    func judging() {
        // New best − old best over three replications: −30, −20, −10 (mean −20, sd 10; the
        // 95 % interval −20 ± 4.303 × 10/√3 = −20 ± 24.8 spans 0): within the noise.
        #expect(Robustness.judge(sameBest: false, change: Interval([-30, -20, -10])) == "within the noise")
        // −21, −20, −19: −20 ± 4.303 × 1/√3 = −20 ± 2.48, all below 0: flips.
        #expect(Robustness.judge(sameBest: false, change: Interval([-21, -20, -19])) == "flips")
        #expect(Robustness.judge(sameBest: true, change: nil) == "holds")
    }
}
