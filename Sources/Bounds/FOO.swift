import CFlow

/// FOO, the flow-based offline optimum of Berger, Beckmann and Harchol-Balter (SIGMETRICS
/// 2018), for object misses: lower and upper bounds on the fewest misses any policy that
/// knows the future could have, with variable object sizes (where Belady is not optimal).
///
/// The trace becomes a line of nodes, one per request that has a next request. An "inner"
/// arc joins consecutive nodes with capacity `C` and cost 0: the bytes cached at that
/// moment. Each interval (a request to its object's next request) is an "outer" arc with
/// capacity `size` and cost `1 / size`, and `size` units of flow enter at its start and leave
/// at its end: flow on the outer arc is the part of the object not kept in the cache (a
/// miss, in fractions), flow along the inner arcs the part kept. The minimum-cost flow is:
/// - **FOO-L**: its cost, the fewest fractional misses, plus the first requests: a lower
///   bound on misses (the relaxation lets an object be partly cached);
/// - **FOO-U**: the misses of the schedule that caches exactly the intervals the flow keeps
///   (all but under 1 % of the bytes, the threshold of the authors' tool): a feasible
///   schedule, hence an upper bound on the optimum.
///
/// Solved by LEMON's network simplex (candidate-list pivots), the solver the authors used,
/// over the same graph built in the same order as their tool (`OHRgoal/FOO`), so the
/// results are theirs. Objects of size 0 are hits without taking space, and stay out of the
/// graph. Time grows faster than linearly (113,872 requests: 7–8 s per capacity), so traces
/// longer than ``maximumRequests`` are refused with a message rather than left to run.
public enum FOO {
    /// The longest trace FOO takes by default.
    public static let maximumRequests = 250_000

    /// Object misses only: the flow minimizes misses, not missed bytes, so the bytes its
    /// schedule misses bound nothing.
    public struct Bound: Sendable, Hashable {
        public var capacity: Int64
        public var requests: Int64
        /// FOO-L: a lower bound on object misses (fractional).
        public var lowerMisses: Double
        /// FOO-U: an upper bound on the optimum's object misses (a feasible schedule).
        public var upperMisses: Int64
    }

    public enum Failure: Error, CustomStringConvertible {
        case tooLong(requests: Int, limit: Int)
        case solver(String)

        public var description: String {
            switch self {
            case .tooLong(let requests, let limit):
                """
                FOO: the trace has \(requests) requests, more than the \(limit) it takes (its network simplex grows \
                faster than linearly); raise the limit with --foo-max-requests
                """
            case .solver(let what): "FOO: the min-cost-flow solver \(what)"
            }
        }
    }

