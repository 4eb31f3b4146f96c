import Foundation

/// Events per second, read from forms like `3/d` or `2/h` in scenarios.
public typealias Rate = Double

/// A daily cycle of intensity: the rate at time t is `rate · (1 + amplitude · sin(2π (t − peak)/1 d + π/2))`,
/// highest at `peak` seconds after midnight. Arrivals follow it by thinning (Lewis–Shedler).
public struct DailyCycle: Sendable, Hashable {
    /// 0…1: 0 is flat, 1 swings from 0 to twice the mean rate.
    public var amplitude: Double
    /// Seconds after midnight of the busiest moment.
    public var peak: Double

    public init(amplitude: Double, peak: Double) {
        self.amplitude = amplitude
        self.peak = peak
    }

    /// The rate multiplier at `time` (0…1+amplitude); its daily mean is 1.
    public func factor(at time: Double) -> Double {
        let phase = 2 * Double.pi * (time - peak) / 86_400 + Double.pi / 2
        return 1 + amplitude * sin(phase)
    }
}
