/// The largest values the model takes, whatever the input format: every number read from a
/// scenario, study, trace or command line is checked against them, and every value drawn
/// from a distribution is clipped to them.
///
/// They are chosen so that nothing derived from them can overflow: at most ``bitsPerSecond``
/// for at most ``seconds`` moves under 2^62 bytes (4 × 10^18), so byte totals, disk use and
/// bandwidth × time stay inside `Int64`, and times stay exact to the microsecond in a `Double`.
public enum ModelLimits {
    /// 1 PiB (2^50 bytes): a size, a capacity, a disk change, a size median.
    public static let bytes: Int64 = 1 << 50
    /// The same, as scenario files write it.
    public static let bytesText = "1PiB"
    /// 100 Gbps: a link's bandwidth.
    public static let bitsPerSecond: Double = 100e9
    public static let bitsPerSecondText = "100Gbps"
    /// Ten years (3650 days): a time, a duration, a median hold or session.
    public static let seconds: Double = 3_650 * 86_400
    public static let secondsText = "3650d"
    /// A million events per second: a generator's rate (what a run may do is bounded by
    /// `--max-events`, checked against the workload's estimate before it starts).
    public static let eventsPerSecond: Double = 1_000_000
    /// 10: a lognormal's sigma (e^10 ≈ 22,000 between the median and one sigma).
    public static let sigma: Double = 10
    /// Ten million: the runs of a study (points × policies × replications); a merge of its
    /// shards keeps a line per run.
    public static let studyRuns = 10_000_000
    /// Most replications a scenario or a command may ask for: each is a run per policy whose
    /// summary is kept until the report is written, and 10,000 already narrow a 95 % interval
    /// a hundredfold from one run's spread.
    public static let replications = 10_000

    /// Most time-series samples one run may take: the rows are kept until the report is
    /// written (about 100 bytes each), so `sample: 1ms` over ten years is refused up front.
    public static let samples = 1_000_000

    /// 100: a Zipf exponent.
    public static let zipfAlpha: Double = 100

    /// A live run's clock (`odr-sim live --speed`, `odr-sim serve --speed`): from a thousandth
    /// to a million virtual seconds a real one (a real second then covers eleven days).
    public static let clockSpeeds: ClosedRange<Double> = 0.001...1_000_000

    /// A drawn size in bytes, rounded and clipped to 1 … ``bytes`` (a draw can be any
    /// positive double, infinity included).
    public static func drawnBytes(_ value: Double) -> Int64 {
        guard value < Double(bytes) else { return bytes }
        return Swift.max(0, Int64(value.rounded()))
    }

    /// A drawn duration in seconds, clipped to 0 … ``seconds``.
    public static func drawnSeconds(_ value: Double) -> Double {
        value < seconds ? Swift.max(0, value) : seconds
    }
}
