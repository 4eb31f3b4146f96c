import Quantities

/// What a team wants, as one number and some hard limits: a weighted sum of metrics (lower is
/// better, in bytes as `advise` counts it) and limits a recommended policy must respect. With
/// one, a comparison's verdict ends in one recommendation instead of a best per metric.
///
/// ```
/// --objective "redownload_bytes + over_purge_bytes + 1MB*wait_p95_s + 100MB*failed_requests"
/// --limit failed_requests<=baseline      no more failures than the baseline (not significantly more)
/// --limit wait_p95_s<=60s                a mean p95 wait of at most a minute
/// ```
///
/// A weight is bytes per unit of its metric (`1MB*wait_p95_s`: a second of p95 wait is worth a
/// megabyte) or a plain number. Each replication's objective is computed from its own row, so
/// the recommended policy's advantage over the baseline is a paired interval on common seeds.
///
/// Under a focus on one app (`--app`), a metric's name means the app's where the app has one
/// and the device's otherwise (the user's refused data, over-purge: guard metrics, never read
/// as 0); `app.METRIC` and `device.METRIC` say which explicitly. ``described`` says, term by
/// term, which was used.
public struct Objective: Sendable, Equatable {
    /// (metric, weight) terms, summed.
    public var terms: [Term]
    public var limits: [Limit]

    public struct Term: Sendable, Equatable {
        public let metric: Metric
        public let weight: Double
        public var scope: Scope = .either
        /// The weight as written (`1MB`, `2`); nil for a term of weight 1 written bare.
        public var weightText: String? = nil
    }

    /// Whose value a term or limit reads under a focus on one app.
    public enum Scope: String, Sendable, Equatable {
        /// The app's where it has one, else the device's.
        case either = ""
        /// `app.METRIC`: the app's own (a metric the app has).
        case app = "app."
        /// `device.METRIC`: the device's, whatever the focus.
        case device = "device."

        /// `metric` as this scope reads it from a row (a focused row holds the app's values,
        /// and the device's where the app has none; ``SummaryRow/device`` holds the device's).
        func value(_ metric: Metric, _ row: SummaryRow) -> Double {
            self == .device ? row.deviceValue(metric) : row[metric]
        }
    }

    /// A hard limit: a metric's mean at most a value, or not significantly above the baseline's.
    public struct Limit: Sendable, Equatable {
        public let metric: Metric
        /// The most allowed; nil: the baseline's (paired: the difference's 95 % interval starts at or below 0).
        public let most: Double?
        public var text: String
        public var scope: Scope = .either

        /// The limit's metric in one replication's row.
        func value(_ row: SummaryRow) -> Double { scope.value(metric, row) }
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
        /// Whether a limit was refused (`--limit`, `limits:`), not the objective.
        public var inLimit = false
    }

    /// advise's default objective, the default with limits alone: re-downloaded bytes, each
    /// byte of the user's data refused (under a focus the device's: the user's data stays in
    /// view), 1 MB per second of p95 wait, 100 MB per failed request, 1 MB per download.
    public static let adviseDefault =
        "redownload_bytes + refused_other_bytes + 1MB*wait_p95_s + 100MB*failed_requests + 1MB*downloads"

    /// An objective and limits as a file wrote them, each with where (`FILE:LINE:COLUMN`): a
    /// bad one is refused at its own place (each limit alone first, then the whole).
    public static func parse(
        written objective: (text: String, location: String)?, limits: [(text: String, location: String)]
    )
        throws(LocatedError) -> Objective
    {
        func parse(_ text: String?, _ limits: [String], at location: String) throws(LocatedError) -> Objective {
            do { return try Objective.parse(text, limits: limits) } catch {
                throw LocatedError(description: "\(location): \(error)")
            }
        }
        for limit in limits { _ = try parse(nil, [limit.text], at: limit.location) }
        return try parse(objective?.text, limits.map(\.text), at: objective?.location ?? limits[0].location)
    }

