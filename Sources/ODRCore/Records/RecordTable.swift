/// A growable array of plain records in memory that the owning ``ODRDevice`` manages.
///
/// Performance: the device updates a few fields of a pack or request record on every
/// request. Through a Swift `Array` held by a class, each such write first checks that the
/// array's buffer is uniquely referenced (copy-on-write), and reads of records holding
/// references retain and release them; together that was a fifth of a trace replay. Here a
/// write is a store: records are `BitwiseCopyable`, the storage is a plain pointer, and
/// the subscript's mutable address is `nonmutating`, so `table[i].field = x` touches
/// nothing but the field. Indices are still checked.
///
/// Copies of a table share its storage (it is a pointer); only the owner mutates it, and
/// calls ``deallocate()`` once, in its `deinit`.
@usableFromInline
struct RecordTable<Element: BitwiseCopyable>: RandomAccessCollection {
    @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline private(set) var count = 0
    private var capacity = 0

    /// Records start at multiples of `alignment` bytes (64: cache lines).
    private let alignment: Int

    init(alignment: Int = MemoryLayout<Element>.alignment) {
        self.alignment = Swift.max(alignment, MemoryLayout<Element>.alignment)
        base = Self.allocate(1, alignment: self.alignment)
    }

    private static func allocate(_ count: Int, alignment: Int) -> UnsafeMutablePointer<Element> {
        UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Element>.stride, alignment: alignment)
            .bindMemory(to: Element.self, capacity: count)
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    @inlinable
    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(index >= 0 && index < count, "record index out of range")
            return UnsafePointer(base + index)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            precondition(index >= 0 && index < count, "record index out of range")
            return base + index
        }
    }

    /// The record of `key` (a ``PackID`` in the pack tables, an ``AppID`` in the app table).
    /// Inlinable: a policy's question to a ``PurgeView`` reads records through it.
    @inlinable
    subscript<Key: RecordKey>(key: Key) -> Element {
        @inline(__always) unsafeAddress {
            let index = key.index
            precondition(index >= 0 && index < count, "record index out of range")
            return UnsafePointer(base + index)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            let index = key.index
            precondition(index >= 0 && index < count, "record index out of range")
            return base + index
        }
    }

    /// The record at `index`, for a function that reads and writes several of its fields:
    /// one bounds check, then every field through one address (``RecordReference``). Valid
    /// until the table grows.
    @inline(__always)
    func record(_ index: Int) -> RecordReference<Element> {
        precondition(index >= 0 && index < count, "record index out of range")
        return RecordReference(base + index)
    }

    mutating func append(_ element: Element) {
        if count == capacity { reserveCapacity(Swift.max(16, capacity * 2)) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Empties the table, keeping its storage.
    mutating func removeAll() { count = 0 }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    /// Makes room for at least `minimum` records. Growth is at least geometric, so that
    /// reserving a little more at a time (an app's packs after another's) stays linear.
    mutating func reserveCapacity(_ minimum: Int) {
        guard minimum > capacity else { return }
        let target = Swift.max(minimum, capacity * 2)
        let grown = Self.allocate(target, alignment: alignment)
        // Bitwise-copyable records move with a plain copy; the old ones need no deinit.
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = target
    }

    /// Frees the storage; the table must not be used afterwards.
    func deallocate() { base.deallocate() }
}

/// One record of a ``RecordTable``, its fields read and written by name (`record.phase`,
/// `record.received = 0`) through the one address the table checked: the device's domain
/// code handles no raw pointer (a source test holds it), and the optimizer sees plain loads
/// and stores. Valid until its table grows.
@dynamicMemberLookup
struct RecordReference<Element: BitwiseCopyable> {
    private let address: UnsafeMutablePointer<Element>

    @inline(__always)
    init(_ address: UnsafeMutablePointer<Element>) { self.address = address }

    subscript<Field>(dynamicMember field: KeyPath<Element, Field>) -> Field {
        @inline(__always) get { address.pointee[keyPath: field] }
    }

    subscript<Field>(dynamicMember field: WritableKeyPath<Element, Field>) -> Field {
        @inline(__always) get { address.pointee[keyPath: field] }
        @inline(__always) nonmutating set { address.pointee[keyPath: field] = newValue }
    }
}
