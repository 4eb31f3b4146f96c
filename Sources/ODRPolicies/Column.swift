import CPrefetch
import ODRCore

/// One value per pack (or per app), indexed by its device-wide number: a policy's per-pack
/// facts (size, a visited bit, a count, a list link) that it reads and writes on every
/// notification.
///
/// A column covers every pack of the device once it has seen one candidate
/// (``cover(_:)`` grows it to ``PurgeCandidate/packCount``), so later reads need no growth.
/// Entries it has not been told about read as the column's `initial` value.
///
/// Performance: a class over one manually managed block, so that a policy holds it in a
/// `let` and `column[p].field = x` is a store in place, with no copy-on-write uniqueness
/// check and no run-time exclusivity check on a policy's stored property. With
/// ``PolicyState``, this is where policies keep their state; they carry no performance
/// annotations of their own.
final class Column<Value: BitwiseCopyable> {
    private var values: UnsafeMutablePointer<Value>
    private(set) var count = 0
    private let initial: Value

    init(initial: Value) {
        self.initial = initial
        values = .allocate(capacity: 1)
    }

    deinit { values.deallocate() }

    /// Grows the column to cover `candidate` and every other pack of its device.
    @inline(__always)
    func cover(_ candidate: PurgeCandidate) {
        let p = candidate.pack.index
        if p >= count { grow(to: Swift.max(p + 1, candidate.packCount)) }
    }

    /// Grows the column to at least `minimum` packs, doubling so that growth stays linear.
    func grow(to minimum: Int) {
        guard minimum > count else { return }
        let grown = Swift.max(minimum, count * 2)
        values = regrow(values, from: count, to: grown, filling: initial)
        count = grown
    }

    /// Starts loading pack `p`'s entry into the cache (a hint for a pack requested soon;
    /// changes nothing).
    @inline(__always)
    func prefetch(_ pack: PackID) {
        if pack.rawValue >= 0 && pack.index < count { odr_prefetch(values + pack.index) }
    }

    /// Whether the column has grown to pack `p`.
    func covers(_ pack: PackID) -> Bool { pack.rawValue >= 0 && pack.index < count }

    /// The value of entry `index`.
    subscript(index: Int) -> Value {
        @inline(__always) unsafeAddress {
            precondition(index >= 0 && index < count, "entry \(index) outside the column")
            return UnsafePointer(values + index)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(index >= 0 && index < count, "entry \(index) outside the column")
            return values + index
        }
    }

    subscript(pack: PackID) -> Value {
        @inline(__always) unsafeAddress { UnsafePointer(values + Int(checked: pack.rawValue, below: count)) }
        @inline(__always) unsafeMutableAddress { values + Int(checked: pack.rawValue, below: count) }
    }

    /// The value of the entry with raw value `p` (the form ``PackLinks`` and ``PackHeap``
    /// hand out).
    subscript(p: Int32) -> Value {
        @inline(__always) unsafeAddress { UnsafePointer(values + Int(checked: p, below: count)) }
        @inline(__always) unsafeMutableAddress { values + Int(checked: p, below: count) }
    }
}

extension Int {
    /// `value` as an index, stopping the program if it is not in `0..<count`.
    @inline(__always)
    fileprivate init(checked value: Int32, below count: Int) {
        precondition(value >= 0 && Int(value) < count, "entry \(value) outside the column")
        self = Int(value)
    }
}
