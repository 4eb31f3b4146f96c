import ODRCore

/// One value per pack, indexed by pack: a policy's per-pack facts (size, a visited bit, a
/// count) that it reads and writes on every notification.
///
/// A column covers every pack of the device once it has seen one candidate
/// (``cover(_:)`` grows it to ``PurgeCandidate/packCount``), so later reads need no growth.
/// Packs it has not been told about read as the column's `initial` value.
///
/// Performance: a class over one manually managed block, so that a policy holds it in a
/// `let` and a write is a store, with no copy-on-write uniqueness check and no run-time
/// exclusivity check on a policy's stored property. This is the one place policies' per-pack
/// state lives; policies keep no performance annotations of their own.
final class PackColumn<Value: BitwiseCopyable> {
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
        let p = Int(candidate.pack.rawValue)
        if p >= count { grow(to: Swift.max(p + 1, candidate.packCount)) }
    }

    /// Grows the column to at least `minimum` packs, doubling so that growth stays linear.
    func grow(to minimum: Int) {
        guard minimum > count else { return }
        let grown = Swift.max(minimum, count * 2)
        let block = UnsafeMutablePointer<Value>.allocate(capacity: grown)
        block.moveInitialize(from: values, count: count)
        (block + count).initialize(repeating: initial, count: grown - count)
        values.deallocate()
        values = block
        count = grown
    }

    /// Whether the column has grown to pack `p`.
    func covers(_ p: Int32) -> Bool { p >= 0 && Int(p) < count }

    subscript(pack: PackID) -> Value {
        get { self[pack.rawValue] }
        set { self[pack.rawValue] = newValue }
    }

    /// The value of the pack with raw value `p` (the form ``PackLinks`` and ``PackHeap``
    /// hand out).
    subscript(p: Int32) -> Value {
        @inline(__always) get {
            precondition(p >= 0 && Int(p) < count, "pack \(p) outside the column")
            return values[Int(p)]
        }
        @inline(__always) set {
            precondition(p >= 0 && Int(p) < count, "pack \(p) outside the column")
            values[Int(p)] = newValue
        }
    }
}
