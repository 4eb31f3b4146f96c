import ODRCore
import Simulation

/// A platform profile's rules as sentences, in the scenario's own words (its keys, its
/// category names): what `odr-sim platforms` prints and the docs' platform table shows, from
/// the profile itself, so that no sentence can say what the model does not do.
public enum PlatformDescription {
    public static func evictor(_ profile: PlatformProfile) -> String {
        switch profile.evictor {
        case .system: "the system, under the run's purge policy, when space is short"
        case .app:
            """
            the app, with the run's policy (or `apps[].strategy`) as its strategy, within `apps[].budget` and when a \
            download finds the disk full
            """
                + (profile.systemRemovesForOtherData ? "; the system too, for other data that would not fit" : "")
        }
    }

    public static func categories(_ profile: PlatformProfile) -> String {
        [TagCategory.initialInstall, .prefetch(order: 0), .onDemand].map { category in
            let own = profile.family.name(of: category)
            return own == category.name ? own : "\(own) (= \(category.name))"
        }.joined(separator: ", ")
    }

    public static func install(_ profile: PlatformProfile) -> String {
        let initial = profile.family.name(of: .initialInstall)
        var text = "\(initial) packs download first and block the launch; "
        text +=
            profile.installFailsWithoutInitialSpace
            ? "without room for them the install fails"
            : "without room for them the app installs without them, launch unblocked"
        if !profile.initialPacksRemovable { text += "; they are never removed before uninstall" }
        return text
    }

    public static func cellular(_ profile: PlatformProfile) -> String? {
        profile.cellularConfirmationBytes.map {
            """
            downloads over \(ByteFormatting.describe($0)) wait for the user's confirmation \
            (`apps[].cellular_confirmation`, default \(Int(AppSpec.defaultCellularConfirmationDelay)) s) or \
            Wi-Fi
            """
                + (profile.family == .playAssetDelivery
                    ? """
                    ; an app not installed through Play (`apps[].installed_by_play: false`) waits for it on any \
                    link
                    """
                    : "")
        }
    }

    /// What makes an app update's invalid packs valid again.
    private static func patch(_ profile: PlatformProfile) -> String {
        guard let share = profile.updatePatchShare else { return "fetched again" }
        let percent = (share * 100).formatted(.number.precision(.fractionLength(0...2)))
        return "their patch (`update_patch`, \(percent) % of the pack's size) downloads with the update"
    }

    public static func updates(_ profile: PlatformProfile) -> String {
        guard profile.packUpdatesApartFromApp else {
            let initial = profile.family.name(of: .initialInstall)
            return
                """
                only with the app (`app-update`): \(initial) packs update with it, downloaded \
                \(profile.family.name(of: .prefetch(order: 0))) and \(profile.family.name(of: .onDemand)) \
                packs are invalid until \(patch(profile))
                """
        }
        guard profile.keepsOutdatedVersions else {
            return
                """
                per pack (`update:`): the old version is removed and the new one downloads when it fits; a pack in \
                use is not updated
                """
        }
        return
            """
            per pack (`update:`): the old version is removed and the new one downloads when it fits; a pack in use \
            keeps its old version, \
            out of date, until a request with `latest: true`; a withdrawn pack (`obsolete:`) goes at the app's \
            `check-updates`
            """
    }

    public static func limits(_ profile: PlatformProfile) -> String {
        let d = ByteFormatting.describe
        let family = profile.family
        var parts: [String] = []
        if let v = profile.maxPackSize { parts.append("pack \(d(v))") }
        if let v = profile.maxTagSize { parts.append("tag \(d(v))") }
        if let v = profile.maxPackCount { parts.append("\(v) packs") }
        if let v = profile.maxInitialInstallSize { parts.append("\(family.name(of: .initialInstall)) \(d(v))") }
        if let v = profile.maxInitialAndPrefetchSize {
            parts.append("\(family.name(of: .initialInstall)) + \(family.name(of: .prefetch(order: 0))) \(d(v))")
        }
        if let v = profile.maxPrefetchAndOnDemandSize {
            parts.append("\(family.name(of: .prefetch(order: 0))) + \(family.name(of: .onDemand)) \(d(v))")
        }
        if let v = profile.maxInUseSize { parts.append("in use \(d(v))") }
        if let v = profile.maxHostedSize { parts.append("hosted \(d(v))") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Every preset as a Markdown table: what `odr-sim platforms --markdown` prints and the docs show.
    /// Every preset, a few lines each: who evicts, categories, install, cellular, updates, limits.
    public static func listing() -> [String] {
        PlatformProfile.presets.flatMap { profile in
            [
                "\(profile.name): \(evictor(profile))", "  categories: \(categories(profile))",
                "  install: \(install(profile))",
            ]
                + (cellular(profile).map { ["  cellular: \($0)"] } ?? [])
                + ["  updates: \(updates(profile))", "  limits: \(limits(profile))"]
        }
    }

    public static func markdownTable() -> String {
        var lines = [
            "| platform | who removes packs | categories | install | cellular | updates | limits |",
            "|---|---|---|---|---|---|---|",
        ]
        for profile in PlatformProfile.presets {
            lines.append(
                """
                | `\(profile.name)` | \(PlatformDescription.evictor(profile)) | \
                \(PlatformDescription.categories(profile)) | \(PlatformDescription.install(profile)) |
                """
                    + " \(PlatformDescription.cellular(profile) ?? "the app's `cellular` setting") | "
                    + "\(PlatformDescription.updates(profile)) | \(PlatformDescription.limits(profile)) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
