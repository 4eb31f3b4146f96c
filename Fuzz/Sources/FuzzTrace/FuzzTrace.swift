import ODRPolicies
import TraceReplay

#if canImport(Glibc)
    import Glibc
#endif

/// One input: a trace file's bytes (the reader takes a path, so they go to a file in
/// /dev/shm first). Any error is fine; a crash, a hang or a leak is not. What reads also
/// replays under three policies at a small capacity.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "/dev/shm/odr-sim-fuzz-trace-\(getpid()).csv"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = write(fd, data, count)
    close(fd)
    defer { unlink(path) }
    // A 64-byte chunk makes lines cross the buffer's end, where parsing is most delicate.
    if let reader = try? TraceReader(path: path, chunkSize: 64) {
        while let record = try? reader.next() { _ = record }
    }
    let policies = ["lru", "gdsf", "belady"].compactMap(PolicyRegistry.descriptor(named:))
    _ = try? TraceReplayer(path: path).replay(capacity: 4096, policies: policies)
    return 0
}
