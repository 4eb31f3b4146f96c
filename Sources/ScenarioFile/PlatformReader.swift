import ODRCore
import Yams

/// Reads `platform:`, either a preset name or a what-if mapping on top of one:
///
/// ```yaml
/// platform: ios17
/// platform: {base: ios17, max_pack_size: 64MB, max_in_use: none}
/// platform: {base: play-asset-delivery, cellular_confirmation_over: 150MB, app_evicts_when_full: false}
/// ```
///
/// In the mapping, `none` lifts a limit, and the profile is named `<base>-custom` unless
/// `name` says otherwise, so messages never blame a stock profile for a custom limit.
struct PlatformReader {
    let reader: NodeReader

    static var presetNames: [String] { PlatformProfile.presets.map(\.name) }

    func read(_ node: Node) throws(ScenarioError) -> PlatformProfile {
        if case .scalar = node { return try preset(node) }
        guard case .mapping = node else {
            throw reader.error(
                at: node,
                "platform must be a preset name (\(Self.presetNames.joined(separator: ", "))) or a mapping, not "
                    + "\(NodeReader.describe(node))"
            )
        }
        let fields = try reader.mapping(node, "platform", section: .platform)
        var profile = try fields.value("base").map { node throws(ScenarioError) in try preset(node) } ?? .ios17
        profile.name =
            try fields.value("name").map { node throws(ScenarioError) in try reader.name(node, "name") }
            ?? "\(profile.name)-custom"
        try sizeLimit(fields, "max_pack_size", &profile.maxPackSize)
        try sizeLimit(fields, "max_tag_size", &profile.maxTagSize)
        try sizeLimit(fields, "max_initial_install", &profile.maxInitialInstallSize)
        try sizeLimit(fields, "max_initial_and_prefetch", &profile.maxInitialAndPrefetchSize)
        try sizeLimit(fields, "max_in_use", &profile.maxInUseSize)
        try sizeLimit(fields, "max_hosted", &profile.maxHostedSize)
        if let node = fields.value("max_prefetch_and_on_demand") {
            profile.maxPrefetchAndOnDemandSize =
                try isNone(node) ? nil : reader.size(node, "max_prefetch_and_on_demand")
        }
        if let node = fields.value("cellular_confirmation_over") {
            // Only Play holds large downloads for the user; elsewhere the app's `cellular` decides.
            guard profile.cellularConfirmationBytes != nil else {
                throw reader.error(
                    at: node,
                    """
                    cellular_confirmation_over applies where large downloads on cellular wait for the user \
                    (play-asset-delivery); on \(profile.name) a download uses cellular data if the app's \
                    `cellular` allows it, whatever its size
                    """
                )
            }
            profile.cellularConfirmationBytes = try isNone(node) ? nil : reader.size(node, "cellular_confirmation_over")
        }
        if let node = fields.value("update_patch") {
            // Only where packs change with the app (Play) does an update patch them.
            guard profile.updatePatchShare != nil || !profile.packUpdatesApartFromApp else {
                throw reader.error(
                    at: node,
                    """
                    update_patch applies where packs update only with the app (play-asset-delivery); on \
                    \(profile.name) a pack's new version downloads apart from the app (update events)
                    """
                )
            }
            profile.updatePatchShare = try isNone(node) ? nil : share(node, "update_patch")
        }
        if let node = fields.value("unpack_space") {
            profile.unpackShare = try isNone(node) ? 0 : share(node, "unpack_space")
        }
        if let node = fields.value("app_evicts_when_full") {
            guard profile.evictor == .app else {
                throw reader.error(
                    at: node,
                    """
                    app_evicts_when_full applies where the app removes its own packs (background-assets, \
                    play-asset-delivery), not on \(profile.name)
                    """
                )
            }
            profile.appEvictsWhenFull = try reader.bool(node, "app_evicts_when_full")
        }
        if let node = fields.value("system_purges_before_app_evicts") {
            guard profile.evictor == .app else {
                throw reader.error(
                    at: node,
                    """
                    system_purges_before_app_evicts applies where the app removes its own packs (background-assets, \
                    play-asset-delivery), not on \(profile.name)
                    """
                )
            }
            profile.systemPurgesBeforeAppEvicts = try reader.bool(node, "system_purges_before_app_evicts")
        }
        if let node = fields.value("system_removes_for_other_data") {
            guard profile.evictor == .app else {
                throw reader.error(
                    at: node,
                    """
                    system_removes_for_other_data applies where the app removes its own packs (background-assets, \
                    play-asset-delivery), not on \(profile.name)
                    """
                )
            }
            profile.systemRemovesForOtherData = try reader.bool(node, "system_removes_for_other_data")
            // Play's packs are app files, which Android never clears (PlatformProfile's source).
            if profile.systemRemovesForOtherData && !profile.initialPacksRemovable {
                throw reader.error(
                    at: node,
                    """
                    system_removes_for_other_data: true does not apply on \(profile.name): asset packs live in the \
                    app's files/assetpacks, which Android never clears for other data (only cache folders); \
                    other data that does not fit is refused
                    """
                )
            }
        }
        if let node = fields.value("max_pack_count") {
            profile.maxPackCount =
                try isNone(node) ? nil : reader.integer(node, "max_pack_count", as: Int.self, atLeast: 1)
        }
        return profile
    }

