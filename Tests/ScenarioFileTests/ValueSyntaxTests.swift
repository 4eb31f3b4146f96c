import ODRCore
import Testing

@testable import Quantities
@testable import ScenarioFile

@Suite("Sizes")
struct SizeSyntaxTests {
    @Test(
        arguments: [
            ("123B", 123), ("0", 0), ("4096", 4096), ("700KB", 700_000), ("700kB", 700_000),
            ("512MB", 512_000_000), ("1.5GB", 1_500_000_000), ("1.1GB", 1_100_000_000), ("2TB", 2_000_000_000_000),
            ("1KiB", 1024), ("64MiB", 67_108_864), ("1.5GiB", 1_610_612_736), ("1TiB", 1_099_511_627_776),
            ("40 MB", 40_000_000), (" 3GB ", 3_000_000_000), ("0.5KiB", 512), ("0.0001KB", 0), ("+5MB", 5_000_000),
        ] as [(String, Int64)])
    func decimalAndBinaryUnits(text: String, bytes: Int64) throws {
        #expect(try SizeSyntax.parse(text) == bytes)
    }

    @Test func fractionsRoundToTheNearestByte() throws {
        #expect(try SizeSyntax.parse("0.1KiB") == 102)  // 102.4
        #expect(try SizeSyntax.parse("0.0005KB") == 1)  // 0.5 rounds up
    }

    @Test func signedSizesForDiskEvents() throws {
        #expect(try SizeSyntax.parseSigned("+3GB") == 3_000_000_000)
        #expect(try SizeSyntax.parseSigned("-1GB") == -1_000_000_000)
        #expect(try SizeSyntax.parseSigned("2MiB") == 2_097_152)
        #expect(try SizeSyntax.parseSigned("-0") == 0)
    }

    @Test func negativeIsAnError() {
        #expect(throws: ValueSyntaxError(text: "-1GB", problem: .negative(kind: "size"))) {
            try SizeSyntax.parse("-1GB")
        }
    }

    @Test(arguments: [
        "", "MB", "12XB", "1.2.3GB", "1e9", "0x10", "12 mbit", "GB12", "1,5GB", "inf", "nan", "--1GB", "1GB2",
    ])
    func unparsable(text: String) {
        #expect(throws: ValueSyntaxError(text: text, problem: .unparsable(kind: "size", expected: SizeSyntax.expected)))
        {
            try SizeSyntax.parse(text)
        }
    }

    @Test(arguments: [
        "9999999TB", "99999999999999999999", "9223372036854775808", "9223372036854775807", "1125899906842625",
        "1.0000001PiB",
    ])
    func tooLarge(text: String) {
        #expect(throws: ValueSyntaxError(text: text, problem: .tooLarge(kind: "size", maximum: "1PiB"))) {
            try SizeSyntax.parse(text)
        }
    }

    /// The model's limit, 1 PiB (ModelLimits.bytes): nothing derived from sizes up to it
    /// can overflow (issue 24).
    @Test func largestSizeFits() throws {
        #expect(try SizeSyntax.parse("1PiB") == 1 << 50)
        #expect(try SizeSyntax.parse("1125899906842624") == 1_125_899_906_842_624)
        #expect(try SizeSyntax.parseSigned("-1PiB") == -(1 << 50))
    }

    @Test func messages() {
        #expect(
            ValueSyntaxError(text: "-1GB", problem: .negative(kind: "size")).message(subject: "size")
                == "size '-1GB' is negative; a size cannot be below 0")
        #expect(
            ValueSyntaxError(text: "12XB", problem: .unparsable(kind: "size", expected: SizeSyntax.expected))
                .description
                    == """
                    value must be a size, not '12XB'; use a number and a unit (B, KB, MB, GB, TB, PB, KiB, MiB, GiB, \
                    TiB, PiB), such as 512MB or 1.5GB
                    """
        )
    }
}

@Suite("Bandwidths")
struct BandwidthSyntaxTests {
    @Test(
        arguments: [
            ("300Mbps", 300e6), ("40Kbps", 40e3), ("40kbps", 40e3), ("1Gbps", 1e9), ("0", 0), ("9600bps", 9600),
            ("2.5Mbps", 2.5e6), ("1000", 1000),
        ] as [(String, Double)])
    func bitsPerSecondInPowersOfTen(text: String, bitsPerSecond: Double) throws {
        #expect(try BandwidthSyntax.parse(text) == bitsPerSecond)
    }

    @Test(arguments: ["40MBps", "fast", "", "40 Mb", "Mbps"])
    func unparsable(text: String) {
        #expect(
            throws: ValueSyntaxError(
                text: text, problem: .unparsable(kind: "bandwidth", expected: BandwidthSyntax.expected))
        ) {
            try BandwidthSyntax.parse(text)
        }
    }

    @Test func negativeIsAnError() {
        #expect(throws: ValueSyntaxError(text: "-1Mbps", problem: .negative(kind: "bandwidth"))) {
            try BandwidthSyntax.parse("-1Mbps")
        }
    }
}

@Suite("Times")
struct DurationSyntaxTests {
    @Test(
        arguments: [
            ("0", 0), ("90s", 90), ("1.5s", 1.5), ("250ms", 0.25), ("2m", 120), ("3h", 10_800), ("14d", 1_209_600),
            ("45", 45), ("2.5", 2.5), ("0.5h", 1_800), ("1 h", 3_600),
        ] as [(String, Double)])
    func secondsFromUnits(text: String, seconds: Double) throws {
        #expect(try DurationSyntax.parse(text) == seconds)
    }

