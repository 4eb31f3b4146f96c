extension ODRDevice {
    /// What became of a pack update (``updatePack(_:at:)``).
    public enum UpdateOutcome: String, Hashable, Sendable {
        /// The device held no version of the pack: its next download is the new one.
        case notOnDevice = "not-on-device"
        /// The pack is being downloaded, awaited or held by a request: the update is not applied.
        case busy
        /// The old version was removed and the new one is downloading in the background.
        case refetching
        /// The old version was removed; the new one will be fetched by the next request (it
        /// did not fit in the free space without removing anything).
        case stale
        /// The new version could not be fetched at once (the pack is busy, or the new version
        /// does not fit beside the free space) and the old one stays usable, out of date
        /// (``PlatformProfile/keepsOutdatedVersions``): a latest-version request fetches the new.
        case outdated
    }

    /// A new version of pack `p` is published (Background Assets' pack versions, updated
    /// apart from app builds; a new build's ODR content). If the device holds the old
    /// version and nothing uses it, the old version is removed and the new one downloads in
    /// the background at once, as a system download, when it fits in the free space; otherwise
    /// the next request fetches it. Its bytes count in ``Ledger/updateBytes``, apart from
    /// re-downloads. Platforms document nothing about updates of packs in use; odr-sim leaves
    /// those as they are (``UpdateOutcome/busy``).
    ///
    /// Where the platform keeps outdated versions (Background Assets), a pack whose new version
    /// cannot be fetched at once, because it is busy or the new version would not fit in the
    /// free space with the old one's bytes added, keeps its old version, out of date
    /// (``UpdateOutcome/outdated``): requests are granted it, and a request with
    /// `requireLatest` removes it and waits for the new one. odr-sim fetches an outdated
    /// pack's new version only then, or at a later update of the pack (Apple documents no
    /// schedule of retries).
    @discardableResult
    public func updatePack(_ p: PackID, at time: Double) -> UpdateOutcome {
        advance(to: time)
        let a = state.packs[p].app
        if state.appContents[a.index].profile.keepsOutdatedVersions, state.apps[a].isPresent,
            state.packs[p].phase == .resident
        {
            if !isUnused(p) || state.packs[p].size > freeBytes + bytesOnDisk(p) {
                state.packDetails[p].outdated = true
                emit(.packOutdated(p, a))
                return .outdated
            }
        }
        if let outcome = invalidate(p) { return outcome }
        guard state.packs[p].size + unpackBytes(p) <= freeBytes else { return .stale }
        startDownload(p, system: true)
        refreshRunnability()
        return .refetching
    }

    /// Removes the old version of pack `p` and marks its next download as the new version's
    /// (counted in ``Ledger/updateBytes``); nil when it did, else why not.
    func invalidate(_ p: PackID) -> UpdateOutcome? {
        let a = state.packs[p].app
        let phase = state.packs[p].phase
        guard state.apps[a].isPresent, phase == .resident || phase == .partial else { return .notOnDevice }
        guard isUnused(p) else { return .busy }
        let bytes = discard(p)
        // Fetched again from now on, and the next fetch is the new version.
        state.packDetails[p].updatePending = true
        book(\.updates, for: a)
        emit(.packUpdated(p, a, removedBytes: bytes))
        return nil
    }

    /// Play's patch of downloaded pack `p` with its app's update: the pack is invalid (not on
    /// the device for requests, which wait for it) while `share` of its size downloads as a
    /// system download counted in ``Ledger/updateBytes``; then it is stored again. The patch
    /// takes the place of the bytes it replaces (no room is made: the old version's bytes
    /// and the patch's are not both held). False if the pack is not resident and unused.
    func patch(_ p: PackID, share: Double) -> Bool {
        guard state.packs[p].phase == .resident, isUnused(p) else { return false }
        let a = state.packs[p].app
        // Room for the compressed patch beside the pack, which is kept from the purge meanwhile.
        if unpackBytes(p) > 0 {
            shield(p)
            let room = makeRoom(unpackBytes(p), mayWarn: false, for: .system(a))
            unshield(p)
            guard room else { return false }
        }
        let size = state.packs[p].size
        let bytes = Swift.min(size, Swift.max(1, Int64((Double(size) * share).rounded(.up))))
        state.packDetails[p].received = size - bytes
        state.odrBytes -= bytes
        move(pack: p, .patch)
        // Counted as an update's bytes, not a re-download (``receive(_:for:at:)``).
        state.packs[p].purgedBefore = true
        state.packDetails[p].updatePending = true
        state.packDetails[p].outdated = false
        refresh(p)
        tell(p) { $0.packRemoved($1) }
        book(\.updates, for: a)
        emit(.packUpdated(p, a, removedBytes: bytes))
        startDownload(p, system: true)
        return true
    }

    /// Whether nothing downloads, awaits or holds pack `p`: an update or an update check may
    /// remove it.
    private func isUnused(_ p: PackID) -> Bool {
        !state.packs[p].downloading && state.packs[p].pins == 0 && state.packs[p].retain == 0
    }

    /// Removes the bytes of pack `p`, stored or partial and unused, as an update or the
    /// system's removal of an obsolete pack does (not a purge); returns them.
    func discard(_ p: PackID) -> Int64 {
        let phase = state.packs[p].phase
        let bytes = bytesOnDisk(p)
        state.odrBytes -= bytes
        if state.packDetails[p].received != 0 { state.packDetails[p].received = 0 }
        if state.packs[p].leftover {
            state.leftoverBytes -= bytes
            removeLeftover(p)
            state.packs[p].leftover = false
        }
        move(pack: p, .purge)
        state.packs[p].purgedBefore = true
        state.packDetails[p].outdated = false
        refresh(p)
        if phase == .resident { tell(p) { $0.packRemoved($1) } }
        return bytes
    }

    /// Background Assets: pack `p`'s publication is withdrawn (no version of it is in the
    /// app's set any more): it is obsolete. The device keeps what it holds until the app's
    /// next ``checkForUpdates(_:at:)``; it never downloads again ("can't be redownloaded once
    /// removed", Apple, `AssetPackManager.checkForUpdates()`): a request that needs to fetch
    /// it fails with ``RequestError/invalidTag``, and no install or prefetch fetches it.
    public func retirePack(_ p: PackID, at time: Double) {
        advance(to: time)
        state.packDetails[p].obsolete = true
        state.somePacksObsolete = true
    }

    /// Background Assets' `AssetPackManager.checkForUpdates()`, which "removes obsolete asset
    /// packs": each obsolete pack of the app on the device that nothing uses is removed (not
    /// a purge; a `packObsoleteRemoved` event). Returns the bytes removed.
    @discardableResult
    public func checkForUpdates(_ app: AppID, at time: Double) -> Int64 {
        advance(to: time)
        guard state.apps[app].isPresent else { return 0 }
        var removed: Int64 = 0
        for p in state.apps[app].packs where state.packDetails[p].obsolete {
            let phase = state.packs[p].phase
            guard phase == .resident || phase == .partial, isUnused(p) else { continue }
            let bytes = discard(p)
            removed += bytes
            emit(.packObsoleteRemoved(p, app, bytes: bytes))
        }
        if removed > 0 { refreshRunnability() }
        return removed
    }

    /// Whether the request for `packs` needs an obsolete pack that is not on the device.
    func needsObsolete(_ packs: PackList) -> Bool {
        packs.contains { state.packDetails[$0].obsolete && state.packs[$0].phase != .resident }
    }
}
