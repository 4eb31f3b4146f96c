import ODRCore
import Quantities
import Simulation
import Yams

/// Reads the entries of `events:` in file order, resolving app ids to ``AppIndex``, tag names
/// to each app's ``TagID`` and request ids to ``RequestKey``s.
///
/// Request ids are per app: `request`/`request-if-present` define one (unique within its app)
/// and later events of the same app refer to it. Each definition gets its own key, with the id
/// as its label, so two apps may both say `r1`.
struct EventReader {
    /// Where errors point: the scenario, or a telemetry file read into the same requests.
    var reader: NodeReader
    let apps: [AppSpec]
    /// Labels of the keys handed out so far, indexed by ``RequestKey``.
    private(set) var labels: [String] = []
    private let appIndexByID: [String: AppIndex]
    /// Per app: request id → key and the line that defined it.
    private var requests: [[String: (key: RequestKey, line: Int?)]]
    /// The time and its text of the event before, for the time-order check.
    private var previous: (time: Double, text: String)?
    /// Per app: each updated pack's version so far (a pack starts at version 1), so that an
    /// update must raise it.
    private var packVersions: [[Int32: Int]] = []

    init(reader: NodeReader, apps: [AppSpec]) {
        self.reader = reader
        self.apps = apps
        var index: [String: AppIndex] = [:]
        for (i, app) in apps.enumerated() { index[app.id] = i }
        appIndexByID = index
        requests = Array(repeating: [:], count: apps.count)
        packVersions = Array(repeating: [:], count: apps.count)
    }

    /// Starts a new time-ordered sequence (a telemetry file after the scenario's `events`).
    mutating func restartTimeOrder() { previous = nil }

    /// Where a value was written, for its errors: a YAML node of the scenario, or a cell of a
    /// telemetry CSV (its line and column).
    enum Place {
        case node(Node)
        case cell(line: Int, column: Int)

        var line: Int? {
            switch self {
            case .node(let node): node.mark?.line
            case .cell(let line, _): line
            }
        }
    }

    func error(at place: Place, _ message: String) -> ScenarioError {
        switch place {
        case .node(let node): reader.error(at: node, message)
        case .cell(let line, let column): ScenarioError(file: reader.file, line: line, column: column, message: message)
        }
    }

    /// One field of a telemetry row: its text and place.
    struct Cell {
        let text: String
        let line: Int
        let column: Int
        var place: Place { .cell(line: line, column: column) }
    }

    /// A telemetry row as the event it stands for, checked by the same rules as an entry of
    /// `events:` (the same apps, tags, request ids and time order), without YAML: a trace may
    /// have millions of rows. `verb` is one of ``TelemetryReader/verbs``; `tags` are the
    /// request's tags, each with its place.
    mutating func readRow(
        time: Cell, app: Cell, verb: EventVerb, verbCell: Cell, tags: [Cell], id: Cell?,
        priority: Cell?
    ) throws(ScenarioError) -> ScenarioEvent {
        let seconds: Double
        do {
            seconds = try DurationSyntax.parse(time.text)
        } catch {
            throw self.error(at: time.place, error.message(subject: "time"))
        }
        if let previous, seconds < previous.time {
            throw self.error(
                at: time.place,
                """
                event at \(time.text) is earlier than the event before it (at \(previous.text)); events must be in \
                time order
                """
            )
        }
        previous = (seconds, time.text)
        let appIndex = try self.appIndex(app.text, at: app.place)
        func required(_ cell: Cell?) throws(ScenarioError) -> Cell {
            guard let cell else {
                throw self.error(at: verbCell.place, "\(verb.rawValue) event is missing required key 'id'")
            }
            return cell
        }
        let action: ScenarioEvent.Action
        switch verb {
        case .install: action = .install(appIndex)
        case .launch: action = .launch(appIndex)
        case .terminate: action = .terminate(appIndex)
        case .uninstall: action = .uninstall(appIndex)
        case .appUpdate: action = .updateApp(appIndex)
        case .request, .requestIfPresent:
            guard !tags.isEmpty else {
                throw self.error(at: verbCell.place, "\(verb.rawValue) must list at least one tag")
            }
            var ids: [TagID] = []
            for cell in tags {
                let tag = try tagID(cell.text, at: cell.place, app: appIndex)
                guard !ids.contains(tag) else {
                    throw self.error(at: cell.place, "tag '\(cell.text)' is listed twice in this \(verb.rawValue)")
                }
                ids.append(tag)
            }
            if verb == .request {
                let key = try defineRequest(try required(id).text, at: try required(id).place, app: appIndex)
                var loading = LoadingPriority.normal
                if let priority {
                    do {
                        loading = try PrioritySyntax.parseLoading(priority.text)
                    } catch {
                        throw self.error(at: priority.place, error.message(subject: "priority"))
                    }
                }
                action = .request(appIndex, tags: RequestTags(ids), key: key, priority: loading, optional: false)
            } else {
                let key = try id.map { cell throws(ScenarioError) in
                    try defineRequest(cell.text, at: cell.place, app: appIndex)
                }
                action = .requestIfPresent(appIndex, tags: RequestTags(ids), key: key)
            }
        case .end, .cancel, .pause, .resume:
            let cell = id ?? Cell(text: "", line: verbCell.line, column: verbCell.column)
            guard !cell.text.isEmpty else { throw self.error(at: cell.place, "request id must not be empty") }
            let key = try requestKey(cell.text, at: cell.place, app: appIndex)
            switch verb {
            case .end: action = .end(appIndex, key: key)
            case .cancel: action = .cancel(appIndex, key: key)
            case .pause: action = .pause(appIndex, key: key)
            default: action = .resume(appIndex, key: key)
            }
        default:
            throw self.error(at: verbCell.place, "a \(verb.rawValue) event cannot come from telemetry")
        }
        return ScenarioEvent(time: seconds, action: action)
    }

