import Foundation
import TextInput

/// Which shards of a study still have to run: the shard numbers K of N whose
/// `shard-K-of-N.csv` in a folder is missing or does not check out for this study (unreadable,
/// edited or cut short, of another study or another split, or holding other runs than the
/// study's shard K of N). `sweep --missing N` prints them; `scripts/cluster/submit --resume`
/// resubmits exactly those.
public enum ShardCensus {
    /// The shards to run again, in order, with why each was counted (for the terminal).
    public static func missing(
        count: Int, in directory: String, studyDigest: String,
        expectedRuns: (Int) -> [Int]
    ) throws(NotAFolder) -> [(shard: Int, why: String)] {
        if PathBytes.exists(directory), !PathBytes.isFolder(directory) {
            throw NotAFolder(
                description: "--missing: \(InputText.oneLine(directory)) is a file, not the shards' folder (--out DIR)")
        }
        var missing: [(shard: Int, why: String)] = []
        for k in 1...max(count, 1) {
            let path = (directory as NSString).appendingPathComponent(ShardFile.fileName(shard: k, of: count))
            guard PathBytes.exists(path) else {
                missing.append((k, "no file"))
                continue
            }
            let file: ShardFile
            do { file = try ShardFile.parse(try InputText.read(path), name: path) } catch {
                missing.append((k, "does not check out"))
                continue
            }
            if file.studyDigest != studyDigest {
                missing.append((k, "of another version of the study"))
            } else if file.shard != k || file.count != count || file.runs.map(\.index) != expectedRuns(k) {
                missing.append((k, "holds other runs"))
            }
        }
        return missing
    }
}

extension ShardCensus {
    /// The shards' folder given is a file: no census can be taken there.
    public struct NotAFolder: Error, CustomStringConvertible {
        public let description: String
    }
}
