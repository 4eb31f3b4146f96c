import COdrSimPolicy
import Foundation
import ODRCore
import ODRPolicies
import SafeOutput

/// One run's instance of a plug-in policy: it forwards the device's notifications to the
/// plug-in and asks it for victims through an `odrsim_view`.
///
/// The plug-in's answer is checked against ``PurgePolicy``'s contract before the device sees
/// it (each victim a candidate, listed once, enough bytes or every candidate), so that a
/// wrong answer is one line naming the plug-in (exit 1, nothing written), never a crash or a
/// device in a state no platform reaches.
final class PluginPolicy: PurgePolicy {
    let plugin: PolicyPlugin
    private let instance: UnsafeMutableRawPointer
    private var victims: [Int64] = []
    /// The demand each pack was last chosen in, by pack index (``checked``).
    private var marks: [UInt32] = []
    private var epoch: UInt32 = 0

    var name: String { plugin.name }
    /// A plug-in is handed every field of its candidates, the last use's time and the
    /// admission order included.
    var readsPackHistory: Bool { true }

    init(plugin: PolicyPlugin, seed: UInt64) {
        self.plugin = plugin
        var error: UnsafePointer<CChar>? = nil
        let made = Self.calling(plugin) {
            plugin.withCreateArguments(seed: seed) { plugin.api.pointee.create($0, &error) }
        }
        guard let made else {
            Self.stop(plugin, "create failed: \(Self.text(error) ?? "no instance")")
        }
        instance = made
    }

    deinit {
        checkNotifications()
        Self.calling(plugin) { plugin.api.pointee.destroy?(instance) }
    }

    /// `body`, a call into the plug-in, marked so that a plug-in calling `exit` there is one
    /// line naming it and exit status 1 (`odrsim_host.h`).
    @inline(__always)
    private static func calling<T>(_ plugin: PolicyPlugin, _ body: () -> T) -> T {
        odrsim_enter_plugin(plugin.exitLine)
        defer { odrsim_leave_plugin() }
        return body()
    }

    /// A plug-in's message as one safe line (``PluginProbe/oneLine(_:)``).
    private static func text(_ message: UnsafePointer<CChar>?) -> String? {
        message.map { PluginProbe.oneLine($0) }
    }

    /// Stops on an error a notification met (a Python method that raised).
    private func checkNotifications() {
        if let error = Self.calling(plugin, { plugin.api.pointee.error?(instance) }) {
            Self.stop(plugin, Self.text(error)!)
        }
    }

    func packStored(_ pack: PurgeCandidate) { notify(plugin.api.pointee.stored, pack) }
    func packRequested(_ pack: PurgeCandidate) { notify(plugin.api.pointee.accessed, pack) }
    func packReleased(_ pack: PurgeCandidate) { notify(plugin.api.pointee.released, pack) }
    func packRemoved(_ pack: PurgeCandidate) { notify(plugin.api.pointee.removed, pack) }