    mutating func read(_ node: Node) throws(ScenarioError) -> ScenarioEvent {
        let fields = try reader.mapping(node, "each event", section: .event)
        let verbs = fields.entries.compactMap { entry in EventVerb(rawValue: entry.key).map { (entry, $0) } }
        guard let (verbEntry, verb) = verbs.first else {
            throw reader.error(
                at: node, "event has no verb; give one of " + EventVerb.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        if verbs.count > 1 {
            throw reader.error(
                at: verbs[1].0.keyNode,
                "event has two verbs, '\(verb.rawValue)' and '\(verbs[1].1.rawValue)'; give each its own event")
        }
        for entry in fields.entries
        where entry.key != "at" && entry.key != verb.rawValue && !verb.parameters.contains(entry.key) {
            throw reader.error(at: entry.keyNode, "'\(entry.key)' does not apply to a \(verb.rawValue) event")
        }

        let atNode = try fields.required("at")
        let time = try reader.duration(atNode, "at")
        let timeText = try reader.scalar(atNode, "at")
        if let previous, time < previous.time {
            throw reader.error(
                at: atNode,
                """
                event at \(timeText) is earlier than the event before it (at \(previous.text)); events must be in \
                time order
                """
            )
        }
        previous = (time, timeText)

        for key in verb.requiredParameters where fields.value(key) == nil {
            throw reader.error(at: node, "\(verb.rawValue) event is missing required key '\(key)'")
        }
        let action = try action(verb, verbEntry.value, fields)
        return ScenarioEvent(time: time, action: action)
    }

    private mutating func action(_ verb: EventVerb, _ value: Node, _ fields: MappingFields) throws(ScenarioError)
        -> ScenarioEvent.Action
    {
        if verb == .disk { return .disk(try reader.signedSize(value, "disk")) }
        if verb == .failDownload || verb == .stall { return try faultAction(verb, value, fields) }
        let app = try appIndex(try fields.required("app"))
        switch verb {
        case .obsolete, .checkUpdates:
            let profile = apps[app].catalog.profile
            guard profile.family == .backgroundAssets else {
                throw reader.error(
                    at: value,
                    """
                    \(verb.rawValue) is Background Assets' (obsolete packs, AssetPackManager.checkForUpdates()); on \
                    \(profile.name)
                    """
                        + " "
                        + (profile.family == .playAssetDelivery
                            ? "packs change only with an app update (app-update)" : "content changes with the app"))
            }
            if verb == .obsolete { return .retire(app, pack: try packIndex(value, app: app, verb: .obsolete)) }
            guard try reader.bool(value, verb.rawValue) else {
                throw reader.error(at: value, "check-updates must be true; leave the event out rather than write false")
            }
            return .checkForUpdates(app)
        case .offload, .clearStorage:
            // iOS offloads apps; Android clears an app's storage: each is the other's nowhere.
            let profile = apps[app].catalog.profile
            let android = profile.family == .playAssetDelivery
            if (verb == .offload) == android {
                throw reader.error(
                    at: value,
                    verb == .offload
                        ? """
                        offload is iOS's "Offload App"; on \(profile.name) the user clears the app's storage \
                        (clear-storage: true) or uninstalls it
                        """
                        : """
                        clear-storage is Android's "Clear storage"; on \(profile.name) the user offloads the app \
                        (offload: true) or uninstalls it
                        """)
            }
            guard try reader.bool(value, verb.rawValue) else {
                throw reader.error(
                    at: value, "\(verb.rawValue) must be true; leave the event out rather than write false")
            }
            return verb == .offload ? .offload(app) : .clearStorage(app)
        case .install, .launch, .terminate, .uninstall, .appUpdate:
            guard try reader.bool(value, verb.rawValue) else {
                throw reader.error(
                    at: value, "\(verb.rawValue) must be true; leave the event out rather than write false")
            }
            switch verb {
            case .install: return .install(app)
            case .launch: return .launch(app)
            case .terminate: return .terminate(app)
            case .appUpdate: return .updateApp(app)
            default: return .uninstall(app)
            }
        case .request:
            let tags = try tagIDs(value, app: app, verb: verb)
            let key = try defineRequest(try fields.required("id"), app: app)
            let priority =
                try fields.value("priority").map { node throws(ScenarioError) in
                    try reader.loadingPriority(node, "priority")
                } ?? .normal
            let optional =
                try fields.value("optional").map { node throws(ScenarioError) in try reader.bool(node, "optional") }
                ?? false
            if let node = fields.value("latest"), try reader.bool(node, "latest") {
                let profile = apps[app].catalog.profile
                guard profile.keepsOutdatedVersions else {
                    throw reader.error(
                        at: node,
                        """
                        latest is Background Assets' requireLatestVersion; on \(profile.name) the pack on the device \
                        is always the latest version (an update removes the old one)
                        """
                    )
                }
                return .requestLatest(app, tags: RequestTags(tags), key: key, priority: priority, optional: optional)
            }
            return .request(app, tags: RequestTags(tags), key: key, priority: priority, optional: optional)
        case .requestIfPresent:
            let tags = try tagIDs(value, app: app, verb: verb)
            let key = try fields.value("id").map { node throws(ScenarioError) in try defineRequest(node, app: app) }
            return .requestIfPresent(app, tags: RequestTags(tags), key: key)
        case .setPriority:
            let key = try requestKey(value, app: app)
            return .setPriority(app, key: key, try reader.loadingPriority(try fields.required("priority"), "priority"))
        case .pause: return .pause(app, key: try requestKey(value, app: app))
        case .resume: return .resume(app, key: try requestKey(value, app: app))
        case .cancel: return .cancel(app, key: try requestKey(value, app: app))
        case .end: return .end(app, key: try requestKey(value, app: app))
        case .preserve:
            let entries = try reader.namedMapping(value, "preserve")
            guard !entries.isEmpty else {
                throw reader.error(
                    at: value, "preserve must give at least one tag its priority, such as {level-2: 1.0}")
            }
            var preservations: [TagPreservation] = []
            for (_, keyNode, priorityNode) in entries {
                let tag = try tagID(keyNode, app: app)
                let priority = try reader.fraction(
                    priorityNode, "preservation priority of '\(try reader.name(keyNode, "tag"))'")
                preservations.append(TagPreservation(tag: tag, priority: priority))
            }
            return .preserve(app, preservations)
        case .update:
            let profile = apps[app].catalog.profile
            guard profile.packUpdatesApartFromApp else {
                throw reader.error(
                    at: value,
                    """
                    on \(profile.name) a pack changes only with an app update (Play: \"Update asset packs\"); write \
                    {at: …, app: \(apps[app].id), app-update: true} instead
                    """
                )
            }
            let pack = try packIndex(value, app: app)
            // A new version replaces the pack on the device; the same version published again,
            // or an older one, is no update (App Store Connect refuses a version that is not
            // higher), so it is refused here rather than removing and re-downloading the pack.
            let current = packVersions[app][pack] ?? 1
            var version = current + 1
            if let node = fields.value("version") {
                version = try reader.integer(node, "version", as: Int.self, atLeast: 1, atMost: Int(Int32.max))
                guard version > current else {
                    throw reader.error(
                        at: node,
                        "version \(version) of pack '\(apps[app].catalog.packs[Int(pack)].name)' is not newer than "
                            + "its version \(current)\(current == 1 ? " (as installed)" : " (an earlier update)"); an "
                            + "update must raise the version"
                    )
                }
            }
            packVersions[app][pack] = version
            return .update(app, pack: pack)
        case .disk, .failDownload, .stall:
            preconditionFailure("disk and fault events are handled before the app is resolved")
        }
    }

    /// A pack named as `events.csv` names it (its tags, `level-1+level-2`) or by one of its
    /// resources (`forest`).
    /// `fail-download: PACK` and `stall: PACK` of an app's pack; without `app`, of the link
    /// (`fail-download: all`, `stall: link`).
    private func faultAction(_ verb: EventVerb, _ value: Node, _ fields: MappingFields) throws(ScenarioError)
        -> ScenarioEvent.Action
    {
        var seconds = 0.0
        if verb == .stall {
            let node = try fields.required("for")
            seconds = try reader.duration(node, "for")
            guard seconds > 0 else { throw reader.error(at: node, "for must be a duration above zero, such as 30s") }
        }
        guard let appNode = fields.value("app") else {
            let word = verb == .stall ? "link" : "all"
            guard try reader.scalar(value, verb.rawValue) == word else {
                throw reader.error(
                    at: value,
                    """
                    without app, \(verb.rawValue) takes '\(word)' (every transfer on the link); give app: for \
                    one of an app's packs
                    """
                )
            }
            return verb == .stall ? .stallTransfer(nil, packs: [], seconds: seconds) : .failDownloads
        }
        let app = try appIndex(appNode)
        let pack = try packIndex(value, app: app, verb: verb)
        return verb == .stall
            ? .stallTransfer(app, packs: [pack], seconds: seconds) : .failDownload(app, packs: [pack])
    }

    private func packIndex(_ node: Node, app: AppIndex, verb: EventVerb = .update) throws(ScenarioError) -> Int32 {
        let name = try reader.scalar(node, verb.rawValue)
        let packs = apps[app].catalog.packs
        if let index = packs.firstIndex(where: { $0.name == name || $0.resources.contains(name) }) {
            return Int32(index)
        }
        let names = packs.map(\.name) + packs.flatMap(\.resources)
        throw reader.error(
            at: node,
            "app '\(apps[app].id)' has no pack or resource '\(name)'"
                + NameSuggestion.hint(for: name, among: names, noneText: "it has no packs"))
    }

    private func appIndex(_ node: Node) throws(ScenarioError) -> AppIndex {
        try appIndex(try reader.name(node, "app"), at: .node(node))
    }

    private func appIndex(_ id: String, at place: Place) throws(ScenarioError) -> AppIndex {
        guard let index = appIndexByID[id] else {
            let hint = NameSuggestion.hint(for: id, among: apps.map(\.id), noneText: "the scenario has no apps")
            throw error(at: place, "unknown app '\(id)'" + hint)
        }
        return index
    }

    private func tagIDs(_ node: Node, app: AppIndex, verb: EventVerb) throws(ScenarioError) -> [TagID] {
        let items = try reader.sequence(node, verb.rawValue, of: "tags such as [level-1]")
        guard !items.isEmpty else { throw reader.error(at: node, "\(verb.rawValue) must list at least one tag") }
        var tags: [TagID] = []
        for item in items {
            let tag = try tagID(item, app: app)
            guard !tags.contains(tag) else {
                throw reader.error(
                    at: item, "tag '\(try reader.name(item, "tag"))' is listed twice in this \(verb.rawValue)")
            }
            tags.append(tag)
        }
        return tags
    }

    private func tagID(_ node: Node, app: AppIndex) throws(ScenarioError) -> TagID {
        try tagID(try reader.name(node, "tag"), at: .node(node), app: app)
    }

    private func tagID(_ name: String, at place: Place, app: AppIndex) throws(ScenarioError) -> TagID {
        let catalog = apps[app].catalog
        guard let tag = catalog.tagID(named: name) else {
            let hint = NameSuggestion.hint(for: name, among: catalog.tags.map(\.name), noneText: "it has no tags")
            throw error(at: place, "app '\(apps[app].id)' has no tag '\(name)'" + hint)
        }
        return tag
    }

    /// A new request id of `app`: a fresh key labelled with the id.
    private mutating func defineRequest(_ node: Node, app: AppIndex) throws(ScenarioError) -> RequestKey {
        try defineRequest(try reader.name(node, "id"), at: .node(node), app: app)
    }

    private mutating func defineRequest(_ id: String, at place: Place, app: AppIndex) throws(ScenarioError)
        -> RequestKey
    {
        if let earlier = requests[app][id] {
            let line = earlier.line.map { " (line \($0))" } ?? ""
            throw error(
                at: place,
                "request id '\(id)' is already used by app '\(apps[app].id)'\(line); ids are unique within an app")
        }
        let key = labels.count
        labels.append(id)
        requests[app][id] = (key, place.line)
        return key
    }

    /// The key of a request id that an earlier request of `app` defined.
    private func requestKey(_ node: Node, app: AppIndex) throws(ScenarioError) -> RequestKey {
        try requestKey(try reader.name(node, "request id"), at: .node(node), app: app)
    }

    private func requestKey(_ id: String, at place: Place, app: AppIndex) throws(ScenarioError) -> RequestKey {
        if let known = requests[app][id] { return known.key }
        let appID = apps[app].id
        var message = "unknown request id '\(id)' for app '\(appID)'"
        if let other = requests.indices.first(where: { $0 != app && requests[$0][id] != nil }) {
            message += "; '\(id)' is a request of app '\(apps[other].id)'"
        } else {
            // Ids in definition order, so the hint prefers the earliest close one.
            let known = requests[app].sorted { $0.value.key < $1.value.key }.map(\.key)
            message += NameSuggestion.hint(
                for: id, among: known, noneText: "no earlier request of app '\(appID)' has an id")
        }
        throw error(at: place, message)
    }
}
