import Metrics
import Quantities

/// `--warmup`: the start of every run left out of every metric, a duration or `auto`
/// (compare's first pass chooses it by MSER-5).
public enum Warmup {
    /// Why a warm-up is refused: a one-line reason naming `--warmup`.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The warm-up of `text` in seconds (0 for `auto`, chosen later); it must end before the
    /// shortest run does, and cannot go with a bound of re-downloads (of the whole run).
    public static func seconds(_ text: String, shortestRun duration: Double, bound: Bool) throws(Refusal) -> Double {
        let whole = Refusal(description: "--warmup and --bound do not combine: the bound is of the whole run")
        if text == "auto" {
            if bound { throw whole }
            return 0
        }
        let seconds: Double
        do { seconds = try DurationSyntax.parse(text) } catch { throw Refusal(description: "--warmup: \(error)") }
        guard seconds < duration else {
            throw Refusal(
                description: """
                    --warmup \(text) is not shorter than the run (\(humanDuration(duration))); nothing would be \
                    measured
                    """)
        }
        guard !bound || seconds == 0 else { throw whole }
        return seconds
    }
}
