import Dispatch
import Foundation
import ODRCore
import ODRPolicies
import Quantities

/// Replays a cache trace (any ``TraceFormat``) through the real ``ODRDevice``, one run
/// per purge policy, and counts hits and misses the way libCacheSim does.
///
/// Every object is a single-resource tag (one asset pack) of its app (the `app` column, or
/// one app named after the file). Each line is one request for that tag: a hit when the pack
/// is on the device; otherwise a miss, the device makes room (purging by the policy) and the
/// whole pack arrives at once. Access ends at the same instant, so every pack is purgeable
/// again before the next line: one ``ODRDevice/access(_:tag:at:)`` per line (the same as
/// begin, deliver, end, as a test holds it to). The disk holds nothing else; the platform profile is
/// `.unlimited`; the device records no events (only its ledger). An object larger than the
/// whole disk is a miss, is not stored and purges nothing: the device refuses a demand it
/// cannot meet without purging anything.
///
/// The trace is read once to learn its objects, keeping the decoded stream when it fits
/// ``streamBudget``; otherwise each policy's run reads the file again.
///
/// Times go to the device as they are, except that a time earlier than the previous line's
/// (or below 0) is taken as that previous time, since the device's clock cannot go back;
/// none of the policies looks at times, only at order.
///
/// ```swift
/// let results = try TraceReplayer(path: "cloudphysics.csv")
///     .replay(capacity: 202_976_972, policies: [PolicyRegistry.descriptor(named: "lru")!])
/// print(ReplayReport.table(results))
/// ```
public struct TraceReplayer: Sendable {
    public let path: String
    /// Most bytes the first pass may keep of the decoded request stream (4 bytes a request for
    /// the object, and 12 bytes per distinct consecutive time if a policy reads times, which
    /// none of the shipped ones does: ``PolicyDescriptor/readsTime``), so that no policy's run
    /// parses the file again. A longer trace is streamed from the file once more for each
    /// policy instead, keeping memory O(distinct objects). The default, 256 MiB, covers about
    /// 67 million requests.
    public var streamBudget: Int
    /// Requests at the start of the trace left out of every count (a warm-up): the cache
    /// fills as usual, then hits, misses, bytes and purges start from zero.
    public var warmupRequests = 0

    /// How the file is laid out; by default, as its name implies (``TraceFormat/detect(path:)``).
    public let format: TraceFormat

    public init(path: String, format: TraceFormat? = nil, streamBudget: Int = 256 << 20) {
        self.path = path
        self.format = format ?? .detect(path: path)
        self.streamBudget = streamBudget
    }

    /// A disk capacity for a replay: bytes, or a percentage of the trace's unique bytes (the
    /// sum of each object's first-seen size), rounded down to whole bytes.
    public enum Capacity: Sendable, Hashable {
        case bytes(Int64)
        case percent(Double)

        /// The capacity in bytes for a trace of `uniqueBytes`.
        public func bytes(uniqueBytes: Int64) -> Int64 {
            switch self {
            case .bytes(let b): return b
            case .percent(let p): return Int64((Double(uniqueBytes) * p / 100).rounded(.down))
            }
        }
    }

