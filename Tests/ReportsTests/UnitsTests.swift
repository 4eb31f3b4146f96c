import Testing

@testable import Reports

/// A value that is not there (a point without a policy, an axis left out) is written as a
/// dash, never a trap: a report of a study with explicit points crashed on one (issue 39).
@Suite("Units")
struct UnitsTests {
    @Test("numbers: three significant digits; NaN a dash, infinities as such")
    func numbers() {
        #expect(Units.number(1234.5) == "1235" || Units.number(1234.5) == "1234")
        #expect(Units.number(0.0123) == "0.0123")
        #expect(Units.number(.nan) == "—")
        #expect(Units.number(.infinity) == "∞" && Units.number(-.infinity) == "−∞")
        #expect(Units.bytes(.nan) == "— B" || Units.bytes(.nan).hasPrefix("—"))
    }
}
