import Foundation
import Metrics
import Quantities

/// Selection of the best policy by Kim and Nelson's fully sequential indifference-zone
/// procedure, KN (Kim and Nelson, "A fully sequential procedure for indifference-zone
/// selection in simulation", ACM TOMACS 11(3), 2001), on common random numbers (which KN
/// allows: it screens on the variances of paired differences).
///
/// With k policies, an indifference zone δ and confidence 1 − α: after n₀ replications of
/// each, η = ½[(2α/(k−1))^(−2/(n₀−1)) − 1] and h² = 2η(n₀ − 1), and S²ᵢₗ is the variance of
/// the differences of i and l. Then, one replication of every survivor at a time, a policy i
/// is eliminated when some survivor l is better by more than
/// Wᵢₗ(r) = max(0, δ/(2r) · (h²S²ᵢₗ/δ² − r)). With probability ≥ 1 − α the survivor is the
/// best, or within δ of it. A cap on replications ends it early, with the survivors said.
public struct SelectBest: Sendable {
    /// The policy left, if one is.
    public let best: String?
    /// The policies still in when the procedure stopped (one, or several at the cap).
    public let survivors: [String]
    /// Each eliminated policy and the replication at which it was.
    public let eliminated: [(policy: String, replication: Int)]
    /// Policies set aside as identical to another (every one of the first n₀ replications the
    /// same value), each with the one it is identical to: KN cannot separate them (their
    /// differences have no variance), so the first stands for both and the rest stop.
    public var identical: [(policy: String, sameAs: String)] = []
    /// Replications averaged into each observation (1: single runs).
    public var batch = 1
    /// The replications of KN's first stage (n₀ observations of `batch` each).
    public var firstStage = 0
    /// The most replications any policy ran.
    public let replications: Int
    public let indifference: Double
    public let confidence: Double

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs KN over `policies` (at least 2) on the metric `observe` returns for replication
    /// `r` of each given policy; `lowerIsBetter` says which way is best.
    public static func run(
        policies: [String], lowerIsBetter: Bool, indifference delta: Double, confidence: Double,
        initial n0: Int = SelectBest.initialReplications, maximum: Int,
        observe: (_ replication: Int, _ policies: [String]) throws -> [String: Double]
    ) throws -> SelectBest {
        let k = policies.count
        guard k >= 2, delta > 0, confidence > 0, confidence < 1, n0 >= 2, maximum >= n0 else {
            throw Failure(
                description:
                    """
                    KN needs 2 or more policies, an indifference above 0, a confidence in (0, 1) and room for \(n0) \
                    replications
                    """
            )
        }
        let alpha = 1 - confidence
        let eta = 0.5 * (pow(2 * alpha / Double(k - 1), -2 / Double(n0 - 1)) - 1)
        let h2 = 2 * eta * Double(n0 - 1)
        // Values as "lower is better" throughout.
        let sign = lowerIsBetter ? 1.0 : -1.0
        var values: [String: [Double]] = Dictionary(uniqueKeysWithValues: policies.map { ($0, []) })
        for r in 1...n0 {
            for (policy, x) in try observe(r, policies) { values[policy, default: []].append(sign * x) }
        }
        var variance: [String: [String: Double]] = [:]
        for i in policies {
            for l in policies where l != i {
                let d = zip(values[i]!, values[l]!).map { $0 - $1 }
                let mean = d.reduce(0, +) / Double(d.count)
                variance[i, default: [:]][l] = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n0 - 1)
            }
        }
        var alive = policies
        var eliminated: [(policy: String, replication: Int)] = []
        // Identical systems (issue 51): the same value in each of the n₀ replications. Their
        // variance is 0, so KN's margin is 0 and neither is ever eliminated: the first stands
        // for the others, which stop here, reported identical.
        var identical: [(policy: String, sameAs: String)] = []
        for (k, i) in policies.enumerated() {
            guard alive.contains(i), let same = policies.prefix(k).first(where: { values[$0]! == values[i]! })
            else { continue }
            identical.append((i, same))
            alive.removeAll { $0 == i }
        }
        var r = n0
        while true {
            let means = Dictionary(uniqueKeysWithValues: alive.map { ($0, values[$0]!.reduce(0, +) / Double(r)) })
            let out = alive.filter { i in
                alive.contains { l in
                    l != i
                        && means[i]! > means[l]!
                            + max(0, delta / (2 * Double(r)) * (h2 * variance[i]![l]! / (delta * delta) - Double(r)))
                }
            }
            eliminated += out.map { ($0, r) }
            alive.removeAll { out.contains($0) }
            if alive.count <= 1 || r >= maximum { break }
            r += 1
            for (policy, x) in try observe(r, alive) { values[policy, default: []].append(sign * x) }
        }
        var selection = SelectBest(
            best: alive.count == 1 ? alive[0] : nil, survivors: alive, eliminated: eliminated, replications: r,
            indifference: delta, confidence: confidence)
        selection.identical = identical
        selection.firstStage = n0
        return selection
    }

    /// Replications of every policy before KN's first screening (n₀). Kim and Nelson's
    /// guarantee assumes normal outputs; this simulator's are skewed and often zero-inflated,
    /// and a larger n₀ makes the variances KN screens on steadier (20 rather than the usual 10;
    /// the calibration suite measures the probability of a correct selection it gives).
    public static let initialReplications = 20

    /// Why `confidence` is no probability of a correct selection (it must lie in (0.5, 1)),
    /// nil when it is one.
    public static func problem(confidence: Double) -> String? {
        confidence > 0.5 && confidence < 1
            ? nil : "must be above 0.5 and below 1 (the probability of a correct selection), not \(confidence)"
    }

    /// `--select-best METRIC --indifference DELTA` read: the metric and δ in its unit (a size,
    /// a duration, a count).
    public static func target(
        metric name: String, indifference text: String?
    ) throws(Failure) -> (metric: Metric, delta: Double) {
        guard let metric = Metric(rawValue: name) else {
            throw Failure(
                description:
                    "--select-best: '\(name)' is not a metric "
                    + "(\(Metric.allCases.map(\.column).joined(separator: ", ")))"
            )
        }
        guard let text else {
            throw Failure(
                description:
                    """
                    --select-best needs --indifference DELTA: the difference not worth telling apart, in \
                    \(metric.column)'s unit
                    """
            )
        }
        let delta: Double? =
            switch metric.unit {
            case .bytes: (try? SizeSyntax.parse(text)).map(Double.init)
            case .seconds: try? DurationSyntax.parse(text)
            default: Double(text)
            }
        guard let delta, delta > 0, delta.isFinite else {
            let kind =
                switch metric.unit {
                case .bytes: "a size from 1 B to \(ModelLimits.bytesText) (such as 50MB)"
                case .seconds: "a duration above 0 up to \(ModelLimits.secondsText) (such as 30s)"
                default: "a number above 0"
                }
            throw Failure(description: "--indifference: '\(text)' is not \(kind) for \(metric.column)")
        }
        return (metric, delta)
    }

    /// `--format json`'s `selection`: the metric, δ, the confidence asked, the best (null when
    /// not decided), the survivors, each elimination and identity, the replications and the
    /// sentence the terminal prints.
    public func json(metric: Metric, sentence: String) -> String {
        JSONText.object([
            ("metric", JSONText.string(metric.column)), ("indifference", JSONText.number(indifference)),
            ("confidence", JSONText.number(confidence)), ("best", best.map(JSONText.string) ?? "null"),
            ("survivors", JSONText.array(survivors.map(JSONText.string))),
            (
                "eliminated",
                JSONText.array(
                    eliminated.map {
                        JSONText.object([
                            ("policy", JSONText.string($0.policy)), ("replication", String($0.replication)),
                        ])
                    })
            ),
            (
                "identical",
                JSONText.array(
                    identical.map {
                        JSONText.object([
                            ("policy", JSONText.string($0.policy)), ("same_as", JSONText.string($0.sameAs)),
                        ])
                    })
            ),
            ("replications", String(replications)), ("sentence", JSONText.string(sentence)),
        ])
    }

    /// The sentence: "lru is the best within 50 MB with probability ≥ 0.95 under KN's normal
    /// model (…; eliminated: fifo at replication 12, …; 31 replications)"; `scripts/calibrate`
    /// measures what that promise is worth on these outputs. `format` writes the indifference.
    public func sentence(metric: Metric, format: (Double) -> String) -> String {
        let gone =
            eliminated.isEmpty
            ? "none eliminated"
            : "eliminated: "
                + eliminated.map { "\($0.policy) at replication \($0.replication)" }.joined(separator: ", ")
        let same =
            identical.isEmpty
            ? ""
            : "; identical in all of the first \(firstStage) replications, so not separable: "
                + identical.map { "\($0.policy) to \($0.sameAs)" }.joined(separator: ", ")
        let means = batch > 1 ? " on means of \(batch) replications" : ""
        let how =
            "(Kim and Nelson's KN on common random numbers\(means); \(gone)\(same); \(replications) replications)"
        let probability = String(format: "%.2f", confidence)
        if let best {
            return
                """
                select-best \(metric.column): \(best) is the best within \(format(indifference)) with probability ≥ \
                \(probability) under KN's normal model \(how)
                """
        }
        return
            "select-best \(metric.column): not decided at --max-replications: \(survivors.joined(separator: ", ")) "
            + "remain within \(format(indifference)) of each other \(how)"
    }
}