    @inline(__always)
    private func notify(
        _ call: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<odrsim_pack>?) -> Void)?,
        _ pack: PurgeCandidate
    ) {
        guard let call else { return }
        var record = odrsim_pack(pack)
        Self.calling(plugin) { call(instance, &record) }
    }

    func selectVictims(toFree bytes: Int64, from view: PurgeView) -> [PackID] {
        let count = view.candidateCount
        let box = ViewBox(view)
        var cView = odrsim_view()
        cView.context = UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
        cView.bytes = bytes
        cView.time = view.time
        cView.cache_bytes = view.cacheBytes
        switch view.scope {
        case .tier(.appsNotRunning):
            cView.scope = Int32(ODRSIM_SCOPE_APPS_NOT_RUNNING)
            cView.app = -1
        case .tier(.runningApps):
            cView.scope = Int32(ODRSIM_SCOPE_RUNNING_APPS)
            cView.app = -1
        case .app(let app):
            cView.scope = Int32(ODRSIM_SCOPE_APP)
            cView.app = app.rawValue
        }
        cView.candidate_count = Int64(count)
        cView.candidate_size = { view, pack in
            let box = Unmanaged<ViewBox>.fromOpaque(view!.pointee.context!).takeUnretainedValue()
            guard pack >= 0, pack <= Int64(Int32.max) else { return -1 }
            return box.view.candidateSize(PackID(rawValue: Int32(pack))) ?? -1
        }
        cView.candidates = { view, out, capacity in
            let box = Unmanaged<ViewBox>.fromOpaque(view!.pointee.context!).takeUnretainedValue()
            let all = box.view.candidates
            let n = min(all.count, Int(max(0, capacity)))
            for k in 0..<n { out![k] = odrsim_pack(all[k]) }
            return Int64(n)
        }
        cView.pack = { view, pack, out in
            let box = Unmanaged<ViewBox>.fromOpaque(view!.pointee.context!).takeUnretainedValue()
            guard pack >= 0, pack < Int64(box.packCount) else { return -1 }
            out!.pointee = odrsim_pack(box.view.info(PackID(rawValue: Int32(pack))))
            return 0
        }
        if victims.count < count + 1 { victims = [Int64](repeating: -1, count: count + 1) }
        var error: UnsafePointer<CChar>? = nil
        let written = withExtendedLifetime(box) {
            victims.withUnsafeMutableBufferPointer { buffer in
                Self.calling(plugin) { plugin.api.pointee.select_victims(instance, &cView, buffer.baseAddress, &error) }
            }
        }
        checkNotifications()
        guard written >= 0 else {
            Self.stop(plugin, "select_victims: \(Self.text(error) ?? "no message")")
        }
        guard written <= count else {
            Self.stop(plugin, "select_victims wrote \(written) victims, more than the \(count) candidates")
        }
        return checked(
            victims[..<Int(written)].map { PackID(rawValue: Int32(truncatingIfNeeded: $0)) }, bytes: bytes, view: view,
            count: count, raw: victims[..<Int(written)])
    }

    /// The answer, if it keeps the contract; else the program stops naming the plug-in.
    private func checked(_ answer: [PackID], bytes: Int64, view: PurgeView, count: Int, raw: ArraySlice<Int64>)
        -> [PackID]
    {
        // Repeats are found by marking each victim with this demand's number (no hashing: a
        // purge on a long trace is one of millions).
        epoch &+= 1
        if epoch == 0 {  // wrapped: every mark is stale, and 0 must mean none
            marks = [UInt32](repeating: 0, count: marks.count)
            epoch = 1
        }
        var freed: Int64 = 0
        for (id, victim) in zip(raw, answer) {
            guard id >= 0, id <= Int64(Int32.max), let size = view.candidateSize(victim) else {
                Self.stop(
                    plugin,
                    "chose pack \(id), which is not a candidate of this demand (held, awaited, absent or out of scope)")
            }
            let index = Int(id)
            if index >= marks.count {
                marks += [UInt32](repeating: 0, count: max(index + 1 - marks.count, marks.count))
            }
            guard marks[index] != epoch else { Self.stop(plugin, "chose pack \(id) twice") }
            marks[index] = epoch
            freed += size
        }
        if freed < bytes && answer.count != count {
            Self.stop(plugin, "freed \(freed) of the \(bytes) bytes needed while other candidates remain")
        }
        return answer
    }

    /// The failure handler; the command line's stops the program as a failed command does.
    static func stop(_ plugin: PolicyPlugin, _ reason: String) -> Never {
        Interruption.fail("purge policy '\(plugin.name)' (\(plugin.path)): \(reason)")
    }
}

/// A view held for the plug-in's callbacks during one `select_victims`.
private final class ViewBox {
    let view: PurgeView
    let packCount: Int
    init(_ view: PurgeView) {
        self.view = view
        packCount = view.info(PackID(rawValue: 0)).packCount
    }
}

extension odrsim_pack {
    init(_ c: PurgeCandidate) {
        self.init(
            id: Int64(c.pack.rawValue), size: c.size, last_use: c.lastUse, last_use_order: c.lastUseTick,
            stored_order: c.storedTick,
            request_count: c.requestCount, app: c.app.rawValue, app_running: c.appIsRunning ? 1 : 0,
            preservation: c.preservation, purge_count: c.purgeCount, reserved: 0)
    }
}
