import Foundation
import ScenarioFile
import Testing

@testable import OdrSimCLI

/// Issue 37: one parser per unit. A size or a duration reads the same on the command line and
/// in a file: the same strings fed through both doors are accepted with the same value, or
/// refused by both. On the main before it, `--capacity 64gb` was accepted and `capacity: 64gb`
/// refused, and `1.0000005KB` the other way round.
@Suite("One parser per unit: flags and files agree")
struct OneParserPerUnitTests {
    static let sizes = [
        "0", "1", "123B", "7B", "202976972", "512MB", "512mb", "512Mb", "64MiB", "64mib", "64MIB", "1.5GB", "1.5gb",
        "2 GiB", "10kb", "10kB",
        "10KB", "0.5KiB", "1.0000005KB", "1.0000001KB", "1.5", "64gb", "1TB", "1PiB", "1pib", "1PB", "2PiB",
        "1.0000001PiB",
        "99999999999TB", "-5MB", "+5MB", "", "MB", "12XB", "1.2.3GB", "5b", "5 B", " 5MB ", "1e3", "1e3MB", ".5MB",
        "5.MB",
        "0x10", "١٢MB", "9223372036854775807", "9223372036854775808", String(repeating: "9", count: 40) + "B", "nan",
        "inf",
    ]

    /// The size a scenario file reads for `used:` (nil: refused).
    static func fileSize(_ text: String) -> Int64? {
        let quoted = "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let scenario = """
            duration: 1h
            platform: unlimited
            device: {capacity: 1PiB, used: \(quoted)}
            network: [{at: 0, bandwidth: 1Mbps}]
            apps: [{id: a, resources: [{name: r, size: 1MB, tags: [t]}]}]

            """
        return try? ScenarioParser(knownPolicies: ["apple"]).parse(scenario, fileName: "s.scn").scenario.device.used
    }

    /// The size `--capacity` reads (nil: refused).
    static func flagSize(_ text: String) -> Int64? {
        guard !text.contains(","), !text.hasSuffix("%"), let capacities = try? parseCapacities(text),
            capacities.count == 1,
            case .bytes(let bytes) = capacities[0]
        else { return nil }
        return bytes
    }

    @Test(
        """
        at least 40 size strings: the flag and the file agree on each, accepted with the same bytes or refused by \
        both
        """
    )
    func sizesAgree() {
        #expect(Self.sizes.count >= 40)
        for text in Self.sizes {
            #expect(
                Self.flagSize(text) == Self.fileSize(text),
                """
                '\(text)': flag \(Self.flagSize(text).map(String.init) ?? "refused"), \
                file \(Self.fileSize(text).map(String.init) ?? "refused")
                """
            )
        }
        // And the values are the units' (by hand): decimal and binary, any case, rounded.
        #expect(Self.fileSize("64gb") == 64_000_000_000)
        #expect(Self.fileSize("64MiB") == 67_108_864)
        #expect(Self.fileSize("1.0000005KB") == 1_000)
        #expect(Self.fileSize("1PiB") == 1 << 50)
        #expect(Self.fileSize("2PiB") == nil)
        #expect(Self.fileSize("5b") == nil)
    }

    static let durations = [
        "0", "90", "90s", "1.5s", "250ms", "2m", "3h", "14d", "1d8h", "2h30m", "5d16h30m", "1w", "3650d", "3651d",
        "-1s", "", "soon", "1h1d", "1.5.5s", "1e3", "90S", "2M", "nan", "1d 8h",
    ]

    /// The duration a scenario reads for `duration:` (nil: refused or zero, which a run refuses).
    static func fileDuration(_ text: String) -> Double? {
        let scenario = """
            duration: "\(text)"
            device: {capacity: 1GB, used: 0}
            network: [{at: 0, bandwidth: 1Mbps}]
            apps: [{id: a, resources: [{name: r, size: 1MB, tags: [t]}]}]

            """
        return try? ScenarioParser(knownPolicies: ["apple"]).parse(scenario, fileName: "s.scn").scenario.duration
    }

    @Test("durations: --warmup reads what duration: reads")
    func durationsAgree() {
        for text in Self.durations {
            let flag: Double? = try? WarmupOption.parse(["--warmup", text]).seconds(
                shortestRun: .greatestFiniteMagnitude)
            let file = Self.fileDuration(text)
            // A file refuses a zero duration (nothing would run); the flag takes a zero warm-up.
            if file == nil, let flag, flag == 0 { continue }
            #expect(
                flag == file,
                "'\(text)': flag \(flag.map { "\($0)" } ?? "refused"), file \(file.map { "\($0)" } ?? "refused")")
        }
    }
}