    /// A refusal at its place: `FILE:LINE:COLUMN: reason`.
    public struct LocatedError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `--objective` (nil: advise's default) and `--limit`s; sizes and durations as the
    /// scenario writes them.
    public static func parse(_ text: String?, limits: [String]) throws(ParseError) -> Objective {
        func metric(_ written: Substring) throws(ParseError) -> (Metric, Scope) {
            var name = written.trimmingCharacters(in: .whitespaces)
            var scope = Scope.either
            for prefix in [Scope.app, .device] where name.hasPrefix(prefix.rawValue) {
                (scope, name) = (prefix, String(name.dropFirst(prefix.rawValue.count)))
            }
            guard let metric = Metric(rawValue: name), Metric.allCases.contains(metric) else {
                throw ParseError(
                    description:
                        """
                        '\(name)' is not a metric (such as redownload_bytes, over_purge_bytes, failed_requests, \
                        wait_p95_s; docs/data-dictionary.md)
                        """
                )
            }
            guard scope != .app || metric.belongsToApp else {
                throw ParseError(
                    description: """
                        app.\(name): \(name) is the device's alone, no app has one (write \(name) or \
                        device.\(name))
                        """)
            }
            return (metric, scope)
        }
        var terms: [Term] = []
        let written = text ?? adviseDefault
        guard !written.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ParseError(description: "is empty: give METRIC or WEIGHT*METRIC terms joined by +")
        }
        for part in written.split(separator: "+", omittingEmptySubsequences: false) {
            let factors = part.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false)
            guard !part.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ParseError(description: "'\(text ?? "")' has an empty term")
            }
            guard factors.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                throw ParseError(description: "'\(part)' is not WEIGHT*METRIC: one side of '*' is empty")
            }
            if factors.count == 1 {
                let (m, scope) = try metric(factors[0])
                terms.append(Term(metric: m, weight: 1, scope: scope))
                continue
            }
            let weightText = factors[0].trimmingCharacters(in: .whitespaces)
            guard let weight = Double(weightText) ?? (try? SizeSyntax.parse(weightText)).map(Double.init),
                weight.isFinite,
                weight >= 0
            else {
                throw ParseError(
                    description:
                        "'\(weightText)' is not a weight (a number, or a size such as 1MB, per unit of the metric)")
            }
            let (m, scope) = try metric(factors[1])
            terms.append(Term(metric: m, weight: weight, scope: scope, weightText: weightText))
        }
        var parsed: [Limit] = []
        for text in limits {
            guard let at = text.range(of: "<=") else {
                throw ParseError(description: "limit '\(text)' is not METRIC<=VALUE or METRIC<=baseline", inLimit: true)
            }
            let which: Metric
            let scope: Scope
            do { (which, scope) = try metric(text[..<at.lowerBound]) } catch {
                throw ParseError(description: error.description, inLimit: true)
            }
            let value = text[at.upperBound...].trimmingCharacters(in: .whitespaces)
            let name = scope.rawValue + which.column
            if value == "baseline" {
                parsed.append(Limit(metric: which, most: nil, text: "\(name) ≤ baseline", scope: scope))
                continue
            }
            let most: Double?
            switch which.unit {
            case .bytes: most = (try? SizeSyntax.parse(value)).map(Double.init)
            case .seconds: most = try? DurationSyntax.parse(value)
            case .count: most = Double(value)
            }
            guard let most, most.isFinite, most >= 0 else {
                throw ParseError(
                    description: "limit '\(text)': '\(value)' is not a value of \(which.column)", inLimit: true)
            }
            parsed.append(Limit(metric: which, most: most, text: "\(name) ≤ \(value)", scope: scope))
        }
        return Objective(terms: terms, limits: parsed)
    }

    /// One replication's objective.
    public func value(_ row: SummaryRow) -> Double {
        terms.reduce(0) { sum, term in
            let v = term.scope.value(term.metric, row)
            return sum + term.weight * (v.isNaN ? 0 : v)
        }
    }

    /// Under a focus on `app`, whose value each term and limit reads: `The objective for app
    /// odyssey: odyssey's redownload_bytes + 2 × the device's refused_other_bytes; limits:
    /// odyssey's failed_requests ≤ baseline.`
    public func described(focus app: String) -> String {
        func whose(_ metric: Metric, _ scope: Scope) -> String {
            scope == .device || (scope == .either && !metric.belongsToApp) ? "the device's" : "\(app)'s"
        }
        let sum = terms.map { term in
            (term.weightText.map { "\($0) × " } ?? "") + "\(whose(term.metric, term.scope)) \(term.metric.column)"
        }.joined(separator: " + ")
        let bounds = limits.map { limit in
            "\(whose(limit.metric, limit.scope)) \(limit.metric.column) ≤ "
                + (limit.text.components(separatedBy: " ≤ ").last ?? "")
        }
        return "The objective for app \(app): \(sum)"
            + (bounds.isEmpty ? "." : "; limits: \(bounds.joined(separator: ", ")).")
    }

    /// The recommendation for `rows` (every policy's replications), against `baseline`.
    public func recommend(_ rows: [SummaryRow], baseline: String, offline: Set<String>) -> Recommendation {
        let policies = rows.reduce(into: [String]()) { if !$0.contains($1.policy) { $0.append($1.policy) } }
        func runs(_ policy: String) -> [SummaryRow] {
            rows.filter { $0.policy == policy }.sorted { $0.replication < $1.replication }
        }
        let base = runs(baseline)
        var candidates: [Recommendation.Candidate] = []
        for policy in policies where !offline.contains(policy) {
            let mine = runs(policy)
            var broken: [Recommendation.Breach] = []
            for limit in limits {
                let mean = Interval(mine.map(limit.value)).mean
                if let most = limit.most {
                    if mean > most { broken.append(.init(limit: limit, mean: mean, baselineMean: nil)) }
                } else if policy != baseline {
                    let change = Interval(zip(mine, base).map { limit.value($0) - limit.value($1) })
                    if change.excludesZero && change.mean > 0 {
                        broken.append(
                            .init(limit: limit, mean: mean, baselineMean: Interval(base.map(limit.value)).mean))
                    }
                }
            }
            var changes: [(metric: Metric, change: Interval)] = []
            for metric in Recommendation.tradeOffMetrics {
                let d = zip(mine, base).map { $0[metric] - $1[metric] }
                if !d.isEmpty && !d.contains(where: \.isNaN) { changes.append((metric, Interval(d))) }
            }
            candidates.append(
                .init(
                    policy: policy, objective: Interval(mine.map(value)),
                    versusBaseline: Interval(zip(mine, base).map { value($0) - value($1) }), broken: broken,
                    changes: changes))
        }
        return Recommendation(candidates: candidates, baseline: baseline, limits: limits.map(\.text))
    }
}

