import ODRCore
import ScenarioFile
import Testing

/// `policy_options:` read against what each policy declares. The declarations here are the
/// test's own, so these tests do not depend on which policies are registered.
@Suite("Policy options")
struct PolicyOptionsTests {
    static let declarations: [String: [PolicyOption]] = [
        "quota": [
            PolicyOption("default_quota", .size, summary: "default") { $0 > 0 ? nil : "must be more than 0 bytes" },
            PolicyOption("cache_quota", .size, scope: .app, summary: "per app") {
                $0 > 0 ? nil : "must be more than 0 bytes"
            },
        ],
        "tuned": [
            PolicyOption("weight", .number, summary: "a weight") { (0...1).contains($0) ? nil : "must be in 0…1" }
        ],
        "android-quota": [
            PolicyOption("cache_quota", .size, scope: .app, summary: "per app") {
                $0 > 0 ? nil : "must be more than 0 bytes"
            }
        ],
    ]
    static let parser = ScenarioParser(
        knownPolicies: ["apple", "quota", "tuned", "android-quota"], policyOptions: declarations)

    /// A scenario with two apps and `options` as its `policy_options`.
    func scenario(_ options: String, cacheQuota: String? = nil) -> String {
        """
        duration: 1h
        device: {capacity: 1GB}
        apps:
          - id: game
        \(cacheQuota.map { "    cache_quota: \($0)\n" } ?? "")    resources: [{name: a, size: 10MB, tags: [a]}]
          - id: photos
            resources: [{name: b, size: 10MB, tags: [b]}]
        policy_options:
        \(options)
        """
    }

    func error(_ text: String) -> ScenarioError? {
        do {
            _ = try Self.parser.parse(text, fileName: "s.scn")
            return nil
        } catch {
            return error
        }
    }

    @Test("values arrive parsed, per policy and per app, sizes in bytes")
    func values() throws {
        let s = try Self.parser.parse(
            scenario(
                """
                  quota:
                    default_quota: 32MB
                    apps:
                      game: {cache_quota: 1.5GiB}
                  tuned: {weight: 0.25}
                  apple: {}
                """), fileName: "s.scn")
        let quota = try #require(s.policyOptions["quota"])
        #expect(quota.value("default_quota") == 32_000_000)
        #expect(quota.value("cache_quota", app: "game") == 1.5 * 1_073_741_824)
        #expect(quota.value("cache_quota", app: "photos") == nil)
        #expect(s.policyOptions["tuned"]?.value("weight") == 0.25)
        #expect(s.policyOptions["apple"]?.isEmpty == true)
    }

    @Test("apps[].cache_quota is the same option as policy_options' android-quota cache_quota")
    func olderSpelling() throws {
        let old = try Self.parser.parse(scenario("  apple: {}", cacheQuota: "128MiB"), fileName: "s.scn")
        let new = try Self.parser.parse(
            scenario("  android-quota: {apps: {game: {cache_quota: 128MiB}}}"), fileName: "s.scn")
        #expect(old.policyOptions["android-quota"] == new.policyOptions["android-quota"])
        #expect(new.policyOptions["android-quota"]?.value("cache_quota", app: "game") == 134_217_728)
    }

    @Test("each mistake is one error at its node, with a hint where one helps")
    func mistakes() throws {
        // Line 8 is `policy_options:`; the options are on line 9, indented by 2.
        let cases: [(options: String, line: Int, column: Int, message: String)] = [
            ("  qouta: {}", 9, 3, "unknown policy 'qouta'; did you mean 'quota'?"),
            (
                "  quota: {default_qouta: 1MB}", 9, 11,
                "policy 'quota' has no option 'default_qouta'; did you mean 'default_quota'?"
            ),
            ("  apple: {weight: 1}", 9, 11, "policy 'apple' has no option 'weight'; it takes none"),
            (
                "  quota: {cache_quota: 1MB}", 9, 11,
                "policy 'quota' has no option 'cache_quota'; expected one of: default_quota, apps"
            ),
            ("  quota: {apps: {gaem: {cache_quota: 1MB}}}", 9, 18, "unknown app 'gaem'; did you mean 'game'?"),
            (
                "  quota: {apps: {game: {default_quota: 1MB}}}", 9, 25,
                "policy 'quota' has no option 'default_quota' per app; expected one of: cache_quota"
            ),
            ("  quota: {default_quota: 0MB}", 9, 26, "quota default_quota 0MB must be more than 0 bytes"),
            ("  quota: {default_quota: lots}", 9, 26, "quota default_quota"),
            ("  tuned: {weight: 2}", 9, 19, "tuned weight 2 must be in 0…1"),
            ("  tuned: {weight: heavy}", 9, 19, "tuned weight must be a number, not 'heavy'"),
        ]
        for c in cases {
            let e = try #require(error(scenario(c.options)), "\(c.options)")
            #expect(e.line == c.line && e.column == c.column, "\(c.options): \(e)")
            #expect(e.message.hasPrefix(c.message), "\(c.options): \(e.message)")
        }
        // Given both ways: the second is refused, at the older spelling.
        let twice = try #require(
            error(scenario("  android-quota: {apps: {game: {cache_quota: 1MB}}}", cacheQuota: "2MB")))
        #expect(
            twice.line == 5
                && twice.message.hasPrefix("app 'game' has cache_quota here and in policy_options.android-quota"),
            "\(twice)")
        // The older spelling is checked as the option is.
        let zero = try #require(error(scenario("  apple: {}", cacheQuota: "0MB")))
        #expect(zero.line == 5 && zero.message == "android-quota cache_quota 0MB must be more than 0 bytes", "\(zero)")
    }
}
