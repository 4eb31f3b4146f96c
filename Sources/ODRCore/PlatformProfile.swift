/// The size limits one platform puts on on-demand resources (ODR-SPEC §1).
///
/// A `nil` limit means "no limit". Sizes are per device slice and in bytes, with the
/// spec's decimal units (1 MB = 10^6 bytes). Use a preset or build a custom profile for
/// what-if studies:
///
/// ```swift
/// var profile = PlatformProfile.ios17
/// profile.maxPackSize = 64_000_000
/// ```
public struct PlatformProfile: Hashable, Sendable {
    /// Short name used in messages, such as `ios17`.
    public var name: String
    /// Largest app bundle.
    public var maxAppBundleSize: Int64?
    /// Largest single asset pack.
    public var maxPackSize: Int64?
    /// Largest total of the packs one tag maps to.
    public var maxTagSize: Int64?
    /// Most asset packs one app may have.
    public var maxPackCount: Int?
    /// Largest total of initial-install tags.
    public var maxInitialInstallSize: Int64?
    /// Largest total of initial-install and prefetch tags together.
    public var maxInitialAndPrefetchSize: Int64?
    /// Most bytes one app may hold in use at one time.
    public var maxInUseSize: Int64?
    /// Most bytes hosted for the app on the store.
    public var maxHostedSize: Int64?
    /// Apple's recommended size of one tag; advisory, never enforced.
    public var recommendedTagSize: Int64?

    public init(
        name: String,
        maxAppBundleSize: Int64? = nil,
        maxPackSize: Int64? = nil,
        maxTagSize: Int64? = nil,
        maxPackCount: Int? = nil,
        maxInitialInstallSize: Int64? = nil,
        maxInitialAndPrefetchSize: Int64? = nil,
        maxInUseSize: Int64? = nil,
        maxHostedSize: Int64? = nil,
        recommendedTagSize: Int64? = nil
    ) {
        self.name = name
        self.maxAppBundleSize = maxAppBundleSize
        self.maxPackSize = maxPackSize
        self.maxTagSize = maxTagSize
        self.maxPackCount = maxPackCount
        self.maxInitialInstallSize = maxInitialInstallSize
        self.maxInitialAndPrefetchSize = maxInitialAndPrefetchSize
        self.maxInUseSize = maxInUseSize
        self.maxHostedSize = maxHostedSize
        self.recommendedTagSize = recommendedTagSize
    }

    private static let mb: Int64 = 1_000_000
    private static let gb: Int64 = 1_000_000_000

    /// iOS 9–17, the classic ODR guide.
    public static let ios17 = PlatformProfile(
        name: "ios17", maxAppBundleSize: 2 * gb, maxPackSize: 512 * mb, maxTagSize: 512 * mb,
        maxPackCount: 1000, maxInitialInstallSize: 2 * gb, maxInitialAndPrefetchSize: 4 * gb,
        maxInUseSize: 2 * gb, maxHostedSize: 20 * gb, recommendedTagSize: 64 * mb)

    /// iOS and iPadOS 18 and later.
    public static let ios18 = PlatformProfile(
        name: "ios18", maxAppBundleSize: 4 * gb, maxPackSize: 8 * gb, maxTagSize: 8 * gb,
        maxPackCount: 1000, maxInitialInstallSize: nil, maxInitialAndPrefetchSize: nil,
        maxInUseSize: nil, maxHostedSize: 70 * gb, recommendedTagSize: 64 * mb)

    /// tvOS 18 and later.
    public static let tvos18 = PlatformProfile(
        name: "tvos18", maxAppBundleSize: 4 * gb, maxPackSize: 512 * mb, maxTagSize: 512 * mb,
        maxPackCount: 1000, maxInitialInstallSize: nil, maxInitialAndPrefetchSize: 4 * gb,
        maxInUseSize: nil, maxHostedSize: 20 * gb, recommendedTagSize: 64 * mb)

    /// No limits at all: trace replay and what-if studies.
    public static let unlimited = PlatformProfile(name: "unlimited")

    /// The presets by name.
    public static let presets: [PlatformProfile] = [.ios17, .ios18, .tvos18, .unlimited]

    /// The preset called `name`, if any.
    public static func named(_ name: String) -> PlatformProfile? {
        presets.first { $0.name == name }
    }
}
