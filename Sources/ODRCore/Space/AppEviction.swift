/// The app's own code makes room: it keeps within its budget before it downloads, and, when
/// a download finds the disk full, removes enough of its own unused packs if the platform
/// lets it (``PlatformProfile/appEvictsWhenFull``), after the system has purged what it
/// purges for any demand (the packs of ODR apps beside it).
enum AppEviction: Reclaimer {
    static func makeRoom(
        _ bytes: Int64, mayWarn: Bool, for demand: RoomMaker.Demand, of app: AppID, on device: ODRDevice
    ) -> Bool {
        let rules = device.state.apps[app].rules
        var ownEviction = false
        if case .request = demand {
            // The app's code keeps within its budget before it downloads; it also removes its
            // own packs when its download finds the disk full, where the platform lets it.
            device.enforceBudget(of: app, adding: bytes)
            ownEviction = rules.evictsWhenFull
        }
        let systemFirst = rules.systemFirst
        let deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        let system = device.reclaimableBytes(in: .system)
        let own = ownEviction ? device.removableBytes(of: app).bytes : 0
        guard system + own >= deficit else { return false }
        if systemFirst || own == 0 {
            if system > 0 { device.purge(min(deficit, system), groups: .system) }
            let rest = bytes - device.freeBytes
            if rest > 0 { device.evict(rest, of: app) }
        } else {
            // The alternative order: the app's own packs first, the system's for the rest.
            device.evict(min(deficit, own), of: app)
            let rest = bytes - device.freeBytes
            if rest > 0 { device.purge(rest, groups: .system) }
        }
        return true
    }
}
