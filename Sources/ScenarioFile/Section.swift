/// A kind of mapping in a scenario file, with the keys it allows and the words messages use for it.
enum Section: Sendable {
    case topLevel, device, platform, networkPhase, app, resource, tagSettings, event

    /// Every key this mapping may have; anything else is an error, never ignored.
    var keys: [String] {
        switch self {
        case .topLevel:
            ["name", "description", "seed", "duration", "platform", "policies", "replications", "sample",
             "device", "network", "apps", "events"]
        case .device: ["capacity", "used", "on_space_exhausted"]
        case .platform:
            ["base", "name", "max_pack_size", "max_tag_size", "max_pack_count", "max_initial_install",
             "max_initial_and_prefetch", "max_in_use", "max_hosted"]
        case .networkPhase: ["at", "bandwidth", "kind"]
        case .app: ["id", "cellular", "on_low_disk", "cache_quota", "resources", "tags"]
        case .resource: ["name", "size", "tags"]
        case .tagSettings: ["category", "order", "preservation"]
        case .event: Self.eventKeys
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
        }
    }

    /// As in "`the scenario` is missing required key 'x'".
    var noun: String {
        switch self {
        case .topLevel: "the scenario"
        default: adjective
        }
    }
}
