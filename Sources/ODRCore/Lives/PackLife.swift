/// Where a pack is in its life on an ``ODRDevice``, and what moves it.
///
/// Each life, with the events that move it and the life they lead to (the table of
/// ``after(_:)``, row by row):
///
/// - `notDownloaded`: `startDownload` → downloading(notDownloaded); `storeAtOnce` → resident;
///   `uninstall` → notDownloaded.
/// - `partial`: `startDownload` → downloading(partial); `storeAtOnce` → resident; `purge` →
///   purged; `uninstall` → notDownloaded.
/// - `resident`: `purge` → purged; `patch` → partial; `uninstall` → notDownloaded.
/// - `purged`: `startDownload` → downloading(purged); `storeAtOnce` → resident; `uninstall` →
///   notDownloaded.
/// - `downloading(p)`: `finishDownload` → resident; `abandon(keptBytes: true)` → partial;
///   `abandon(keptBytes: false)` → p; `failDiscarding` → notDownloaded, or purged when p is.
///
/// Any other event cannot happen in that life; ``after(_:)`` returns nil and the device traps
/// in debug builds. A download that stops before its last byte leaves the pack `partial` if
/// it kept bytes, else in the life it rested in (`p`). `storeAtOnce` is a trace replay's
/// whole download at one instant. `purge` applies to a resident pack or a partial leftover;
/// `uninstall` to a pack at rest (a running download is abandoned first).
///
/// The life is stored as the pack's resting ``PackPhase`` and `downloading` flag in its
/// 32-byte record, and its download slot (`download` ≥ 0 while downloading, else -1) in its
/// detail.
/// The device's pack steps, below, are the only code that writes the phase, the download
/// slot, the flag, `pins` and `retain` (a test reads the sources to hold it so).
enum PackLife: Hashable {
    case notDownloaded, partial, resident, purged
    /// A download runs; the pack rests in the phase given if it stops before its last byte.
    case downloading(PackPhase)

    /// What happens to a pack's bytes.
    enum Event: Hashable {
        case startDownload
        /// Its download's last byte arrived.
        case finishDownload
        /// Its download stopped (no one awaits it, or its app is leaving).
        case abandon(keptBytes: Bool)
        /// Its download failed and every byte it held went with it, an earlier partial
        /// download's too (``PlatformProfile/resumesFailedDownloads`` false).
        case failDiscarding
        /// Every byte arrived at one instant, with no download under way (trace replay).
        case storeAtOnce
        /// Its bytes were removed to make room.
        case purge
        /// An app update made its version invalid until a patch of it downloads (Play): the
        /// bytes the patch replaces are gone, the rest stay.
        case patch
        /// Its app left the device: not a purge, so no re-download later.
        case uninstall
    }

    /// The life after `event`, or nil if `event` cannot happen in this life (the table above).
    /// Performance: inlined, so that a step's known event folds the table to its one row.
    @inline(__always)
    func after(_ event: Event) -> PackLife? {
        switch (self, event) {
        case (.notDownloaded, .startDownload): .downloading(.notDownloaded)
        case (.partial, .startDownload): .downloading(.partial)
        case (.purged, .startDownload): .downloading(.purged)
        case (.downloading, .finishDownload): .resident
        case (.downloading, .abandon(keptBytes: true)): .partial
        case (.downloading(let rest), .abandon(keptBytes: false)): PackLife(resting: rest)
        case (.downloading(let rest), .failDiscarding): rest == .purged ? .purged : .notDownloaded
        case (.notDownloaded, .storeAtOnce), (.partial, .storeAtOnce), (.purged, .storeAtOnce): .resident
        case (.partial, .purge), (.resident, .purge): .purged
        case (.resident, .patch): .partial
        case (.notDownloaded, .uninstall), (.partial, .uninstall), (.resident, .uninstall), (.purged, .uninstall):
            .notDownloaded
        default: nil
        }
    }

    /// The life of a pack at rest in `phase`.
    @inline(__always)
    init(resting phase: PackPhase) {
        switch phase {
        case .notDownloaded: self = .notDownloaded
        case .partial: self = .partial
        case .resident: self = .resident
        case .purged: self = .purged
        }
    }