    /// Replays the trace once per policy and capacity, reading it once: results per policy
    /// (in order), each at every capacity (in order), with the same counts as separate replays.
    /// Up to `jobs` runs go at once, on as many cores; results do not depend on it.
    ///
    /// A trace whose format carries each request's next access (oracleGeneral) is read by
    /// following that field, and an offline policy's future comes from it, when it agrees
    /// with the stream; otherwise objects are found by hashing their IDs, the future comes
    /// from the stream, and (if an offline policy is run) `warning` hears why.
    public func replay(
        capacities: [Capacity], policies: [PolicyDescriptor], context: PolicyContext = PolicyContext(),
        jobs: Int = 1, warning: ((String) -> Void)? = nil, progress: ((Double) -> Void)? = nil
    ) throws(TraceError) -> [ReplayResult] {
        if let result = try replayBehindScan(
            capacities: capacities, policies: policies, context: context, jobs: jobs, progress: progress)
        {
            return [result]
        }
        let needsFuture = policies.contains { $0.needsFuture }
        // Times are kept only for a policy that reads them: none of the shipped ones does, and
        // a time per request can take three quarters of the stream's memory.
        var objects = try TraceObjects.scan(
            path: path, format: format, recordRequests: needsFuture, useNextAccess: needsFuture,
            streamBudget: streamBudget, keepTimes: policies.contains { $0.readsTime })
        guard warmupRequests == 0 || Int64(warmupRequests) < objects.requestCount else {
            throw TraceError(
                file: path, line: nil,
                message:
                    """
                    the warm-up of \(warmupRequests) requests covers the whole trace (\(objects.requestCount) \
                    requests); nothing would be counted
                    """
            )
        }
        let catalogs = try objects.catalogs()
        let unique = objects.objects.reduce(Int64(0)) { $0 + $1.size }
        let bytes = capacities.map { $0.bytes(uniqueBytes: unique) }
        precondition(bytes.allSatisfy { $0 >= 0 }, "capacity must not be negative")

        var context = context
        // Only an offline policy would have believed the field; the others' counts never depend on it.
        if needsFuture, let problem = objects.nextAccessProblem {
            warning?("\(problem.description); belady's future is computed from the requests instead")
        }
        if needsFuture && objects.hasNextAccess {
            context.future = objects.futureFromNextAccess()
            objects.nextAccess = []
            objects.firstRequest = []
            if !objects.keepsStream { objects.requests = [] }
        } else if needsFuture {
            var builder = FutureRequests.Builder()
            builder.reserveCapacity(objects.requests.count)
            for pack in objects.requests { builder.append(PackID(rawValue: pack)) }
            if !objects.keepsStream { objects.requests = [] }
            context.future = FutureRequests(builder)
        }

        if objects.keepsStream {
            // The runs read the kept stream and the device's records: the object table and
            // records are no longer needed, and the stream is trimmed to its length.
            objects.dropLookup()
        }
        let runs = policies.flatMap { p in bytes.map { (p, $0) } }
        let shared = SharedReplay(
            objects: objects, catalogs: catalogs, context: context, count: runs.count,
            requests: max(1, objects.requestCount), progress: progress)
        let replayer = self
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, runs.count))) { worker in
            var k = worker
            while k < runs.count, !shared.failed {
                let (descriptor, capacity) = runs[k]
                var run = ReplayRun(
                    descriptor, capacity: capacity, context: shared.context, appNames: shared.objects.appNames,
                    catalogs: shared.catalogs)
                let index = k
                let report = shared.progress == nil ? nil : { (i: Int) in shared.update(index, i) }
                do {
                    if shared.objects.keepsStream {
                        try replayer.replayKept(shared.objects, into: &run, progress: report)
                    } else {
                        try replayer.replayFile(shared.objects, into: &run, progress: report)
                    }
                    shared.set(index, run.finished())
                } catch {
                    shared.fail(error)
                }
                k += max(1, min(jobs, runs.count))
            }
        }
        if let error = shared.error { throw error }
        return shared.results.map { $0! }
    }

    /// The trace as the offline bounds take it: each request's object, numbered from 0 in order
    /// of first appearance (device-wide packs when the trace has several apps), each object's
    /// first-seen size, and the unique bytes (their sum).
    public func requestSequence() throws(TraceError) -> (objects: [Int32], sizes: [Int64], uniqueBytes: Int64) {
        let objects = try TraceObjects.scan(path: path, format: format, recordRequests: true, streamBudget: 0)
        var sizes = [Int64](repeating: 0, count: objects.objects.count)
        for object in objects.objects { sizes[Int(objects.pack(of: object))] = object.size }
        return (objects.requests, sizes, sizes.reduce(0, +))
    }

    /// Replays the trace once per policy, in order. The first pass (distinct objects, the
    /// decoded stream within ``streamBudget``, and the future if a policy needs it) is shared
    /// by all policies. `progress` is called with the share of the policies' runs done (0…1)
    /// every 65,536 requests.
    public func replay(
        capacity: Int64, policies: [PolicyDescriptor], context: PolicyContext = PolicyContext(),
        progress: ((Double) -> Void)? = nil
    ) throws(TraceError) -> [ReplayResult] {
        precondition(capacity >= 0, "capacity must not be negative")
        return try replay(capacities: [.bytes(capacity)], policies: policies, context: context, progress: progress)
    }

    /// How many requests ahead a replay of the kept stream loads the pack records: far enough
    /// for a trip to memory to finish while the requests between are worked on.
    static let prefetchDistance = 8

    /// Fewer packs than this and their records (the device's 32-byte record, the policy's
    /// entries: under 100 bytes a pack) stay in a core's 1 MiB
    /// second-level cache on their own, so the replay loads nothing ahead: the hints would be
    /// work with nothing to hide.
    static let prefetchFromPacks = 8_192

    /// Feeds the decoded stream the first pass kept.
    func replayKept(_ objects: TraceObjects, into run: inout ReplayRun, progress: ((Int) -> Void)?) throws(TraceError) {
        var k = 0
        // Without times (no policy reads them), each request's time is its ordinal.
        let timed = objects.keepsTimes
        var nextStart = timed && objects.timeStarts.count > 1 ? Int(objects.timeStarts[1]) : Int.max
        let requests = objects.requests
        let measureFrom = warmupRequests > 0 ? warmupRequests : Int.max
        let ahead =
            objects.objectsPerApp.reduce(0) { $0 + Int($1) } >= Self.prefetchFromPacks
            ? Self.prefetchDistance : requests.count
        for (i, pack) in requests.enumerated() {
            if i == measureFrom { run.restartCounting() }
            if i >= nextStart {
                k += 1
                nextStart = k + 1 < objects.timeStarts.count ? Int(objects.timeStarts[k + 1]) : Int.max
            }
            // The record of the request a few ahead starts loading now (see ``ReplayRun/prefetch(_:)``).
            if i + ahead < requests.count { run.prefetch(requests[i + ahead]) }
            let facts = run.facts(of: pack)
            if i & 0xFFFF == 0xFFFF, let progress { progress(i + 1) }
            if let error = run.request(pack: pack, facts: facts, at: timed ? objects.timeValues[k] : Double(i + 1)) {
                throw Self.refusal(of: i, error, file: objects.fileName)
            }
        }
    }

    /// The error of a kept stream's request `index` (from 0) that the device refused: one
    /// wording for the replay after the scan and the one behind it, whose errors must agree.
    static func refusal(of index: Int, _ error: RequestError, file: String) -> TraceError {
        TraceError(file: file, line: nil, message: "request \(index + 1): the device refused it: \(error)")
    }

    /// Reads the file again and feeds it line by line.
    func replayFile(_ objects: TraceObjects, into run: inout ReplayRun, progress: ((Int) -> Void)?) throws(TraceError) {
        let reader = try TraceInput(path: path, format: format)
        var count = 0
        let measureFrom = warmupRequests > 0 ? warmupRequests + 1 : Int.max
        while let record = try reader.next() {
            count += 1
            if count == measureFrom { run.restartCounting() }
            if count & 0xFFFF == 0, let progress { progress(count) }
            guard let index = objects.table.find(record.object) else {
                throw TraceError(
                    file: reader.fileName, line: record.line,
                    message: "object \(record.object) was not in the file a moment ago; did the trace change?")
            }
            if let error = run.request(pack: objects.pack(of: objects.objects[Int(index)]), at: record.time) {
                throw TraceError(
                    file: reader.fileName, line: record.line, message: "the device refused the request: \(error)")
            }
        }
    }
}

