import Foundation
import Reports
import Testing

/// Issue 29: in the run report, best-fit's "ODR content" (black) and "in use" (#404040) could
/// not be told apart. Every colour a chart puts beside another is measured here, as the eye
/// sees it: CIE76 ΔE in L*a*b* (about 2 is just noticeable; 30 is plainly different).
@Suite("Report colours")
struct PaletteTests {
    /// sRGB `#rrggbb` to CIE L*a*b* (D65).
    static func lab(_ hex: String) -> (l: Double, a: Double, b: Double) {
        let v = Int(hex.dropFirst(), radix: 16)!
        func linear(_ c: Int) -> Double {
            let x = Double(c) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(v >> 16 & 0xFF), linear(v >> 8 & 0xFF), linear(v & 0xFF))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    static func distance(_ a: String, _ b: String) -> Double {
        let (p, q) = (lab(a), lab(b))
        return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
    }

    @Test("the measure: black and #404040 are 27 apart, white and black 100")
    func measure() {
        #expect(abs(Self.distance("#000000", "#ffffff") - 100) < 0.1)
        #expect(abs(Self.distance("#000000", "#404040") - 27.1) < 0.5)
    }

    @Test(
        """
        every policy's colour stands apart from every state of the disk chart (ΔE ≥ 30), and the states from each \
        other
        """
    )
    func statesApart() {
        let states = [Palette.states.other, Palette.states.inUse, Palette.states.downloading]
        for colour in Palette.colours {
            for state in states {
                #expect(
                    Self.distance(colour, state) >= 30, "\(colour) against \(state): \(Self.distance(colour, state))")
            }
        }
        for i in states.indices {
            for j in states.indices where i < j {
                #expect(Self.distance(states[i], states[j]) >= 30, "\(states[i]) against \(states[j])")
            }
        }
    }

    @Test("policies' colours differ (ΔE ≥ 20), and no two share a dash pattern")
    func policiesApart() {
        let colours = Palette.colours
        for i in colours.indices {
            for j in colours.indices where i < j {
                #expect(Self.distance(colours[i], colours[j]) >= 20, "\(colours[i]) against \(colours[j])")
            }
        }
        #expect(Set(Palette.dashes).count == Palette.dashes.count)
        #expect(Palette.dashes.count == colours.count)
    }
}