extension SelectBest {
    /// KN on `metric` over the runs of `all`, a plan of the most replications it may take:
    /// one batch of each survivor at a time, among the deployable policies (those that do not
    /// read the future); `execute` runs the plan's runs at the indices given. `app`: whose
    /// numbers are compared.
    ///
    /// Each observation KN sees is the mean of `batch` consecutive replications (batch means):
    /// KN's guarantee assumes normal observations, and single runs of this simulator are
    /// skewed and zero-inflated, while means of a few are near normal (issue 51; the calibration
    /// suite measures the probability of a correct selection it gives). Replication counts are
    /// reported in replications, not batches.
    public static func run(
        on all: ExperimentRunner, metric: Metric, indifference delta: Double, confidence: Double, app: String?,
        batch: Int = SelectBest.batch, execute: ([Int]) throws -> [ExperimentRunner.RunResult]
    ) throws -> SelectBest {
        let policies = all.plan.policyNames
        let size = max(1, batch)
        let batched = try run(
            policies: all.plan.policies.filter { !$0.needsFuture }.map(\.name), lowerIsBetter: metric.lowerIsBetter,
            indifference: delta, confidence: confidence, initial: firstBatches,
            maximum: max(firstBatches, all.replications / size)
        ) { b, names in
            let replications = ((b - 1) * size + 1)...(b * size)
            let indices = names.flatMap { name in
                replications.map { policies.firstIndex(of: name)! * all.replications + $0 - 1 }
            }
            let values = try execute(indices).summaryRows(app: app).map { $0[metric] }
            return Dictionary(
                uniqueKeysWithValues: names.enumerated().map { k, name in
                    (name, values[(k * size)..<((k + 1) * size)].reduce(0, +) / Double(size))
                })
        }
        return batched.inReplications(batch: size)
    }

    /// A selection made on means of `batch` replications, its counts in replications: each
    /// elimination at the last replication of its batch, the first stage and the total likewise.
    public func inReplications(batch size: Int) -> SelectBest {
        var selection = SelectBest(
            best: best, survivors: survivors, eliminated: eliminated.map { ($0.policy, $0.replication * size) },
            replications: replications * size, indifference: indifference, confidence: confidence)
        selection.identical = identical
        (selection.batch, selection.firstStage) = (size, firstStage * size)
        return selection
    }

    /// Replications in one KN observation (``run(on:metric:indifference:confidence:app:batch:execute:)``).
    public static let batch = 5

    /// KN's first stage in batches: its usual n₀ = 10, of near-normal batch means (50 replications).
    public static let firstBatches = 10
}
