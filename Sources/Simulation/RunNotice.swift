/// Something a scripted event asked for that the run could not do as written: other data
/// told to shrink below zero or to grow past the disk, a request ended twice, a request from
/// an app that is not running. The run goes on by a documented rule (docs/platforms.md, "Decisions where Apple is
/// silent"); the notice says so, where the scenario says it.
public struct RunNotice: Sendable, Hashable {
    /// The index of the scripted event in ``Scenario/events``.
    public let event: Int
    /// Virtual seconds.
    public let time: Double
    /// One line: what was asked, what happened instead.
    public let message: String

    public init(event: Int, time: Double, message: String) {
        self.event = event
        self.time = time
        self.message = message
    }
}