    /// The bounds at `capacity` bytes.
    public static func bound(_ sequence: RequestSequence, capacity: Int64, maximumRequests: Int = FOO.maximumRequests)
        throws(Failure) -> Bound
    {
        guard sequence.requestCount <= maximumRequests else {
            throw .tooLong(requests: sequence.requestCount, limit: maximumRequests)
        }
        let next = sequence.nextRequests()
        var from: [Int32] = []
        var to: [Int32] = []
        var arcCapacity: [Int64] = []
        var cost: [Double] = []
        var supply: [Int64] = [0]
        // Per request with a next one: its outer arc (-1 until made); per object: the node and
        // request of its open interval.
        var outerArc = [Int32](repeating: -1, count: sequence.requestCount)
        var open = [(node: Int32, request: Int32)](repeating: (-1, -1), count: sequence.sizes.count)
        var seen = [Bool](repeating: false, count: sequence.sizes.count)
        var zeroSizeHits: Int64 = 0
        var current: Int32 = 0
        // The graph in the reference tool's order: at each request, first the outer arc of the
        // interval that ends there, then (if the object comes again) a new node and inner arc.
        for i in 0..<sequence.requestCount {
            let o = Int(sequence.objects[i])
            let size = sequence.sizes[o]
            if size == 0 {
                if seen[o] { zeroSizeHits += 1 }
                seen[o] = true
                continue
            }
            if open[o].node >= 0 {
                from.append(open[o].node)
                to.append(current)
                arcCapacity.append(size)
                cost.append(1 / Double(size))
                supply[Int(open[o].node)] += size
                supply[Int(current)] -= size
                outerArc[Int(open[o].request)] = Int32(from.count - 1)
                open[o] = (-1, -1)
            }
            if next[i] >= 0 {
                open[o] = (current, Int32(i))
                supply.append(0)
                from.append(current)
                to.append(current + 1)
                arcCapacity.append(max(0, capacity))
                cost.append(0)
                current += 1
            }
        }
        var flow = [Int64](repeating: 0, count: from.count)
        var total = 0.0
        let status = odr_min_cost_flow(
            Int64(supply.count), Int64(from.count), from, to, arcCapacity, cost, supply, 4, &flow, &total)
        switch status {
        case ODR_FLOW_OPTIMAL: break
        case ODR_FLOW_INFEASIBLE: throw .solver("found the problem infeasible")
        case ODR_FLOW_UNBOUNDED: throw .solver("found the problem unbounded")
        default: throw .solver("ran out of memory")
        }
        // Hits: each interval's cached share; whole ones (over 99 %) for the integer schedule.
        var fractional = 0.0
        var whole: Int64 = 0
        for i in 0..<sequence.requestCount where outerArc[i] >= 0 {
            let size = sequence.sizes[Int(sequence.objects[i])]
            let kept = Double(size - flow[Int(outerArc[i])]) / Double(size)
            fractional += kept
            if kept > 0.99 { whole += 1 }
        }
        let n = Int64(sequence.requestCount)
        return Bound(
            capacity: capacity, requests: n, lowerMisses: Double(n - zeroSizeHits) - fractional,
            upperMisses: n - zeroSizeHits - whole)
    }

    /// The fewest bytes that must be fetched again for repeated requests when the space
    /// varies: `space[k]` is what the cache may hold from request `k` to request `k + 1`.
    ///
    /// The same flow with a node per request and its inner arc's capacity the space at that
    /// step, and cost 1 per byte on the outer arcs (a byte not kept is a byte fetched
    /// again); the LP optimum, rounded up, is a lower bound on any schedule's refetched bytes.
    /// Requests of size-0 objects cost nothing and are left out.
    public static func minimumRefetchedBytes(
        _ sequence: RequestSequence, space: [Int64],
        maximumRequests: Int = FOO.maximumRequests
    ) throws(Failure) -> Int64 {
        precondition(space.count == sequence.requestCount, "one space per request")
        guard sequence.requestCount <= maximumRequests else {
            throw .tooLong(requests: sequence.requestCount, limit: maximumRequests)
        }
        let n = sequence.requestCount
        guard n > 1 else { return 0 }
        var from: [Int32] = []
        var to: [Int32] = []
        var arcCapacity: [Int64] = []
        var cost: [Double] = []
        var supply = [Int64](repeating: 0, count: n)
        for k in 0..<(n - 1) {
            from.append(Int32(k))
            to.append(Int32(k + 1))
            arcCapacity.append(max(0, space[k]))
            cost.append(0)
        }
        let next = sequence.nextRequests()
        for i in 0..<n where next[i] >= 0 {
            let size = sequence.sizes[Int(sequence.objects[i])]
            guard size > 0 else { continue }
            from.append(Int32(i))
            to.append(next[i])
            arcCapacity.append(size)
            cost.append(1)
            supply[i] += size
            supply[Int(next[i])] -= size
        }
        var flow = [Int64](repeating: 0, count: from.count)
        var total = 0.0
        switch odr_min_cost_flow(Int64(n), Int64(from.count), from, to, arcCapacity, cost, supply, 4, &flow, &total) {
        case ODR_FLOW_OPTIMAL: break
        case ODR_FLOW_INFEASIBLE: throw .solver("found the problem infeasible")
        case ODR_FLOW_UNBOUNDED: throw .solver("found the problem unbounded")
        default: throw .solver("ran out of memory")
        }
        // Integral data give an integral optimum; the sum of flows is exact.
        return (n - 1..<from.count).reduce(Int64(0)) { $0 + flow[$1] }
    }
}
