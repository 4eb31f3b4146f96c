import ArgumentParser
import ODRCore
import Simulation

/// `odr-sim platforms`: what each platform does, and its limits.
struct PlatformsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platforms",
        abstract: "List the platforms a scenario may run on: who removes packs, what each category does, the limits.",
        discussion: """
            A scenario picks one with `platform:` (a name below, or {base: NAME, max_pack_size: …}
            for a what-if). On On-Demand Resources the system purges under the run's policy; on
            Background Assets and Play Asset Delivery the app removes its own packs, so the
            run's policy is the app's eviction strategy and `apps[].budget` its storage budget.
            Every platform accepts ODR's category names (initial-install, prefetch, on-demand),
            so one scenario runs on all of them.

            Examples:
              odr-sim platforms
              odr-sim platforms --markdown                  # the README's table
              odr-sim migrate Scenarios/game.scn --to background-assets
            """)

    @Flag(help: "Print a Markdown table (the README's platform table is this output).")
    var markdown = false

    func run() {
        if markdown {
            say(Self.markdownTable(), terminator: "")
            return
        }
        for profile in PlatformProfile.presets {
            say("\(profile.name): \(Self.evictor(profile))")
            say("  categories: \(Self.categories(profile))")
            say("  install: \(Self.install(profile))")
            if let cellular = Self.cellular(profile) { say("  cellular: \(cellular)") }
            say("  limits: \(Self.limits(profile))")
        }
    }

    static func markdownTable() -> String {
        var lines = ["| platform | who removes packs | categories | install | cellular | limits |", "|---|---|---|---|---|---|"]
        for profile in PlatformProfile.presets {
            lines.append("| `\(profile.name)` | \(evictor(profile)) | \(categories(profile)) | \(install(profile)) | "
                         + "\(cellular(profile) ?? "the app's `cellular` setting") | \(limits(profile)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func evictor(_ profile: PlatformProfile) -> String {
        switch profile.evictor {
        case .system: "the system, under the run's purge policy, when space is short"
        case .app: "the app, with the run's policy (or `apps[].strategy`) as its strategy, within `apps[].budget` and when a download finds the disk full"
            + (profile.systemRemovesForOtherData ? "; the system too, for other data that would not fit" : "")
        }
    }

    static func categories(_ profile: PlatformProfile) -> String {
        [TagCategory.initialInstall, .prefetch(order: 0), .onDemand].map { category in
            let own = profile.family.name(of: category)
            return own == category.name ? own : "\(own) (= \(category.name))"
        }.joined(separator: ", ")
    }

    static func install(_ profile: PlatformProfile) -> String {
        let initial = profile.family.name(of: .initialInstall)
        var text = "\(initial) packs download first and block the launch; "
        text += profile.installFailsWithoutInitialSpace
            ? "without room for them the install fails"
            : "without room for them the app installs without them, launch unblocked"
        if !profile.initialPacksRemovable { text += "; they are never removed before uninstall" }
        return text
    }

    static func cellular(_ profile: PlatformProfile) -> String? {
        profile.cellularConfirmationBytes.map {
            "downloads over \(ByteFormatting.describe($0)) wait for the user's confirmation (`apps[].cellular_confirmation`, default \(Int(AppSpec.defaultCellularConfirmationDelay)) s) or Wi-Fi"
        }
    }

    static func limits(_ profile: PlatformProfile) -> String {
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
}