    /// The phase stored in the record: where its bytes rest.
    @inline(__always)
    var restingPhase: PackPhase {
        switch self {
        case .notDownloaded: .notDownloaded
        case .partial: .partial
        case .resident: .resident
        case .purged: .purged
        case .downloading(let rest): rest
        }
    }
}

/// The steps a pack goes through as requests and downloads meet it: each changes the pack's
/// record, keeps the device's totals with it, and tells the policy what it must hear. They
/// are the only writers of a pack's phase, download slot, `pins` and `retain`. Requests
/// (``beginAccessing(_:tags:priority:optional:requireLatest:at:)``, ``endAccessing(_:at:)``), downloads and
/// the one-step ``access(_:tag:at:)`` of trace replay are made of these steps, so that the
/// paths cannot drift apart.
///
/// Each step: what it does to the pack; the totals it keeps; what the policy hears.
///
/// - `move`: its life after an event (``PackLife``): phase and download slot.
/// - `pin`: a request awaits it: not purgeable, not a leftover; the app's committed bytes.
/// - `unpin`: one request fewer awaits it; committed bytes, purgeable, leftover.
/// - `shield`, `unshield`: a prefetch's own app keeps it while making room (a pin no total
///   sees); purgeable, leftover.
/// - `use`: found on the device by a request: a use; the policy hears `packRequested`.
/// - `store`: its last byte arrived: resident, a use, admitted; downloads finished;
///   `packStored`.
/// - `hold`: granted to one more request (an awaiting one gives up its pin): a use; in-use and
///   committed bytes, purgeable.
/// - `release`: one holder fewer: a use; with none left, purgeable again; in-use and committed
///   bytes, purgeable; `packReleased` (last holder).
/// - `holdMomentarily`: `hold` and `release` at one instant (a cache access): two uses, a pin
///   given up; committed bytes, purgeable (pin only); `packReleased` (no other holder).
///
/// `holdMomentarily` is `hold` then `release` with what cancels out left out: the retain
/// count, in-use bytes and purgeable flag they change and change back. Trace replay takes it
/// once per line; a test holds ``access(_:tag:at:)`` to the full calls on random sequences.
///
/// Downloads starting, stalling and being abandoned are in `ODRDevice+Downloads.swift`;
/// purging in `ODRDevice+Space.swift`.
extension ODRDevice {
    /// Pack `i`'s life now, from its record.
    @inline(__always)
    func life(_ i: PackID) -> PackLife {
        let record = state.packs[i]
        return record.downloading ? .downloading(record.phase) : PackLife(resting: record.phase)
    }

    /// Moves pack `i` on `event` (``PackLife``); `slot` is the download slot of a download
    /// that starts. The one writer of a pack's phase and download slot.
    @inline(__always)
    func move(pack i: PackID, _ event: PackLife.Event, slot: Int = -1) {
        let next = life(i).after(event)
        assert(next != nil, "pack \(i): \(event) cannot happen while \(life(i))")
        guard let next else { return }
        state.packs[i].phase = next.restingPhase
        if case .downloading = next {
            assert(slot >= 0, "a download starts in a slot")
            state.packDetails[i].download = Int32(truncatingIfNeeded: slot)
            state.packs[i].downloading = true
        } else if state.packs[i].downloading {
            // Only a download's end writes the detail: a pack stored or purged whole (trace
            // replay) leaves it as it was made (``PagedRecordTable``).
            state.packDetails[i].download = -1
            state.packs[i].downloading = false
        }
        // What an app's budget counts changes only here (a download reserving a pack, a pack
        // leaving): where apps evict, how far above its budget the app is now.
        if state.someAppsEvict { noteBudget(of: state.packs[i].app) }
    }

    /// A request awaits pack `i`: it is neither purged nor taken as a leftover meanwhile.
    @inline(__always)
    func pin(_ i: PackID) {
        let was = isCommitted(i)
        state.packs[i].pins += 1
        recommit(i, was: was)
        refresh(i)
    }

    /// A request no longer awaits pack `i` (it failed before its downloads started, or was
    /// cancelled).
    @inline(__always)
    func unpin(_ i: PackID) {
        let was = isCommitted(i)
        state.packs[i].pins -= 1
        recommit(i, was: was)
        refresh(i)
    }