    @Test(arguments: ["5min", "1:30", "2w", "soon", "", "30m1h", "1e3s"])
    func unparsable(text: String) {
        #expect(
            throws: ValueSyntaxError(text: text, problem: .unparsable(kind: "time", expected: DurationSyntax.expected))
        ) {
            try DurationSyntax.parse(text)
        }
    }

    @Test func negativeIsAnError() throws {
        #expect(throws: ValueSyntaxError(text: "-5s", problem: .negative(kind: "time"))) {
            try DurationSyntax.parse("-5s")
        }
        #expect(try DurationSyntax.parse("-0") == 0)
    }
}

@Suite("Priorities")
struct PrioritySyntaxTests {
    @Test(arguments: [("0", 0), ("1", 1), ("0.5", 0.5), (".25", 0.25), ("1.0", 1)] as [(String, Double)])
    func fractions(text: String, value: Double) throws {
        #expect(try PrioritySyntax.parseFraction(text) == value)
        #expect(try PrioritySyntax.parseLoading(text) == LoadingPriority(value))
    }

    @Test func urgentIsALoadingPriorityOnly() throws {
        #expect(try PrioritySyntax.parseLoading("urgent") == .urgent)
        #expect(throws: ValueSyntaxError.self) { try PrioritySyntax.parseFraction("urgent") }
    }

    @Test(arguments: ["1.5", "-0.1", "2"])
    func outsideZeroToOne(text: String) {
        #expect(throws: ValueSyntaxError(text: text, problem: .outOfRange(range: "0…1"))) {
            try PrioritySyntax.parseFraction(text)
        }
        #expect(throws: ValueSyntaxError(text: text, problem: .outOfRange(range: "0…1"))) {
            try PrioritySyntax.parseLoading(text)
        }
    }

    @Test func unparsableNamesUrgentOnlyForLoading() {
        #expect(
            throws: ValueSyntaxError(
                text: "high", problem: .unparsable(kind: "loading priority", expected: PrioritySyntax.expectedLoading))
        ) {
            try PrioritySyntax.parseLoading("high")
        }
        #expect(
            throws: ValueSyntaxError(
                text: "high", problem: .unparsable(kind: "priority", expected: PrioritySyntax.expected))
        ) {
            try PrioritySyntax.parseFraction("high")
        }
    }

    @Test func outOfRangeMessage() {
        #expect(
            ValueSyntaxError(text: "1.5", problem: .outOfRange(range: "0…1")).message(subject: "priority")
                == "priority is 1.5, outside 0…1")
    }
}

@Suite("Did you mean")
struct NameSuggestionTests {
    @Test func editDistance() {
        #expect(NameSuggestion.editDistance("kitten", "sitting") == 3)
        #expect(NameSuggestion.editDistance("", "abc") == 3)
        #expect(NameSuggestion.editDistance("policies", "polices") == 1)
    }

    @Test func closeNamesOnly() {
        #expect(NameSuggestion.closest(to: "polices", among: ["name", "policies", "platform"]) == "policies")
        #expect(NameSuggestion.closest(to: "Duration", among: ["duration"]) == "duration")
        #expect(NameSuggestion.closest(to: "xyz", among: ["duration", "device"]) == nil)
        // Long names allow a third of their length: 3 edits in 12 characters.
        #expect(NameSuggestion.closest(to: "on_low_dsk_x", among: ["on_low_disk"]) == "on_low_disk")
    }

    @Test func hintListsFewCandidatesWhenNoneIsClose() {
        #expect(NameSuggestion.hint(for: "tvos", among: ["ios17", "ios18", "tvos18"]) == "; did you mean 'tvos18'?")
        #expect(NameSuggestion.hint(for: "zzz", among: ["a1", "b1"]) == "; expected one of: a1, b1")
        #expect(NameSuggestion.hint(for: "zzz", among: (0..<20).map { "tag\($0)" }) == "")
        #expect(NameSuggestion.hint(for: "zzz", among: [], noneText: "none here") == "; none here")
    }
}

@Suite("Decimal numbers")
struct DecimalNumberTests {
    @Test func exactScaling() throws {
        #expect(try DecimalNumber("1.1").magnitude(times: 1_000_000_000) == 1_100_000_000)
        #expect(try DecimalNumber("1.000000000001").magnitude(times: 1_000_000_000_000) == 1_000_000_000_001)
        #expect(try DecimalNumber("9223372036854775807").magnitude(times: 1) == Int64.max)
        #expect(try DecimalNumber("9223372036854775808").magnitude(times: 1) == nil)
    }

    @Test func splitsNumberFromUnit() {
        #expect(DecimalNumber.split("1.5 GB") == ("1.5", "GB"))
        #expect(DecimalNumber.split("-3GB") == ("-3", "GB"))
    }
}

private let compoundCases: [(String, Double)] = [
    ("1d8h", 115_200),  // 86,400 + 8 × 3,600
    ("2h30m", 9_000),  // 7,200 + 1,800
    ("5d16h30m", 491_400),  // 432,000 + 57,600 + 1,800
    ("1m30s", 90),
    ("1s500ms", 1.5),
]

@Suite("Compound durations (odr-sim extension)")
struct CompoundDurationTests {
    @Test("units chain from largest to smallest", arguments: compoundCases)
    func chained(text: String, seconds: Double) throws {
        #expect(try DurationSyntax.parse(text) == seconds)
    }

    @Test("out of order or repeated units are not durations", arguments: ["8h1d", "1h1h", "1d-2h", "1dh"])
    func rejected(text: String) {
        #expect(throws: ValueSyntaxError.self) { try DurationSyntax.parse(text) }
    }
}
