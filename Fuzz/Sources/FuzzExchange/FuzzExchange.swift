import Advice
import Foundation
import TextInput

/// One input: an advise exchange file, read as it comes (almost always refused by its digest)
/// and as the rows of a file whose first line carries their digest, so that mutations reach
/// the row reader. Every answer is a list of runs or a thrown error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExchange(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = try? InputText.text(Data(UnsafeBufferPointer(start: data, count: count))) else { return 0 }
    for total in [1, 16] {
        _ = try? AdviceExchange.parse(
            text, name: "fuzz.csv", shard: 2, count: 2, version: "0.1.0", key: "k", round: 0, total: total)
        let body =
            text.hasPrefix("index,") ? text : "index,point,bound,policy,replication,seed,scenario_hash,values\n" + text
        let runs = body.split(separator: "\n").count - 1
        let head = "# odr-sim advise shard 2/2 version=0.1.0 key=k round=0"
        let whole = "\(head) runs=\(runs) total=\(total) rows=\(TextDigest.of(body))\n" + body
        if let read = try? AdviceExchange.parse(
            whole, name: "fuzz.csv", shard: 2, count: 2, version: "0.1.0", key: "k", round: 0, total: total)
        {
            precondition(read.allSatisfy { (0..<total).contains($0.index) }, "a run outside the round was accepted")
            precondition(
                read.allSatisfy { $0.outcome.summary.values.allSatisfy { $0.isFinite || $0.isNaN } },
                "a non-finite number was accepted")
        }
    }
    return 0
}