/// What the runs of one replay share (read only) and what they report (under a lock).
private final class SharedReplay: @unchecked Sendable {
    let objects: TraceObjects
    let catalogs: [Catalog]
    let context: PolicyContext
    let progress: ((Double) -> Void)?
    private let lock = NSLock()
    private var done: [Int]
    private var total = 0
    private let requests: Int64
    private(set) var results: [ReplayResult?]
    private(set) var error: TraceError?

    init(
        objects: TraceObjects, catalogs: [Catalog], context: PolicyContext, count: Int, requests: Int64,
        progress: ((Double) -> Void)?
    ) {
        self.objects = objects
        self.catalogs = catalogs
        self.context = context
        self.progress = progress
        self.requests = requests
        done = Array(repeating: 0, count: count)
        results = Array(repeating: nil, count: count)
    }

    var failed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return error != nil
    }

    func update(_ run: Int, _ requestsDone: Int) {
        lock.lock()
        total += requestsDone - done[run]
        done[run] = requestsDone
        let fraction = Double(total) / (Double(requests) * Double(done.count))
        lock.unlock()
        progress?(fraction)
    }

    func set(_ run: Int, _ result: ReplayResult) {
        lock.lock()
        results[run] = result
        lock.unlock()
    }

    func fail(_ failure: any Error) {
        lock.lock()
        if error == nil {
            error = failure as? TraceError ?? TraceError(file: objects.fileName, line: nil, message: "\(failure)")
        }
        lock.unlock()
    }
}

extension TraceReplayer.Capacity {
    /// Why a `--capacity` list is refused.
    public struct ListError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `--capacity` of replay, mrc and bound: sizes and percentages of the trace's unique
    /// bytes, comma-separated, each once.
    public static func list(_ text: String) throws(ListError) -> [Self] {
        var capacities: [Self] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map({
            $0.trimmingCharacters(in: .whitespaces)
        }) {
            if item.hasSuffix("%") {
                guard let percent = Double(item.dropLast()), percent.isFinite, percent > 0 else {
                    throw ListError(description: "'\(item)' is not a positive percentage such as 10%")
                }
                capacities.append(.percent(percent))
                continue
            }
            do { capacities.append(.bytes(try SizeSyntax.parse(item))) } catch {
                throw ListError(description: "\(error)")
            }
        }
        guard Set(capacities).count == capacities.count else {
            throw ListError(description: "'\(text)' lists a capacity twice")
        }
        return capacities
    }
}
