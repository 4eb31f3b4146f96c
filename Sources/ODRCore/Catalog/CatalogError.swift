/// Why a catalog was rejected. Each message names the offending item, its size and the limit.
public enum CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    case noTags(resource: String)
    case duplicateResource(String)
    case negativeSize(resource: String, size: Int64)
    /// The resources up to `resource` total more than `Int64.max` bytes.
    case totalTooLarge(resource: String)
    case unknownTag(String)
    case invalidPreservation(tag: String, value: Double)
    case packTooLarge(pack: String, size: Int64, limit: Int64, profile: String)
    case tagTooLarge(tag: String, size: Int64, limit: Int64, profile: String)
    case tooManyPacks(count: Int, limit: Int, profile: String)
    case initialInstallTooLarge(size: Int64, limit: Int64, profile: String)
    case initialAndPrefetchTooLarge(size: Int64, limit: Int64, profile: String)
    case hostedTooLarge(size: Int64, limit: Int64, profile: String)
    case prefetchAndOnDemandTooLarge(size: Int64, limit: Int64, profile: String)

    public var description: String {
        let d = ByteFormatting.describe
        switch self {
        case .noTags(let r):
            return "resource '\(r)' has no tag; every on-demand resource needs at least one"
        case .duplicateResource(let r):
            return "resource '\(r)' is listed twice"
        case .negativeSize(let r, let s):
            return "resource '\(r)' has a negative size (\(s) bytes)"
        case .totalTooLarge(let r):
            return "the resources up to '\(r)' total more than \(Int64.max) bytes"
        case .unknownTag(let t):
            return "tag '\(t)' has settings but no resource carries it"
        case .invalidPreservation(let t, let v):
            return "tag '\(t)' has preservation priority \(v), outside 0…1"
        case .packTooLarge(let p, let s, let l, let pr):
            return "asset pack '\(p)' is \(d(s)), over the \(d(l)) per-pack limit of \(pr)"
        case .tagTooLarge(let t, let s, let l, let pr):
            return "tag '\(t)' is \(d(s)), over the \(d(l)) per-tag limit of \(pr)"
        case .tooManyPacks(let c, let l, let pr):
            return "the catalog forms \(c) asset packs (one per exact tag set), over the limit of \(l) of \(pr)"
        case .initialInstallTooLarge(let s, let l, let pr):
            return "\(Self.name(.initialInstall, pr)) tags total \(d(s)), over the \(d(l)) limit of \(pr)"
        case .initialAndPrefetchTooLarge(let s, let l, let pr):
            return "initial-install and prefetch tags total \(d(s)), over the \(d(l)) limit of \(pr)"
        case .hostedTooLarge(let s, let l, let pr):
            return "on-demand content totals \(d(s)), over the \(d(l)) hosting limit of \(pr)"
        case .prefetchAndOnDemandTooLarge(let s, let l, let pr):
            return
                """
                \(Self.name(.prefetch(order: 0), pr)) and \(Self.name(.onDemand, pr)) tags total \(d(s)), over the \
                \(d(l)) limit of \(pr)
                """
        }
    }

    /// A category as the profile's platform family calls it (`install-time` on Play).
    private static func name(_ category: TagCategory, _ profile: String) -> String {
        (PlatformProfile.named(profile)?.family ?? .onDemandResources).name(of: category)
    }
}
