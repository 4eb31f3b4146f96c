import Foundation
import ODRCore
import ODRPolicies

extension TraceReplayer {
    /// Most records of a trace whose one run replays behind its first pass. The run then
    /// holds the device beside the scan's object tables (about 40 bytes an object more at the
    /// peak), so a larger trace is scanned first, as always, keeping memory O(objects) in one
    /// copy: at 2^23 records, at most 330 MB more.
    static let behindScanRecords = 1 << 23

    /// Replays a single run (one policy, one capacity in bytes) while the first pass reads
    /// the trace, on a second core: the scan publishes the stream a piece at a time
    /// (``ScanFeed``) and the run adds each piece's new objects to its app's catalog before
    /// replaying it (``ODRDevice/appendPacks(sizes:names:to:)``). The result is the one
    /// ``replay(capacities:policies:context:jobs:warning:progress:)`` gives after a whole scan,
    /// as are its errors: a scan's error is thrown even if the run has found one first,
    /// since the serial replay scans the whole file before the run starts.
    ///
    /// Nil, with nothing thrown, where the run cannot replay behind the scan, and the caller
    /// replays after the scan as always: fewer than two jobs or cores, several runs, a
    /// capacity in percent (of unique bytes the scan has not summed yet), an offline policy or
    /// one that reads times, a warm-up, a trace other than plain oracleGeneral or longer than
    /// ``behindScanRecords`` records, or a scan that falls back to hashing or starts over.
    ///
    /// Performance: on a trace of few objects the scan is a fifth of a replay's time (`read`
    /// included); behind it, the run's time is all that is left of the wall.
    func replayBehindScan(
        capacities: [Capacity], policies: [PolicyDescriptor], context: PolicyContext, jobs: Int,
        progress: ((Double) -> Void)?
    ) throws(TraceError) -> ReplayResult? {
        guard jobs >= 2, ProcessInfo.processInfo.activeProcessorCount >= 2, policies.count == 1,
            capacities.count == 1, case .bytes(let capacity) = capacities[0], let descriptor = policies.first,
            !descriptor.needsFuture, !descriptor.readsTime, warmupRequests == 0,
            case .oracleGeneral(compressed: false) = format,
            // The serial replay reports any error of opening the file.
            let reader = try? OracleGeneralReader(path: path, compressed: false), let records = reader.recordCount,
            records > 0, records <= Self.behindScanRecords, records * 4 <= streamBudget
        else { return nil }
        precondition(capacity >= 0, "capacity must not be negative")
        let feed = ScanFeed(records: records)
        let (path, format, budget) = (self.path, self.format, streamBudget)
        let scanner = Thread {
            let outcome: ScanFeed.Outcome
            do throws(TraceError) {
                switch try TraceObjects.scanLinked(
                    path: path, format: format, recordRequests: false, keepNextAccess: false, streamBudget: budget,
                    keepTimes: false, exactTotals: false, feed: feed)
                {
                case .scanned(let objects): outcome = .scanned(requests: objects.requestCount)
                case .disagrees, .gaveUp: outcome = .gaveUp
                }
            } catch {
                outcome = .failed(error)
            }
            feed.end(outcome)
        }
        // The scan's frame holds its whole state; a secondary thread's default stack is small.
        scanner.stackSize = 8 << 20
        scanner.start()
        let empty = try! Catalog(numberedTags: [], names: [])
        var run = ReplayRun(
            descriptor, capacity: capacity, context: context, appNames: reader.appNames, catalogs: [empty])
        let refusal = follow(
            feed, into: &run, appName: reader.appNames[0], fileName: reader.fileName, progress: progress)
        switch feed.ending() {
        case .failed(let error): throw error
        case .gaveUp: return nil
        case .scanned(let requests):
            if let refusal { throw refusal }
            precondition(requests == Int64(records), "the scan read every record")
            return run.finished()
        }
    }

    /// Feeds `run` the scan's pieces as they come, each piece's new objects first; the error
    /// that stopped it, if any.
    private func follow(
        _ feed: ScanFeed, into run: inout ReplayRun, appName: String, fileName: String,
        progress: ((Double) -> Void)?
    ) -> TraceError? {
        let stream = feed.stream
        var done = 0
        // Each pack's size, as the pieces bring them: read here rather than asked of the
        // device, a call into another module for every request.
        var sizes: [Int64] = []
        while let piece = feed.next(after: done) {
            if !piece.sizes.isEmpty {
                do { try run.appendPacks(sizes: piece.sizes, names: piece.names) } catch {
                    return TraceError(file: fileName, line: nil, message: "app '\(appName)': \(error)")
                }
                sizes.append(contentsOf: piece.sizes)
            }
            // The record of the request a few ahead starts loading now, as in ``replayKept``.
            let ahead = sizes.count >= Self.prefetchFromPacks ? Self.prefetchDistance : stream.count
            for i in done..<piece.records {
                let pack = stream[i]
                if i + ahead < piece.records { run.prefetch(stream[i + ahead]) }
                let facts = ReplayRun.Facts(size: sizes[Int(pack)], app: 0)
                if i & 0xFFFF == 0xFFFF, let progress { progress(Double(i + 1) / Double(stream.count)) }
                if let error = run.request(pack: pack, facts: facts, at: Double(i + 1)) {
                    return Self.refusal(of: i, error, file: fileName)
                }
            }
            done = piece.records
        }
        return nil
    }
}
