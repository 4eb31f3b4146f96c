import Foundation
import PropertyBased
import Testing

@testable import Metrics

/// `events.csv` is written byte by byte for speed; it must be the text the string-based
/// `CSV.row` with `CSV.seconds` ("%.6f" through printf) and decimal integers would give.
@Suite("CSV text")
struct CSVTextTests {
    /// A field value: plain text, text with separators, quotes and line breaks, a number of
    /// seconds, an integer, or an empty (nil) number.
    enum Value: Sendable, CustomStringConvertible {
        case text(String)
        case seconds(Double?)
        case integer(Int64?)
        var description: String {
            switch self {
            case .text(let t): "text(\(t.debugDescription))"
            case .seconds(let s): "seconds(\(s.map { String($0.bitPattern, radix: 16) } ?? "nil"))"
            case .integer(let i): "integer(\(i.map(String.init) ?? "nil"))"
            }
        }
    }

    static let text = Gen.oneOf(
        Gen.always(""), Gen.always("a,b"), Gen.always("say \"hi\""), Gen.always("line\nbreak"),
        Gen.always("cr\r\nlf"), Gen.always("épisode 3"), Gen.always("popularity1-42"))
    /// Seconds: any bit pattern in range, dyadic values whose sixth decimal is an exact tie
    /// (k·2^-7 = k·0.0078125), whole and tiny values, zero and negative zero.
    static let seconds = Gen.oneOf(
        Gen.uint64(in: 0...0x42C0_0000_0000_0000).map { Double(bitPattern: $0) },
        Gen.int(in: 0...4_000_000).map { Double($0) * 0.0078125 },
        Gen.int(in: 0...86_400 * 366).map { Double($0) },
        Gen.int(in: 1...1_000_000).map { Double($0) * 1e-9 },
        Gen.always(0.0), Gen.always(-0.0), Gen.always(5e11 + 0.5)
    )
    static let integers = Gen.oneOf(
        Gen.int(in: -1_000_000...1_000_000).map { Int64($0) },
        Gen.always(Int64.max), Gen.always(Int64.min), Gen.always(0))
    static let value = Gen.oneOf(
        text.map { Value.text($0) }, seconds.map { Value.seconds($0) }, Gen.always(Value.seconds(nil)),
        integers.map { Value.integer($0) }, Gen.always(Value.integer(nil)))

    @Test("Rows equal CSV.row of the same fields")
    func sameText() async {
        await propertyCheck(count: 500, input: Self.value.array(of: 1...12).array(of: 1...4)) { rows in
            let text = CSVText()
            var expected = ""
            for row in rows {
                var fields: [String] = []
                for value in row {
                    switch value {
                    case .text(let t):
                        text.field(t)
                        fields.append(t)
                    case .seconds(let s):
                        text.seconds(s)
                        fields.append(s.map(CSV.seconds) ?? "")
                    case .integer(let i):
                        text.field(i)
                        fields.append(i.map { "\($0)" } ?? "")
                    }
                }
                text.endRow()
                expected += CSV.row(fields)
            }
            #expect(text.string == expected)
        }
    }

    @Test("Exact ties of the sixth decimal round half to even, as printf does")
    func ties() {
        let text = CSVText()
        for value in [0.0078125, 0.0234375, 1.0000005, 2.5e-7] { text.seconds(value) }
        // 0.0078125 and 0.0234375 are exact binary values with a 5 in the seventh decimal;
        // 1.0000005 and 2.5e-7 are not exact (their binary values lie above and below).
        #expect(text.string == "0.007812,0.023438,\(String(format: "%.6f", 1.0000005)),0.000000")
    }

    @Test("CSV.decimal writes what printf's %.6f writes, signs, ties and large values included")
    func decimalIsPrintf() {
        var values: [Double] = [
            0, -0.0, 1e-9, -1e-9, 0.0000005, 0.0000015, 0.0000025, -0.0000025, 0.5, 2.5e-7,
            123456.1234565, 3.999999e12, 4e12, 4.5e12, -7.25, 1e300, -1e300, .leastNonzeroMagnitude,
            Double(Int64.max), 1_234_567_890.123, 0.1, 0.2, 0.3,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let exponent = Double.random(in: -12...14, using: &generator)
            values.append((Bool.random(using: &generator) ? 1 : -1) * pow(10, exponent))
            // Sixth-decimal ties: k / 2·10^6 exactly where binary allows it.
            values.append(Double(Int.random(in: 0...1_000_000, using: &generator)) / 2_000_000)
        }
        for value in values {
            #expect(CSV.decimal(value) == String(format: "%.6f", value), "\(value.bitPattern)")
        }
        #expect(CSV.decimal(.nan) == "" && CSV.decimal(.infinity) == "")
        #expect(CSV.decimal(0.125, places: 2) == String(format: "%.2f", 0.125))
    }

    @Test("A number as written reads back as asWritten says, bit for bit, without the text")
    func asWrittenIsTheReadBack() {
        var values: [Double] = [
            0, -0.0, 1e-9, -1e-9, 0.0000005, 0.0000015, -0.0000025, 0.5, 123456.1234565, 9_007_199_254.740_991,
            9_007_199_254.740_993, 3.999999e12, 4e12, 4.5e12, -7.25, 1e300, -1e300, .leastNonzeroMagnitude,
            Double(Int64.max), Double(Int64.min), Double(1 << 53 + 1), 0.1, 0.2, 0.3, .nan, .infinity, -.infinity,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let exponent = Double.random(in: -12...17, using: &generator)
            values.append((Bool.random(using: &generator) ? 1 : -1) * pow(10, exponent))
            values.append(Double(Int.random(in: 0...1_000_000, using: &generator)) / 2_000_000)
            values.append(Double(bitPattern: UInt64.random(in: 0...0x42C0_0000_0000_0000, using: &generator)))
        }
        for value in values {
            // What a reader of the file gets: `nan` for no value, as SummaryRow writes it.
            let seconds = value.isFinite ? Double(CSV.seconds(value))! : .nan
            let read = CSV.asWritten(seconds: value)
            #expect(read.bitPattern == seconds.bitPattern || (read.isNaN && seconds.isNaN), "\(value.bitPattern)")
            guard value.isFinite, value.magnitude < 9.2e18 else { continue }
            #expect(CSV.asWritten(integer: value).bitPattern == Double(String(Int64(value)))!.bitPattern)
        }
    }
}
