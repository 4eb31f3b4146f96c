/// Where a pack's bytes rest: the stored part of its life (``PackLife``, where the table of
/// what moves it is). The rest is in its ``PackRecord``: a running download (`download` ≥ 0,
/// with `stalled` in its ``PackDetail``), requests awaiting it (`pins`) or holding it
/// (`retain`), and the two flags derived from all of these by `refresh` (`purgeable`,
/// `leftover`). As the public ``PackState`` says it: `notDownloaded` and `purged` (must be
/// fetched again: a re-download) are not on the device; `partial` is partially downloaded,
/// a *leftover* unless pinned, purged first; `resident` is downloaded, in use while
/// `retain` > 0, purgeable when neither held nor awaited and its app is on the device.
enum PackPhase: UInt8 {
    case notDownloaded, partial, resident, purged
}

/// Internal per-pack record of an ``ODRDevice`` (plain data: see ``RecordTable``): what a
/// request reads or writes, and what purging a victim reads.
///
/// Performance: it fills one 64-byte cache line exactly, and the table aligns records to
/// cache lines, so a hit touches one line (a test pins this layout). The rest of a pack's
/// state, which only downloads, admissions and purge episodes touch, is its ``PackDetail``
/// in a table of its own: 104 bytes a pack in all, where one two-line record took 128, which
/// counts when a trace replay holds a pack per object of millions.
struct PackRecord: BitwiseCopyable {
    let app: AppID
    var retain: Int32 = 0
    /// Requests waiting for their other packs hold this one so it is not purged under them.
    var pins: Int32 = 0
    /// The slot of the pack's running download (its waiters' list), or -1.
    var download: Int32 = -1
    let size: Int64
    var bytesOnDisk: Int64 = 0
    var lastUse: Double = 0
    var lastUseTick: UInt64 = 0
    var lastRequestOrdinal: Int64 = 0
    /// Saturates at `Int32.max` (2 billion requests of one pack) to fit this line.
    var requestCount: Int32 = 0
    var phase: PackPhase = .notDownloaded
    var purgeable = false
    /// A partial download nobody continues: the first thing to purge.
    var leftover = false
    /// `purgeCount > 0`, here so that counting re-downloaded bytes reads only this line.
    var purgedBefore = false

    init(app: AppID, size: Int64) {
        self.app = app
        self.size = size
    }

    var downloading: Bool { download >= 0 }
    /// The download slot, as the per-download tables index it (valid while downloading).
    var downloadSlot: Int { Int(download) }
}

/// The rest of a pack's state beside its ``PackRecord`` (plain data, 40 bytes: the fields
/// in this order leave no padding but the tail's).
struct PackDetail: BitwiseCopyable {
    /// Device-wide order of admission.
    var storedTick: UInt64 = 0
    var preservation: Double
    let category: TagCategory
    var purgeCount: Int32 = 0
    /// The purge episode that last counted the pack (see `markEpoch`).
    var mark: UInt32 = 0
    var systemDownload = false
    var stalled = false
    /// Its versions' state, in one byte so that the record stays 40 bytes.
    private var versions: UInt8 = 0
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

    init(category: TagCategory, preservation: Double) {
        self.category = category
        self.preservation = preservation
    }
}
