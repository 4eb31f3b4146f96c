/// One access of a cache trace, as ``TraceReader`` parses it.
public struct TraceRecord: Hashable, Sendable {
    /// 1-based line number in the file.
    public var line: Int
    /// Seconds, as the trace gives them.
    public var time: Double
    /// The object's ID (the trace's `obj_id`).
    public var object: UInt64
    /// Bytes of the object.
    public var size: Int64
    /// Index into ``TraceReader/appNames`` (0 when the trace has no `app` column).
    public var app: Int32
}
