/// Where a pack's bytes rest: the stored part of its life (``PackLife``, where the table of
/// what moves it is). The rest is in its ``PackRecord``: a running download (`downloading`,
/// with its slot and `stalled` in its ``PackDetail``), requests awaiting it (`pins`) or
/// holding it (`retain`), and the two flags derived from all of these by `refresh`
/// (`purgeable`, `leftover`). As the public ``PackState`` says it: `notDownloaded` and
/// `purged` (must be fetched again: a re-download) are not on the device; `partial` is
/// partially downloaded, a *leftover* unless pinned, purged first; `resident` is downloaded,
/// in use while `retain` > 0, purgeable when neither held nor awaited and its app is on the
/// device.
enum PackPhase: UInt8 {
    case notDownloaded, partial, resident, purged
}

/// Internal per-pack record of an ``ODRDevice`` (plain data: see ``RecordTable``): what a
/// request for a pack on the device reads or writes, and what choosing a victim reads.
///
/// Performance: 32 bytes, two records to a cache line, so that a hit touches half a line
/// and a trace replay of ten million objects holds 320 MB of them rather than 640 (a test
/// pins this layout). The phase and the four flags ride in the low byte of the last use's
/// tick. What only downloads, updates and preservation write is the pack's ``PackDetail``,
/// in a paged table of its own (24 bytes, none for a pack whose detail was never written);
/// what only some policies read (the last use's time, the admission order, the last
/// request's ordinal, the purges) is its ``PackHistory``, kept only for them.
@usableFromInline
struct PackRecord: BitwiseCopyable {
    @usableFromInline let app: AppID
    var retain: Int32 = 0
    /// Requests waiting for their other packs hold this one so it is not purged under them.
    var pins: Int32 = 0
    /// Saturates at `Int32.max` (2 billion requests of one pack) to fit the record.
    var requestCount: Int32 = 0
    @usableFromInline let size: Int64
    /// The last use's tick (``lastUseTick``) above, the phase and the flags in the low byte.
    @usableFromInline private(set) var useAndState: UInt64 = 0

    init(app: AppID, size: Int64) {
        self.app = app
        self.size = size
    }

    /// Ticks fit in 56 bits: 7·10^16 uses, centuries of a device's work at a billion a second.
    static let tickLimit: UInt64 = 1 << 56

    /// Device-wide order of the pack's last use (``PurgeCandidate/lastUseTick``).
    var lastUseTick: UInt64 {
        @inline(__always) get { useAndState >> 8 }
        @inline(__always) set {
            precondition(newValue < Self.tickLimit, "a device's use ticks ran past 2^56")
            useAndState = newValue << 8 | useAndState & 0xFF
        }
    }

    var phase: PackPhase {
        @inline(__always) get { PackPhase(rawValue: UInt8(truncatingIfNeeded: useAndState) & 3).unsafelyUnwrapped }
        @inline(__always) set { useAndState = useAndState & ~3 | UInt64(newValue.rawValue) }
    }

    @usableFromInline var purgeable: Bool {
        @inlinable get { flag(4) }
        @inline(__always) set { setFlag(4, newValue) }
    }
    /// A partial download nobody continues: the first thing to purge.
    var leftover: Bool {
        @inline(__always) get { flag(8) }
        @inline(__always) set { setFlag(8, newValue) }
    }
    /// `purgeCount > 0`, here so that counting re-downloaded bytes reads only this record.
    var purgedBefore: Bool {
        @inline(__always) get { flag(16) }
        @inline(__always) set { setFlag(16, newValue) }
    }
    /// A download of the pack is running (its slot: ``PackDetail/downloadSlot``).
    var downloading: Bool {
        @inline(__always) get { flag(32) }
        @inline(__always) set { setFlag(32, newValue) }
    }

    @inlinable func flag(_ bit: UInt64) -> Bool { useAndState & bit != 0 }
    @inline(__always) private mutating func setFlag(_ bit: UInt64, _ on: Bool) {
        useAndState = on ? useAndState | bit : useAndState & ~bit
    }
}

/// The rest of a pack's state beside its ``PackRecord`` (plain data, 24 bytes): what
/// downloads, updates and preservation write, in a ``PagedRecordTable`` whose pages exist
/// only where some pack's detail differs from ``plain``: a trace
/// replay's packs, stored and purged whole, never write theirs.
struct PackDetail: BitwiseCopyable, Equatable {
    /// Bytes of the pack on the disk while it is not resident: what arrived of its download,
    /// or a leftover's. 0 when it is resident (its bytes are then its size, and the detail is
    /// left as it was) or absent; ``ODRDevice/bytesOnDisk(_:)`` reads both.
    var received: Int64 = 0
    var preservation: Double
    /// The slot of the pack's running download (its waiters' list), or -1.
    var download: Int32 = -1
    private var flags: UInt8 = 0
    /// Its versions' state, in one byte so that the record stays 24 bytes.
    private var versions: UInt8 = 0

    init(initialInstall: Bool, preservation: Double) {
        self.preservation = preservation
        if initialInstall { flags = 1 }
    }

    /// The detail of an on-demand pack of preservation 0, as made: every pack of a trace.
    static let plain = PackDetail(initialInstall: false, preservation: 0)

    /// Its category is initial-install (the rest of the category is its catalog's).
    var initialInstall: Bool { flags & 1 != 0 }
    var systemDownload: Bool {
        get { flags & 2 != 0 }
        set { flags = newValue ? flags | 2 : flags & ~2 }
    }
    var stalled: Bool {
        get { flags & 4 != 0 }
        set { flags = newValue ? flags | 4 : flags & ~4 }
    }
    /// The download slot, as the per-download tables index it (valid while downloading).
    var downloadSlot: Int { Int(download) }
    /// The pack's old version was removed by an update: its next download is the new version.
    var updatePending: Bool {
        get { versions & 1 != 0 }
        set { versions = newValue ? versions | 1 : versions & ~1 }
    }
    /// A newer version was published, and the device still holds this older one
    /// (``PlatformProfile/keepsOutdatedVersions``): a latest-version request fetches the new.
    var outdated: Bool {
        get { versions & 2 != 0 }
        set { versions = newValue ? versions | 2 : versions & ~2 }
    }
    /// Its publication was withdrawn (``ODRDevice/retirePack(_:at:)``): never fetched again.
    var obsolete: Bool {
        get { versions & 4 != 0 }
        set { versions = newValue ? versions | 4 : versions & ~4 }
    }
}

/// What only some policies read of a pack (``PurgePolicy/readsPackHistory``): kept, in a
/// table of its own, only on a device with such a policy, so that the others' packs do not
/// carry 32 bytes each that nothing reads.
struct PackHistory: BitwiseCopyable {
    /// Time of the last request, grant or end touching the pack (or when it was stored).
    var lastUse: Double = 0
    /// Device-wide order of admission.
    var storedTick: UInt64 = 0
    /// Device-wide ordinal of the latest request that included the pack; 0 if none.
    var lastRequestOrdinal: Int64 = 0
    /// How often the pack was purged since its app was installed.
    var purgeCount: Int32 = 0
}
