/// The offline bounds of one request sequence at one capacity, as `bound` and
/// `replay --bound` report them: PFOO-L's lower bounds on object and byte misses, and where
/// the sequence is short enough FOO's lower bound and the optimum's upper bound.
public struct TraceBound: Sendable {
    public var capacity: Int64
    public var pfoo: PFOOL.Bound
    public var foo: FOO.Bound?
    /// Why FOO is missing (too long a sequence), for the terminal.
    public var fooNote: String?

    /// The tightest lower bound on object misses: FOO-L where it was computed, else PFOO-L.
    public var objectLowerMisses: Double { foo?.lowerMisses ?? pfoo.counts.misses }

    /// The bounds of `sequence` at each capacity; FOO only with `foo`, and not beyond
    /// `fooMaxRequests` (then PFOO-L alone, with a note saying why).
    public static func compute(_ sequence: RequestSequence, capacities: [Int64], foo: Bool, fooMaxRequests: Int)
        -> [TraceBound]
    {
        let pfool = PFOOL(sequence)
        var note: String?
        var result: [TraceBound] = []
        for capacity in capacities {
            var flow: FOO.Bound?
            if foo && note == nil {
                do { flow = try FOO.bound(sequence, capacity: capacity, maximumRequests: fooMaxRequests) } catch {
                    note = "\(error)"
                }
            }
            result.append(
                TraceBound(capacity: capacity, pfoo: pfool.bound(capacity: capacity), foo: flow, fooNote: note))
        }
        return result
    }
}
