/// The packs of a request: one pack inline (the common case: a tag that is one pack), or an
/// array. Performance: a single-pack request then touches no array at all.
struct PackList: RandomAccessCollection {
    /// The only pack when there is one, else ``PackID/none``.
    let single: PackID
    private let many: [PackID]?

    init() {
        single = .none
        many = nil
    }

    init(single pack: PackID) {
        single = pack
        many = nil
    }

    init(_ packs: [PackID]) {
        if packs.count == 1 {
            single = packs[0]
            many = nil
        } else {
            single = .none
            many = packs
        }
    }

    /// The packs when there are several (or none), else nil.
    var array: [PackID]? { many }

    var startIndex: Int { 0 }
    var endIndex: Int { single.isNone ? many?.count ?? 0 : 1 }
    subscript(position: Int) -> PackID { single.isNone ? many![position] : single }
}

/// An app's packs: consecutive identities, iterated without an array.
struct PackRange: RandomAccessCollection {
    let first: Int32
    let count: Int32
    var startIndex: Int { 0 }
    var endIndex: Int { Int(count) }
    subscript(position: Int) -> PackID { PackID(rawValue: first + Int32(truncatingIfNeeded: position)) }
}
