/// The steps a pack goes through as requests meet it: each changes the pack's record, keeps
/// the device's totals with it, and tells the policy what it must hear. Requests
/// (``beginAccessing(_:tags:priority:optional:at:)``, ``endAccessing(_:at:)``), downloads and
/// the one-step ``access(_:tag:at:)`` of trace replay are made of these steps, so that the
/// paths cannot drift apart.
///
/// | step | the pack | totals kept | the policy hears |
/// |---|---|---|---|
/// | `pin` | a request awaits it: not purgeable, not a leftover | app's committed bytes | — |
/// | `unpin` | one request fewer awaits it | committed bytes, purgeable, leftover | — |
/// | `use` | found on the device by a request: a use | — | `packRequested` |
/// | `store` | its last byte arrived: resident, a use, admitted | downloads finished | `packStored` |
/// | `hold` | granted to one more request (an awaiting one gives up its pin): a use | in-use and committed bytes, purgeable | — |
/// | `release` | one holder fewer: a use; with none left, purgeable again | in-use and committed bytes, purgeable | `packReleased` (last holder) |
/// | `holdMomentarily` | `hold` and `release` at one instant (a cache access): two uses, a pin given up | committed bytes, purgeable (pin only) | `packReleased` (no other holder) |
///
/// `holdMomentarily` is `hold` then `release` with what cancels out left out: the retain
/// count, in-use bytes and purgeable flag they change and change back. Trace replay takes it
/// once per line; a test holds ``access(_:tag:at:)`` to the full calls on random sequences.
///
/// Downloads starting, stalling and being abandoned are in `ODRDevice+Downloads.swift`;
/// purging in `ODRDevice+Space.swift`.
extension ODRDevice {
    /// A request awaits pack `i`: it is neither purged nor taken as a leftover meanwhile.
    @inline(__always)
    func pin(_ i: Int) {
        let was = isCommitted(i)
        state.packs[i].pins += 1
        recommit(i, was: was)
        refresh(i)
    }

    /// A request no longer awaits pack `i` (it failed before its downloads started).
    @inline(__always)
    func unpin(_ i: Int) {
        let was = isCommitted(i)
        state.packs[i].pins -= 1
        recommit(i, was: was)
        refresh(i)
    }

    /// A request found pack `i` on the device.
    @inline(__always)
    func use(_ i: Int) {
        touch(i)
        policy.packRequested(candidate(at: i))
    }

    /// Pack `i`'s last byte arrived: it is resident and the policy admits it.
    func store(_ i: Int) {
        state.packs[i].phase = .resident
        touch(i)
        state.packDetails[i].storedTick = state.useTick
        refresh(i)
        state.ledger.downloadsFinished += 1
        state.revision &+= 1
        policy.packStored(candidate(at: i))
    }

    /// A request of `app` is granted pack `i`; `pinned` if it awaited it.
    func hold(_ i: Int, app: Int32, pinned: Bool) {
        let packs = state.packs
        let was = isCommitted(i)
        if pinned { packs[i].pins -= 1 }
        if packs[i].retain == 0 { state.apps[Int(app)].inUseBytes += packs[i].size }
        packs[i].retain += 1
        recommit(i, was: was)
        touch(i)
        // What `refresh` would find for a held pack: resident, so not a leftover, and not
        // purgeable.
        assert(packs[i].phase == .resident, "pack \(i) granted while not on the device")
        setPurgeable(i, false)
    }

    /// A request of `app` that held pack `i` ended.
    func release(_ i: Int, app: Int32) {
        let packs = state.packs
        let was = isCommitted(i)
        packs[i].retain -= 1
        recommit(i, was: was)
        touch(i)
        if packs[i].retain == 0 {
            state.apps[Int(app)].inUseBytes -= packs[i].size
            refresh(i)
            policy.packReleased(candidate(at: i))
        }
    }

    /// ``hold(_:app:pinned:)`` then ``release(_:app:)`` at one instant; see the table above.
    @inline(__always)
    func holdMomentarily(_ i: Int, pinned: Bool) {
        if pinned { unpin(i) }
        touch(i, uses: 2)
        if state.packs[i].retain == 0 { policy.packReleased(candidate(at: i)) }
    }

    /// Whether a request holds or awaits pack `i`.
    @inline(__always)
    func isCommitted(_ i: Int) -> Bool { state.packs[i].retain > 0 || state.packs[i].pins > 0 }

    /// Updates the app's committed bytes after pack `i`'s retain or pins changed.
    @inline(__always)
    func recommit(_ i: Int, was: Bool) {
        let committed = isCommitted(i)
        guard committed != was else { return }
        state.apps[Int(state.packs[i].app)].committedBytes += committed ? state.packs[i].size : -state.packs[i].size
    }
}
