import Simulation

/// A study: one base scenario varied along axes, every combination of the axes' values (a
/// point) run under the same policies and replications. Read from a `.study` file by
/// ``StudyParser``; every point is a scenario the parser has validated.
public struct Study: Sendable {
    /// One varied place of the scenario.
    public struct Axis: Sendable, Hashable {
        /// The column name in results (`free_space`); the path by default.
        public let name: String
        /// Where in the scenario (`device.used`, `workload.popularity.rate`).
        public let path: String
        /// The values as the scenario would write them (`8MB`, `24/d`, `lru`).
        public let values: [String]
        /// Axes with the same `zip` group move together, value by value, instead of forming
        /// a product (tag count and tag size of one content budget); nil for an axis of its own.
        public var zip: String? = nil
        /// Where each value was written (`FILE:LINE:COLUMN` of the study; a range's values all
        /// at the range), for errors about a value met later (a population of `advise`).
        public var valueLocations: [String] = []
    }

    /// One combination of axis values and the scenario it makes.
    public struct Point: Sendable {
        /// One value per axis, in axis order; empty where an explicit point (`points:`) leaves
        /// the axis out, the base scenario's own value there.
        public let values: [String]
        /// The point's scenario file, as read (its policy options and digest with it).
        public let document: ScenarioDocument
        public var scenario: Scenario { document.scenario }
    }

    public let name: String
    public let description: String
    public let axes: [Axis]
    /// Every combination, the first axis varying slowest; axes of one `zip` group count as
    /// one axis, at the place of the group's first.
    public let points: [Point]
    public let policies: [String]
    public let replications: Int
    /// The policy paired differences are taken against.
    public let baseline: String
    /// The point every other point × policy is paired against, under ``baseline`` (`baseline:
    /// {point: {platform: ios17}, policy: apple}`), by index in ``points``; nil: each point's
    /// policies are paired against ``baseline`` at that point only.
    public var baselinePoint: Int? = nil
    /// A digest of the study file and of its base scenario's text (16 hex digits): shards of
    /// one study carry it, so a shard of another study, or of an edited one, is recognised.
    public let digest: String
    /// The base scenario's file (the study's own when the base is inline): an input that no
    /// output may replace.
    public var baseFile: String = ""
    /// `objective:` and `limits:` as written, each with where (`FILE:LINE:COLUMN`): the command
    /// reads them as a Metrics `Objective` (parsing knows nothing of metrics), as it reads
    /// `--objective` and `--limit`, and names the place of one it refuses.
    public var objective: WrittenText? = nil
    public var limits: [WrittenText] = []

    /// A value as the study wrote it, and where.
    public struct WrittenText: Sendable, Hashable {
        public let text: String
        public let location: String
    }

    /// The point whose workload is the largest (the most events a run expects): it speaks for
    /// the study where a workload is checked before running.
    public var largestPoint: Int? {
        points.indices.max { points[$0].scenario.expectedEvents < points[$1].scenario.expectedEvents }
    }

    /// Each point's label, its axes' values as `name=value` (an axis a point leaves out is not
    /// named): `budget=1GB, platform=background-assets`.
    public var pointLabels: [String] {
        points.map {
            zip(axes, $0.values).filter { !$1.isEmpty }.map { "\($0.name)=\($1)" }.joined(separator: ", ")
        }
    }

    /// What `point` sets: each axis's path with the point's value there.
    public func settings(of point: Point) -> [PathValue] {
        zip(axes, point.values).map { PathValue(path: $0.path, value: $1) }
    }
}

/// A value at a place in a scenario, the place a dotted path as a study's axes write it
/// (`device.used`, `network.2.bandwidth`, `apps.game.generate.tags`).
public struct PathValue: Sendable, Hashable {
    public let path: String
    public let value: String

    public init(path: String, value: String) {
        self.path = path
        self.value = value
    }

    /// How reports name what settings set (`used=56GB, wifi=8Mbps`): each named by `names`
    /// (a study's axis names), by default by its path's last step.
    public static func label(of settings: [PathValue], names: [String]? = nil) -> String {
        let names = names ?? settings.map { String($0.path.split(separator: ".").last ?? "") }
        return zip(names, settings).map { "\($0)=\($1.value)" }.joined(separator: ", ")
    }
}