    /// The operating system a platform runs on, where it says: ODR and Background Assets on
    /// Apple's, Play on Android; `unlimited` (and what-if profiles on it) on any.
    static func operatingSystem(of profile: PlatformProfile) -> String? {
        switch profile.family {
        case .playAssetDelivery: "Android"
        case .backgroundAssets: "Apple's"
        case .onDemandResources: profile.name.hasPrefix("unlimited") ? nil : "Apple's"
        }
    }

    /// An app's own platform must run on the device's operating system: an ODR app and a
    /// Background Assets app share an iPhone, a Play app an Android phone (beside apps whose
    /// files are cache, platform `unlimited` under `android-quota`), never one of each.
    static func checkSameSystem(_ app: PlatformProfile, device: PlatformProfile, at node: Node, _ reader: NodeReader)
        throws(ScenarioError)
    {
        guard let system = operatingSystem(of: app), let deviceSystem = operatingSystem(of: device),
            system != deviceSystem
        else { return }
        throw reader.error(
            at: node,
            """
            platform \(app.name) runs on \(system) devices, but the device's platform is \(device.name) \
            (\(deviceSystem)); one device runs one operating system
            """
        )
    }

    private func preset(_ node: Node) throws(ScenarioError) -> PlatformProfile {
        let name = try reader.choice(node, "platform", among: Self.presetNames)
        return PlatformProfile.named(name)!  // choice(_:) only returns preset names
    }

    private func sizeLimit(_ fields: MappingFields, _ key: String, _ limit: inout Int64?) throws(ScenarioError) {
        guard let node = fields.value(key) else { return }
        limit = try isNone(node) ? nil : reader.size(node, key)
    }

    /// A share of a pack's size: `30%`, or a number in (0, 1].
    private func share(_ node: Node, _ subject: String) throws(ScenarioError) -> Double {
        let text = try reader.scalar(node, subject)
        let value =
            text.hasSuffix("%")
            ? Double(text.dropLast().trimmingCharacters(in: .whitespaces)).map { $0 / 100 } : Double(text)
        guard let value, value > 0, value <= 1 else {
            throw reader.error(
                at: node,
                "\(subject) must be a share of the pack's size above 0 and at most 100% (30% or 0.3), not '\(text)'")
        }
        return value
    }

    private func isNone(_ node: Node) -> Bool {
        if case .scalar(let scalar) = node { return scalar.string == "none" }
        return false
    }
}
