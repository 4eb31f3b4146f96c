/// Why a request (or an install) failed, mirroring the errors an app sees (ODR-SPEC §2).
public enum RequestError: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A tag the app's catalog does not have.
    case invalidTag = "invalid-tag"
    /// Something must be downloaded but the link is offline.
    case noNetwork = "no-network"
    /// Something must be downloaded, the link is cellular and the app may not use it.
    case cellularNotAllowed = "cellular-not-allowed"
    /// Not enough space even after purging and a low-disk warning.
    case outOfSpace = "out-of-space"
    /// Granting would put more bytes in use than the platform allows one app.
    case inUseLimit = "in-use-limit"
    /// The app is not installed.
    case appNotInstalled = "app-not-installed"
    /// A download the request waited for failed (a server error, a dropped connection:
    /// ``ODRDevice/failDownload(_:at:)``): the app gets the error, as NSBundleResourceRequest's
    /// completion handler, Play's `FAILED` status and Background Assets' thrown error give it.
    case downloadFailed = "download-failed"

    public var description: String { rawValue }
}