/// What an ``Objective`` recommends: the policy with the lowest mean objective among those
/// that respect every limit, with its paired advantage over the baseline, and why the others
/// were left out.
public struct Recommendation: Sendable {
    public struct Candidate: Sendable {
        public let policy: String
        public let objective: Interval
        /// This policy's objective − the baseline's, paired by replication.
        public let versusBaseline: Interval
        /// The limits it breaks; empty: it respects them all.
        public let broken: [Breach]
        /// Its paired change against the baseline on each trade-off metric the runs have.
        public let changes: [(metric: Metric, change: Interval)]
    }

    /// What a recommendation's trade-offs are stated on: the main metrics, the user's data
    /// refused, and the time launches were blocked.
    public static let tradeOffMetrics: [Metric] = [
        .redownloadBytes, .overPurgeBytes, .failedRequests, .waitP95, .refusedOtherBytes, .launchBlockedSeconds,
    ]

    /// A limit a policy breaks: its mean, and the baseline's where the limit is the baseline.
    public struct Breach: Sendable {
        public let limit: Objective.Limit
        public let mean: Double
        public let baselineMean: Double?

        func text(_ format: (Double, Metric) -> String) -> String {
            let m = limit.metric
            return baselineMean.map { "\(limit.text): \(format(mean, m)) against \(format($0, m)), significantly more" }
                ?? "\(limit.text): mean \(format(mean, m))"
        }
    }

    public let candidates: [Candidate]
    public let baseline: String
    public let limits: [String]

    /// The recommended policy, or nil when no policy respects every limit.
    public var best: Candidate? {
        candidates.filter(\.broken.isEmpty).min { $0.objective.mean < $1.objective.mean }
    }

