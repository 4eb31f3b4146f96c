import Testing

@testable import ODRCore

/// The pack record's layout is a performance contract (see ``PackRecord``): a request for a
/// pack on the device must find everything it touches in the record's first cache line.
@Suite("Pack record layout")
struct RecordLayoutTests {
    @Test("A pack record is one cache line, and the rest of a pack's state 40 bytes beside it")
    func packRecordLayout() {
        #expect(MemoryLayout<PackRecord>.stride == 64)
        #expect(MemoryLayout<PackDetail>.stride == 40)
        let hot: [PartialKeyPath<PackRecord>] = [
            \.app, \.retain, \.pins, \.download, \.size, \.bytesOnDisk, \.lastUse, \.lastUseTick, \.requestCount,
            \.purgedBefore,
            \.lastRequestOrdinal, \.phase, \.purgeable, \.leftover,
        ]
        for field in hot {
            let offset = MemoryLayout<PackRecord>.offset(of: field)
            #expect(offset != nil && offset! < 64, "\(field) at offset \(offset ?? -1)")
        }
    }

    @Test("The table puts records on cache-line boundaries, and keeps them as it grows")
    func tableAlignment() {
        var table = RecordTable<PackRecord>(alignment: 64)
        defer { table.deallocate() }
        for i in 0..<100 { table.append(PackRecord(app: AppID(rawValue: Int32(i)), size: Int64(i))) }
        #expect(Int(bitPattern: table.base) % 64 == 0)
        #expect(table.map(\.size) == (0..<100).map(Int64.init))
        table[42].retain = 7
        #expect(table[42].retain == 7 && table[41].retain == 0)
    }
}
