import Quantities
import Simulation

/// A time-series sampling interval, checked once for both places it comes from: a
/// scenario's `sample:` and `odr-sim run --sample`. It must be a positive duration that
/// takes at most ``ModelLimits/samples`` samples over the scenario's duration (their rows
/// are kept until the report is written).
public enum SampleInterval {
    /// Why an interval was refused.
    public enum Problem: Error, Equatable {
        /// Not a duration, or not above 0.
        case notPositive
        /// `samples` over the duration, more than ``ModelLimits/samples``.
        case tooMany(samples: Double)
    }

    /// The interval in seconds, for a run of `duration` seconds.
    public static func parse(_ text: String, duration: Double) throws(Problem) -> Double {
        guard let seconds = try? DurationSyntax.parse(text), seconds > 0 else { throw .notPositive }
        guard duration / seconds <= Double(ModelLimits.samples) else { throw .tooMany(samples: duration / seconds) }
        return seconds
    }

    /// "3.15e+11", as the messages write a number of samples.
    public static func describe(_ samples: Double) -> String { String(format: "%.3g", samples) }
}