    /// The verdict's closing lines; `format` writes a metric's value (the objective is in bytes).
    public func lines(_ format: (Double, Metric) -> String, leftOut: Bool = true) -> [String] {
        func bytes(_ v: Double) -> String { format(v, .redownloadBytes) }
        func signed(_ v: Double, _ m: Metric) -> String { v < 0 ? "−" + format(-v, m) : "+" + format(v, m) }
        let respected = limits.isEmpty ? "" : " It respects \(limits.joined(separator: ", "))."
        guard let best else {
            return [
                "Recommended: none. No policy respects every limit: "
                    + candidates.map {
                        "\($0.policy) breaks \($0.broken.map { $0.text(format) }.joined(separator: "; "))"
                    }.joined(separator: "; ") + "."
            ]
        }
        var first = "Recommended: \(best.policy), objective \(bytes(best.objective.mean))"
        if best.policy != baseline {
            let d = best.versusBaseline
            let significant =
                !d.excludesZero
                ? "not significantly different" : d.mean < 0 ? "significantly lower" : "significantly higher"
            first +=
                """
                 against \(baseline)'s \(bytes(best.objective.mean - d.mean)) (paired \
                \(signed(d.mean, .redownloadBytes)), 95 % interval \(signed(d.low, .redownloadBytes)) to \
                \(signed(d.high, .redownloadBytes)), \(significant))
                """
        } else {
            first += " (the baseline itself)"
        }
        // The lowest of several means is biased low (the winner's curse): say so, and where the guarantee is.
        let curse =
            candidates.filter(\.broken.isEmpty).count > 2
            ? """
             (The lowest of \(candidates.filter(\.broken.isEmpty).count) means: its interval is not adjusted for \
            the choice; --select-best gives a guarantee.)
            """
            : ""
        var lines = [first + "." + respected + curse]
        if best.policy != baseline, !best.changes.isEmpty {
            let moved = best.changes.filter { $0.change.mean != 0 || $0.change.standardDeviation != 0 }
            let same = best.changes.filter { $0.change.mean == 0 && $0.change.standardDeviation == 0 }.map {
                $0.metric.heading
            }
            let parts = moved.map { m, d in
                "\(m.heading) \(signed(d.mean, m)) (\(signed(d.low, m)) to "
                    + "\(signed(d.high, m))\(d.excludesZero ? "" : ", not significant"))"
            }
            lines.append(
                "Its trade-offs against \(baseline), paired: " + parts.joined(separator: ", ")
                    + (same.isEmpty ? "" : "; the same: \(same.joined(separator: ", "))") + ".")
        }
        let excluded = candidates.filter { !$0.broken.isEmpty }
        if leftOut && !excluded.isEmpty {
            lines.append(
                "Left out by a limit: "
                    + excluded.map { "\($0.policy) (\($0.broken.map { $0.text(format) }.joined(separator: "; ")))" }
                    .joined(separator: "; ") + ".")
        }
        return lines
    }

    /// The recommendation as data (`--format json`).
    public var json: String {
        JSONText.object([
            ("policy", best.map { JSONText.string($0.policy) } ?? "null"), ("baseline", JSONText.string(baseline)),
            ("objective_mean", best.map { JSONText.number($0.objective.mean) } ?? "null"),
            ("versus_baseline", best.map { JSONText.number($0.versusBaseline.mean) } ?? "null"),
            ("versus_baseline_ci_low", best.map { JSONText.number($0.versusBaseline.low) } ?? "null"),
            ("versus_baseline_ci_high", best.map { JSONText.number($0.versusBaseline.high) } ?? "null"),
            ("limits", JSONText.array(limits.map(JSONText.string))),
            (
                "trade_offs",
                JSONText.array(
                    (best?.changes ?? []).map { m, d in
                        JSONText.object([
                            ("metric", JSONText.string(m.column)), ("change", JSONText.number(d.mean)),
                            ("change_ci_low", JSONText.number(d.low)),
                            ("change_ci_high", JSONText.number(d.high)),
                            ("significant", d.excludesZero ? "true" : "false"),
                        ])
                    })
            ),
            (
                "excluded",
                JSONText.array(
                    candidates.filter { !$0.broken.isEmpty }.map { c in
                        JSONText.object([
                            ("policy", JSONText.string(c.policy)),
                            ("broken", JSONText.array(c.broken.map { JSONText.string($0.limit.text) })),
                        ])
                    })
            ),
        ])
    }
}

extension Recommendation {
    /// A study's recommendation: each point's, gathered (`lru at 5 of 7 points; gdsf at 2:
    /// used=7GB, alpha=1.2`).
    public static func study(_ recommendations: [Recommendation], points labels: [String]) -> [String] {
        var at: [String: [Int]] = [:]
        var order: [String] = []
        for (k, r) in recommendations.enumerated() {
            let name = r.best?.policy ?? "none (no policy within every limit)"
            if at[name] == nil { order.append(name) }
            at[name, default: []].append(k)
        }
        order.sort { at[$0]!.count > at[$1]!.count }
        let parts = order.map { name -> String in
            let points = at[name]!
            let which =
                points.count == labels.count || points.count > 3
                ? "" : ": " + points.map { labels[$0] }.joined(separator: "; ")
            return "\(name) at \(points.count) of \(labels.count) point\(labels.count == 1 ? "" : "s")\(which)"
        }
        let limits = recommendations.first?.limits ?? []
        return [
            "Recommended by the objective\(limits.isEmpty ? "" : " within \(limits.joined(separator: ", "))"): "
                + parts.joined(separator: "; ") + "."
        ]
    }
}
