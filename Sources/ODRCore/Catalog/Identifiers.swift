/// Identifies an app registered on an ``ODRDevice``, in registration order.
public struct AppID: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Index of the app in registration order, starting at 0.
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: AppID, b: AppID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "app#\(rawValue)" }
}

/// Identifies a tag within one app's ``Catalog`` (the index of ``Catalog/tags``).
public struct TagID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: TagID, b: TagID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "tag#\(rawValue)" }
}

/// Identifies an asset pack on an ``ODRDevice``, unique across all its apps.
///
/// Purge policies see packs of every app, so pack identities are device-wide.
public struct PackID: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static func < (a: PackID, b: PackID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "pack#\(rawValue)" }
}

/// Identifies one resource request (one begin/end cycle) on an ``ODRDevice``.
///
/// Slots are reused after a request finishes; the generation tells a stale ID from a live one.
public struct RequestID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    let slot: Int32
    let generation: UInt32
    public var description: String { "request#\(slot).\(generation)" }

    /// A small number, 0 ≤ index < the most requests live at once, that no other live
    /// request has (it is reused once this one finishes): a driver can keep per-request data
    /// in an array at this index, storing the ID beside it to tell a reused slot.
    public var index: Int { Int(slot) }

    init(slot: Int, generation: UInt32) {
        self.slot = Int32(truncatingIfNeeded: slot)
        self.generation = generation
    }
}

/// An identity that is the position of its record in a ``RecordTable``: the device's tables
/// are indexed by `PackID` and `AppID`, so an index never changes type on its way through.
@usableFromInline
protocol RecordKey {
    /// The position of the record, from 0.
    var index: Int { get }
}

extension AppID: RecordKey {
    /// The app's position in registration order, from 0: a driver's or policy's per-app
    /// tables are indexed by it.
    public var index: Int { Int(rawValue) }
    init(_ index: Int) { rawValue = Int32(truncatingIfNeeded: index) }
}

extension PackID: RecordKey {
    /// The pack's position, 0 ..< the device's pack count: a policy's per-pack tables are
    /// indexed by it.
    public var index: Int { Int(rawValue) }
    init(_ index: Int) { rawValue = Int32(truncatingIfNeeded: index) }
    /// No pack: a record's "none" (a multi-pack request's single pack, no prefetch running).
    static let none = PackID(rawValue: -1)
    var isNone: Bool { rawValue < 0 }
    /// The pack `offset` places after this one (an app's packs are consecutive).
    func advanced(by offset: Int32) -> PackID { PackID(rawValue: rawValue + offset) }
}

extension TagID: RecordKey {
    @usableFromInline var index: Int { Int(rawValue) }
}
