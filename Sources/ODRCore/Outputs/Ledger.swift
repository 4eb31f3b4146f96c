/// Running totals of what an ``ODRDevice`` did, kept so that reports need not replay events.
///
/// The books balance: every request made ends in exactly one of granted, failed, cancelled
/// (while it waited) or a conditional miss, or is still waiting:
/// `requests == grants + failedRequests + cancelled + conditionalMisses + ODRDevice.waitingRequests`.
/// Installs are not requests: a failed install counts in ``installFailures`` only.
public struct Ledger: Hashable, Sendable {
    /// Requests made (begin and conditional begin).
    public var requests: Int64 = 0
    /// Requests granted at once because everything was on the device.
    public var hits: Int64 = 0
    public var grants: Int64 = 0
    public var downloadsStarted: Int64 = 0
    public var downloadsFinished: Int64 = 0
    /// Bytes received from the network.
    public var downloadedBytes: Int64 = 0
    /// Bytes received for packs that had been purged before.
    public var redownloadBytes: Int64 = 0
    /// Packs purged.
    public var purges: Int64 = 0
    public var purgeEpisodes: Int64 = 0
    public var purgedBytes: Int64 = 0
    /// Sum over purge episodes of purged minus needed bytes.
    public var overPurgeBytes: Int64 = 0
    /// Bytes removed by uninstalling apps (not purges).
    public var removedBytes: Int64 = 0
    public var lowDiskWarnings: Int64 = 0
    /// Apps terminated by the device for want of space.
    public var appTerminations: Int64 = 0
    /// Failed requests by error.
    public var failures: [RequestError: Int64] = [:]
    /// Requests cancelled while they waited: by `cancel`, by `end` before the grant, or by
    /// their app's termination or uninstall.
    public var cancelled: Int64 = 0
    /// Conditional begins that found some content missing (nothing is downloaded).
    public var conditionalMisses: Int64 = 0
    /// Installs that could not get the space of their initial-install packs.
    public var installFailures: Int64 = 0
    /// Bytes of packs the user removed: an app offloaded (iOS), its storage cleared (Android).
    public var clearedBytes: Int64 = 0
    /// Downloads that failed (``ODRDevice/failDownload(_:at:)``).
    public var downloadFailures: Int64 = 0
    /// Growth of other data that did not fit on the disk.
    public var refusedOtherBytes: Int64 = 0
    /// Highest disk use seen (other data, ODR content and reservations).
    public var peakUsedBytes: Int64 = 0
    /// Pack updates that removed an old version from the device.
    public var updates: Int64 = 0
    /// Bytes received for new versions of packs the device held (not re-downloads).
    public var updateBytes: Int64 = 0
    /// Launches that waited for the install's initial packs (essential, install-time).
    public var blockedLaunches: Int64 = 0
    /// Seconds launches waited for the install's initial packs, all together.
    public var launchBlockedSeconds: Double = 0
    /// The most bytes an app held above its budget at once (Background Assets, Play: the
    /// budget is the app's target, and a download of packs it cannot make room for goes over
    /// it); the device's is the largest of its apps'.
    public var budgetExceededBytes: Int64 = 0
    /// Seconds apps spent above their budgets, all together.
    public var budgetExceededSeconds: Double = 0

    public init() {}

    /// All failed requests (installs are not requests).
    public var failedRequests: Int64 { failures.values.reduce(0, +) }
    public func failures(_ error: RequestError) -> Int64 { failures[error] ?? 0 }
}

extension ODRDevice {
    /// Books `amount` on one count of the device's ledger and of `app`'s own: every count that
    /// belongs to one app goes through here (the device's alone, purge episodes, low-disk
    /// warnings and the peak, do not). Apps' ledgers are kept apart only on a device of several
    /// apps (``DeviceState/tracksApps``): a trace replay's one app is the device.
    @inline(__always)
    func book(_ count: WritableKeyPath<Ledger, Int64>, _ amount: Int64 = 1, for app: AppID) {
        state.ledger[keyPath: count] += amount
        if state.tracksApps { state.appLedgers[app.index][keyPath: count] += amount }
    }

    /// ``book(_:_:for:)`` for a count of seconds.
    @inline(__always)
    func book(_ count: WritableKeyPath<Ledger, Double>, _ amount: Double, for app: AppID) {
        state.ledger[keyPath: count] += amount
        if state.tracksApps { state.appLedgers[app.index][keyPath: count] += amount }
    }

    /// Raises one count of the device's ledger and of `app`'s own to `value` where it is higher
    /// (a peak, such as ``Ledger/budgetExceededBytes``).
    @inline(__always)
    func bookHighest(_ count: WritableKeyPath<Ledger, Int64>, _ value: Int64, for app: AppID) {
        state.ledger[keyPath: count] = max(state.ledger[keyPath: count], value)
        if state.tracksApps {
            state.appLedgers[app.index][keyPath: count] = max(state.appLedgers[app.index][keyPath: count], value)
        }
    }

    /// A failed request of `app`, by its error.
    @inline(__always)
    func book(_ error: RequestError, for app: AppID) {
        state.ledger.failures[error, default: 0] += 1
        if state.tracksApps { state.appLedgers[app.index].failures[error, default: 0] += 1 }
    }
}
