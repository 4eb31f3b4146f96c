import ODRCore
import Simulation
import TextInput

/// Everything a `.scn` file says: the ``Simulation/Scenario`` a run reads, and around it what
/// the experiment needs and the kernel does not (a name for the report, the policies to
/// compare, replications, sampling, where each scripted event was written).
public struct ScenarioDocument: Sendable {
    /// What one run simulates.
    public var scenario: Scenario
    /// The report's name (`name:`, or the file's base name).
    public var name: String
    public var description: String
    /// Purge policies to run, each on the same workload.
    public var policies: [String]
    /// Options of the policies that take some, by policy name (`policy_options:`), handed
    /// to each policy when a run makes it.
    public var policyOptions: [String: PolicyOptions]
    /// Independent workloads (seeds) per policy.
    public var replications: Int
    /// Virtual seconds between time-series samples; nil lets the runner choose.
    public var sampleInterval: Double?
    /// A digest of the file (16 hex digits); reports carry it so a baseline names the
    /// scenario it came from.
    public var sourceDigest: String
    /// Where each scripted event was written (`FILE:LINE:COLUMN`), parallel to the
    /// scenario's events, for the run's notices.
    public var eventLocations: [String]
    /// Each app's resources as the file lists them (generated ones included), by app index:
    /// the material of a layout (`odr-sim advise`).
    public var resources: [[Resource]] = []

    /// The index of the app called `id`, or why there is none, naming the apps there are.
    public func appIndex(of id: String) -> Result<Int, UnknownApp> {
        guard let index = scenario.apps.firstIndex(where: { $0.id == id }) else {
            return .failure(UnknownApp(id: id, apps: scenario.apps.map(\.id)))
        }
        return .success(index)
    }

    /// An app id the scenario does not have.
    public struct UnknownApp: Error, CustomStringConvertible {
        public let id: String
        public let apps: [String]
        public var description: String {
            "the scenario has no app '\(InputText.oneLine(id))' (it has \(apps.joined(separator: ", ")))"
        }
    }
}
