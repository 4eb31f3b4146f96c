/// The verbs of a scenario event (`install: true`, `request: [tags]`, …) and the keys each takes
/// beside `at`.
enum EventVerb: String, CaseIterable, Sendable {
    case install, launch, terminate, uninstall
    case request
    case requestIfPresent = "request-if-present"
    case setPriority = "set-priority"
    case pause, resume, cancel, end
    case preserve
    case disk
    case update
    case appUpdate = "app-update"
    case obsolete
    case checkUpdates = "check-updates"
    case failDownload = "fail-download"
    case stall
    case offload
    case clearStorage = "clear-storage"

    /// The keys, beside `at` and the verb itself, that an event with this verb may have.
    var parameters: [String] {
        switch self {
        case .install, .launch, .terminate, .uninstall, .pause, .resume, .cancel, .end, .preserve, .appUpdate,
            .obsolete, .checkUpdates, .offload, .clearStorage:
            ["app"]
        case .request: ["app", "id", "priority", "optional", "latest"]
        case .requestIfPresent: ["app", "id"]
        case .setPriority: ["app", "priority"]
        case .disk: []
        case .update: ["app", "version"]
        case .failDownload: ["app"]
        case .stall: ["app", "for"]
        }
    }

    /// The keys an event must have beside `at` and the verb.
    var requiredParameters: [String] {
        switch self {
        case .request: ["app", "id"]
        case .setPriority: ["app", "priority"]
        case .disk, .failDownload: []
        case .stall: ["for"]
        default: ["app"]
        }
    }

    /// Every parameter key of any verb, in the order messages list them.
    static let allParameters = ["app", "id", "priority", "optional", "latest", "version", "for"]
}
