/// The system makes room: one purge episode under the device's policy among the packs of
/// `groups`, and if even purging every candidate would not do, a low-disk warning to the
/// apps first (ODR-SPEC).
enum SystemPurge {
    /// Makes `bytes` free, purging if needed. Returns false, having purged nothing, when even
    /// purging everything purgeable (after a low-disk warning, if allowed) would not do.
    static func makeRoom(_ bytes: Int64, mayWarn: Bool, groups: PurgeGroups, on device: ODRDevice) -> Bool {
        var deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes(in: groups) >= deficit {
            device.purge(deficit, groups: groups)
            return true
        }
        guard mayWarn else { return false }
        device.postLowDiskWarning(needed: deficit)
        deficit = bytes - device.freeBytes
        if deficit <= 0 { return true }
        if device.reclaimableBytes(in: groups) >= deficit {
            device.purge(deficit, groups: groups)
            return true
        }
        return false
    }
}

extension SystemPurge: Reclaimer {
    /// An app whose packs the system purges, on a device where other apps evict their own:
    /// the system purges among the packs it may purge for any demand.
    static func makeRoom(
        _ bytes: Int64, mayWarn: Bool, for demand: RoomMaker.Demand, of app: AppID, on device: ODRDevice
    ) -> Bool {
        makeRoom(bytes, mayWarn: mayWarn, groups: .system, on: device)
    }
}
