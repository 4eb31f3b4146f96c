/// A kind of mapping in a scenario file, with the keys it allows and the words messages use for it.
enum Section: Sendable, CaseIterable {
    case topLevel, device, platform, networkPhase, app, resource, tagSettings, event
    case generate, lognormal, dailyCycle, spell
    case sessions, levels, popularity, disk, networkSpells, updates, faults, trace
    case study, axis, axisRange, shouldDownload

    /// Every key this mapping may have; anything else is an error, never ignored.
    var keys: [String] {
        switch self {
        case .topLevel:
            [
                "name", "description", "seed", "duration", "platform", "policies", "system_policy", "replications",
                "sample",
                "device", "network", "apps", "events", "workload", "policy_options",
            ]
        case .device: ["capacity", "used", "on_space_exhausted", "wifi_only"]
        case .platform:
            [
                "base", "name", "max_pack_size", "max_tag_size", "max_pack_count", "max_initial_install",
                "max_initial_and_prefetch", "max_in_use", "max_hosted", "max_prefetch_and_on_demand",
                "cellular_confirmation_over", "update_patch", "unpack_space", "app_evicts_when_full",
                "system_purges_before_app_evicts",
                "system_removes_for_other_data",
            ]
        case .networkPhase: ["at", "bandwidth", "kind"]
        case .app:
            [
                "id", "platform", "cellular", "on_low_disk", "cache_quota", "budget", "keep", "strategy",
                "cellular_confirmation", "installed_by_play", "should_download", "resources", "tags", "generate",
            ]
        case .resource: ["name", "size", "tags"]
        case .tagSettings: ["category", "order", "preservation", "installation_events"]
        case .event: Self.eventKeys
        case .generate: ["tags", "size", "prefix"]
        case .lognormal: ["median", "sigma"]
        case .dailyCycle: ["amplitude", "peak"]
        case .spell: ["mean", "bandwidth"]
        case .sessions: ["kind", "app", "rate", "length", "daily_cycle"]
        case .levels: ["kind", "app", "tags", "rate", "start", "prefetch_priority", "prefetch_depth", "within"]
        case .popularity: ["kind", "app", "tags", "rate", "alpha", "hold", "daily_cycle", "priority", "within"]
        case .disk: ["kind", "rate", "size", "cleanup_rate", "cleanup_fraction"]
        case .networkSpells: ["kind", "wifi", "cellular", "offline"]
        case .updates: ["kind", "app", "rate"]
        case .faults: ["kind", "failures", "stalls", "stall"]
        case .trace: ["kind", "file"]
        case .study:
            [
                "name", "description", "scenario", "policies", "replications", "baseline", "axes", "points",
                "objective", "limits",
            ]
        case .axis: ["name", "path", "values", "zip"]
        case .axisRange: ["from", "to", "steps", "scale"]
        case .shouldDownload: ["min_free", "max_size"]
        }
    }

    /// Built once: event mappings are the most numerous, and every key of each is checked.
    private static let eventKeys = ["at"] + EventVerb.allParameters + EventVerb.allCases.map(\.rawValue)

    /// As in "unknown `event` key 'x'".
    var adjective: String {
        switch self {
        case .topLevel: "top-level"
        case .device: "device"
        case .platform: "platform"
        case .networkPhase: "network phase"
        case .app: "app"
        case .resource: "resource"
        case .tagSettings: "tag settings"
        case .event: "event"
        case .generate: "generate"
        case .lognormal: "distribution"
        case .dailyCycle: "daily_cycle"
        case .spell: "spell"
        case .sessions: "sessions workload"
        case .levels: "levels workload"
        case .popularity: "popularity workload"
        case .disk: "disk workload"
        case .updates: "updates workload"
        case .faults: "faults workload"
        case .trace: "trace workload"
        case .networkSpells: "network workload"
        case .study: "study"
        case .axis: "axis"
        case .axisRange: "range"
        case .shouldDownload: "should_download"
        }
    }

    /// As in "`the scenario` is missing required key 'x'".
    var noun: String {
        switch self {
        case .topLevel: "the scenario"
        case .study: "the study"
        default: adjective
        }
    }
}
