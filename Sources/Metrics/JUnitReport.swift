/// A regression check or gate as a JUnit XML report, the format CI dashboards (GitLab, Jenkins,
/// GitHub test reporters) show as test cases: one test suite per policy, one test case per
/// metric, failing with every replication that moved (the check) or with the rise beyond its
/// limit (the gate, `--max-increase`); and a first suite whose one case, `coverage`, fails when
/// the run and the baseline did not cover each other.
public enum JUnitReport {
    private typealias Case = (classname: String, name: String, failure: String?)
    private typealias Suite = (name: String, cases: [Case])

    /// Whether a file beginning with `head` is a report odr-sim wrote (one `--junit` may replace).
    public static func isOne(head: String) -> Bool {
        head.hasPrefix("<?xml") && head.contains("<testsuites name=\"odr-sim check\"")
    }

    public static func xml(_ check: RegressionCheck, name: String) -> String {
        var suites: [Suite] = []
        suites.append(
            (name, [(name, "coverage", check.mismatches.isEmpty ? nil : check.mismatches.joined(separator: "\n"))]))
        for policy in check.policies {
            let cases = check.cases.filter { $0.policy == policy }.map { c in
                (
                    "\(name).\(policy)", c.metric,
                    c.failures.isEmpty ? nil : c.failures.map(\.description).joined(separator: "\n")
                )
            }
            suites.append(("\(name)/\(policy)", cases))
        }
        return render(suites)
    }

    /// The gate: a case per policy and limit, failing with its line when the metric rose beyond
    /// it; `coverage` fails when no policy of the baseline ran again (the gate judged nothing),
    /// or with `refusal`, why the run is not the baseline's to judge (a policy change not accepted).
    public static func xml(
        _ gate: RegressionGate, name: String, refusal: String? = nil, describe: (Double, Metric) -> String
    ) -> String {
        var suites: [Suite] = []
        let coverage = refusal ?? (gate.lines.isEmpty ? "no policy of the baseline ran again: nothing was judged" : nil)
        suites.append((name, [(name, "coverage", coverage)]))
        let policies = gate.lines.reduce(into: [String]()) { if !$0.contains($1.policy) { $0.append($1.policy) } }
        for policy in policies {
            let cases = gate.lines.filter { $0.policy == policy }.map { line in
                ("\(name).\(policy)", line.limit.metric.rawValue, line.failed ? line.text(describe) : nil)
            }
            suites.append(("\(name)/\(policy)", cases))
        }
        return render(suites)
    }

    private static func render(_ suites: [Suite]) -> String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.cases.filter { $0.failure != nil }.count }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"odr-sim check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failed = suite.cases.filter { $0.failure != nil }.count
            out +=
                """
                  <testsuite name=\"\(escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(failed)\" \
                errors=\"0\">\n
                """
            for c in suite.cases {
                out += "    <testcase classname=\"\(escape(c.classname))\" name=\"\(escape(c.name))\""
                if let failure = c.failure {
                    let first = failure.split(separator: "\n").first.map(String.init) ?? failure
                    out +=
                        """
                        >\n      <failure message=\"\(escape(first))\" \
                        type=\"regression\">\(escape(failure))</failure>\n    </testcase>\n
                        """
                } else {
                    out += "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
