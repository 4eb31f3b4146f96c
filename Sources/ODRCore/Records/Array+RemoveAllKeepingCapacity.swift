extension Array {
    /// Empties the array and keeps its storage, like `removeAll(keepingCapacity: true)`.
    ///
    /// Performance: that call goes through a generic `replaceSubrange` costing about 200
    /// instructions even for an empty array; the scratch lists of the request and purge
    /// paths (victims, flows, download lists) hold a few elements, and popping them is cheaper.
    @inlinable
    package mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
