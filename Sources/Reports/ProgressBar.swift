import Experiments
import Foundation
import Metrics

/// A progress bar with an estimate of the time left, on stderr, shown only on a terminal
/// and only once the work passes one second; redrawn at most ten times a second.
/// `ODR_SIM_PROGRESS=always` shows it on any stderr from the first update (a long job's log).
public final class ProgressBar: @unchecked Sendable {
    private let unit: String
    private let started = Date()
    private let lock = NSLock()
    private var shown = false
    private var lastDrawn = Date.distantPast
    /// Whether anything will be drawn (a terminal, or `ODR_SIM_PROGRESS=always`).
    public let enabled: Bool
    private let delay: Double

    public init(unit: String) {
        self.unit = unit
        let always = ProcessInfo.processInfo.environment["ODR_SIM_PROGRESS"] == "always"
        enabled = always || isatty(STDERR_FILENO) == 1
        delay = always ? 0 : 1
    }

    public func update(fraction: Double, done: Int, total: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= delay, now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        shown = true
        lastDrawn = now
        let f = min(1, max(0, fraction))
        let width = 30
        let filled = Int(Double(width) * f)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let left = f > 0 ? humanDuration(elapsed * (1 - f) / f) + " left" : "estimating"
        let line = String(format: "[%@] %3.0f%% · %d/%d %@ · %@", bar, f * 100, done, total, unit, left)
        FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
    }

    /// The runs of `runner` (all, or `indices`) with this bar following them; where nothing
    /// is drawn (not a terminal) the runs make no progress calls at all.
    public func run(_ runner: ExperimentRunner, indices: [Int]? = nil) throws -> [ExperimentRunner.RunResult] {
        defer { finish() }
        return try runner.run(indices: indices, progress: drawing)
    }

    /// `runner`'s runs point by point, each handed to `fold` as it finishes
    /// (``Experiments/ExperimentRunner/run(indices:first:progress:deliver:)``), drawn as they go.
    public func run(_ runner: ExperimentRunner, indices: [Int]? = nil, folding fold: StudyFold) throws {
        defer { finish() }
        try runner.run(indices: indices, first: fold.first, progress: drawing, deliver: fold.receive)
    }

    /// `runner`'s runs `indices`, each handed to `runs` as it finishes, of which only its lines are
    /// kept (``Experiments/ExperimentRunner/run(indices:progress:deliver:)``), drawn as they go.
    public func run(_ runner: ExperimentRunner, indices: [Int], keepingLinesIn runs: ShardRuns) throws {
        defer { finish() }
        try runner.run(indices: indices, progress: drawing, deliver: runs.receive)
    }

    /// The runner's progress calls that draw this bar; nil where nothing is drawn.
    private var drawing: (@Sendable (ExperimentRunner.Progress) -> Void)? {
        guard enabled else { return nil }
        return { (p: ExperimentRunner.Progress) in self.update(fraction: p.fraction, done: p.finished, total: p.total) }
    }

    /// A fraction of `total` items done, as a callback; nil where nothing is drawn.
    public func fractions(of total: Int) -> ((Double) -> Void)? {
        guard enabled else { return nil }
        return { (f: Double) in self.update(fraction: f, done: Int(f * Double(total)), total: total) }
    }

    public func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }
}
