import Foundation

/// CSV text built as UTF-8 bytes, field by field: the same text as ``CSV/row(_:)`` with
/// ``CSV/seconds(_:)`` and decimal integers, without an intermediate string per field.
///
/// Performance: `events.csv` has a row per core event (millions on a long run); through
/// strings, `String(format:)` and `joined`, a row cost about 20,000 instructions.
struct CSVText {
    private(set) var bytes: [UInt8] = []
    private var atLineStart = true

    var isEmpty: Bool { bytes.isEmpty }
    var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if atLineStart { atLineStart = false } else { bytes.append(UInt8(ascii: ",")) }
    }

    /// A text field, quoted when it holds a comma, quote or line break.
    mutating func field(_ text: String) {
        separate()
        if text.isEmpty { return }
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { append(field: $0) }
        if done == nil { Array(text.utf8).withUnsafeBufferPointer { append(field: $0) } }
    }

    private mutating func append(field utf8: UnsafeBufferPointer<UInt8>) {
        var special = false
        for byte in utf8 where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 10 || byte == 13 {
            special = true
            break
        }
        guard special else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in utf8 {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer in decimal, or an empty field for nil.
    mutating func field(_ value: Int64?) {
        separate()
        if let value { appendDecimal(value) }
    }

    /// Seconds as ``CSV/seconds(_:)`` writes them ("%.6f"), or an empty field for nil.
    mutating func seconds(_ value: Double?) {
        separate()
        guard let value else { return }
        // Exact "%.6f" by integer arithmetic: the binary value times 10^6, rounded half to
        // even, as glibc's printf rounds. For the times a run produces (0 to about a
        // hundred thousand years); anything else goes through printf itself.
        guard value > 0, value < 4e12 else {
            if value == 0 && value.sign == .plus {
                bytes.append(contentsOf: "0.000000".utf8)
            } else {
                bytes.append(contentsOf: String(format: "%.6f", value).utf8)
            }
            return
        }
        let biased = Int(value.exponentBitPattern)
        let mantissa = UInt128(biased == 0 ? value.significandBitPattern : value.significandBitPattern | (1 << 52))
        let shift = 1075 - Swift.max(biased, 1)   // value = mantissa / 2^shift, shift > 0 here
        var micros: UInt64 = 0   // value·10^6 < 4·10^18 fits
        if shift <= 100 {
            let scaled = mantissa * 1_000_000
            var rounded = scaled >> shift
            let rest = scaled & ((1 << shift) - 1)
            let half: UInt128 = 1 << (shift - 1)
            if rest > half || (rest == half && rounded & 1 == 1) { rounded += 1 }
            micros = UInt64(rounded)
        }   // else value·10^6 < 2^-27: rounds to 0
        appendDigits(micros / 1_000_000, atLeast: 1)
        bytes.append(UInt8(ascii: "."))
        appendDigits(micros % 1_000_000, atLeast: 6)
    }

    mutating func endRow() {
        bytes.append(10)
        atLineStart = true
    }

    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, atLeast: 1)
    }

    /// `value` in decimal, zero-padded to `atLeast` digits, appended in one piece.
    private mutating func appendDigits(_ value: UInt64, atLeast minimum: Int) {
        // 20 digits hold any UInt64; written from the end of a stack buffer.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            var value = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0 || digits.count - start < minimum
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[start...]))
        }
    }
}