    /// A prefetch keeps its own app's pack `i` while it makes room; the pin is undone within
    /// the same call, so the app's committed bytes never see it.
    func shield(_ i: PackID) {
        state.packs[i].pins += 1
        refresh(i)
    }

    /// Undoes ``shield(_:)``.
    func unshield(_ i: PackID) {
        state.packs[i].pins -= 1
        refresh(i)
    }

    /// A request found pack `i` on the device.
    @inline(__always)
    func use(_ i: PackID) {
        touch(i)
        tell(i) { $0.packRequested($1) }
    }

    /// Pack `i`'s last byte arrived (`event`: its download finished, or every byte came at one
    /// instant): it is resident and the policy admits it.
    @inline(__always)
    func store(_ i: PackID, _ event: PackLife.Event = .finishDownload) {
        move(pack: i, event)
        touch(i)
        if state.keepsHistory { state.history[i].storedTick = state.useTick }
        refresh(i)
        book(\.downloadsFinished, for: state.packs[i].app)
        state.revision &+= 1
        tell(i) { $0.packStored($1) }
    }

    /// ``store(_:_:)`` of every byte at one instant (a trace replay's miss): a call of its
    /// own, in which the known event folds the life table to its one row.
    @inline(never)
    func storeAtOnce(_ i: PackID) { store(i, .storeAtOnce) }

    /// A request of `app` is granted pack `i`; `pinned` if it awaited it.
    func hold(_ i: PackID, app: AppID, pinned: Bool) {
        let packs = state.packs
        let was = isCommitted(i)
        if pinned { packs[i].pins -= 1 }
        if packs[i].retain == 0 { state.apps[app].inUseBytes += packs[i].size }
        packs[i].retain += 1
        recommit(i, was: was)
        touch(i)
        // What `refresh` would find for a held pack: resident, so not a leftover, and not
        // purgeable.
        assert(packs[i].phase == .resident, "pack \(i) granted while not on the device")
        setPurgeable(i, false)
    }

    /// A request of `app` that held pack `i` ended.
    func release(_ i: PackID, app: AppID) {
        let packs = state.packs
        let was = isCommitted(i)
        packs[i].retain -= 1
        recommit(i, was: was)
        touch(i)
        if packs[i].retain == 0 {
            state.apps[app].inUseBytes -= packs[i].size
            refresh(i)
            tell(i) { $0.packReleased($1) }
        }
    }

    /// ``hold(_:app:pinned:)`` then ``release(_:app:)`` at one instant; see the table above.
    /// It follows the pack's use or storing at once, so a policy that ignores a release right
    /// after a use (``PurgePolicy/ignoresReleaseAfterUse``) is not told of it: a third of the
    /// notifications a trace replay makes, each a call through the policy's witness table.
    ///
    /// Performance: what every line of a replay takes is inline (two uses, a test of the
    /// retain count); the pin given up and the release told, each rare there, are calls.
    @inline(__always)
    func holdMomentarily(_ i: PackID, pinned: Bool) {
        if _slowPath(pinned) { unpinOutOfLine(i) }
        touch(i, uses: 2)
        if state.packs[i].retain == 0 && !(policySkipsReleaseAfterUse && !state.policies.routes) {
            tellReleased(i)
        }
    }

    /// ``unpin(_:)``, called rather than inlined where it is rare.
    @inline(never)
    private func unpinOutOfLine(_ i: PackID) { unpin(i) }

    /// The policy hears that pack `i` is no longer held, out of line (``holdMomentarily(_:pinned:)``).
    @inline(never)
    private func tellReleased(_ i: PackID) { tell(i) { $0.packReleased($1) } }

    /// Whether a request holds or awaits pack `i`.
    @inline(__always)
    func isCommitted(_ i: PackID) -> Bool { state.packs[i].retain > 0 || state.packs[i].pins > 0 }

    /// Updates the app's committed bytes after pack `i`'s retain or pins changed.
    @inline(__always)
    func recommit(_ i: PackID, was: Bool) {
        let committed = isCommitted(i)
        guard committed != was else { return }
        state.apps[state.packs[i].app].committedBytes += committed ? state.packs[i].size : -state.packs[i].size
    }
}
