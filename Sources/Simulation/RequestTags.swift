import ODRCore

/// The tags of one scripted or generated request, in the order given.
///
/// Most requests name one tag; that tag is stored inline, so such an event allocates nothing
/// and carries no reference to count. (A one-tag array per event cost a reference-count
/// update on a cold object for every generated request: the largest single cost of
/// generating a workload.)
///
/// ```swift
/// let one: RequestTags = [level2]
/// let both = RequestTags([level2, level3])
/// one.single        // level2
/// Array(both)       // [level2, level3]
/// ```
public struct RequestTags: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The tag of a one-tag list.
    private let inline: TagID
    /// The tags, unless there is exactly one.
    private let many: [TagID]?

    public init(_ tags: [TagID]) {
        if tags.count == 1 {
            inline = tags[0]
            many = nil
        } else {
            inline = TagID(rawValue: -1)
            many = tags
        }
    }

    public init(single tag: TagID) {
        inline = tag
        many = nil
    }

    public init(arrayLiteral tags: TagID...) { self.init(tags) }

    /// The tag, if there is exactly one.
    public var single: TagID? { many == nil ? inline : nil }

    public var startIndex: Int { 0 }
    public var endIndex: Int { many?.count ?? 1 }
    public subscript(position: Int) -> TagID {
        if let many { return many[position] }
        precondition(position == 0, "tag index out of range")
        return inline
    }
}
