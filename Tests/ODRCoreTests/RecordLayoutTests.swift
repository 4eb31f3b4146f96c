import ODRPolicies
import Testing

@testable import ODRCore

/// The pack record's layout is a performance contract (see ``PackRecord``): a request for a
/// pack on the device finds everything it touches in 32 bytes, and a trace replay's memory is
/// mostly these records.
@Suite("Pack record layout")
struct RecordLayoutTests {
    @Test("A pack record is 32 bytes, two to a cache line; its details 24 bytes beside it; its history 32")
    func packRecordLayout() {
        #expect(MemoryLayout<PackRecord>.stride == 32)
        #expect(MemoryLayout<PackDetail>.stride == 24)
        #expect(MemoryLayout<PackHistory>.stride == 32)
        // In a table aligned to 64 bytes, no record straddles two lines.
        #expect(64 % MemoryLayout<PackRecord>.stride == 0)
    }

    @Test("The phase, the four flags and the use tick share one word without touching one another")
    func packedFields() {
        var record = PackRecord(app: AppID(rawValue: 3), size: 5)
        var random = SystemRandomNumberGenerator()
        var expected = (tick: UInt64(0), phase: PackPhase.notDownloaded, flags: [false, false, false, false])
        let phases: [PackPhase] = [.notDownloaded, .partial, .resident, .purged]
        for _ in 0..<10_000 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                expected.tick = UInt64.random(in: 0..<PackRecord.tickLimit, using: &random)
                record.lastUseTick = expected.tick
            case 1:
                expected.phase = phases.randomElement(using: &random)!
                record.phase = expected.phase
            default:
                let k = Int.random(in: 0..<4, using: &random)
                let on = Bool.random(using: &random)
                expected.flags[k] = on
                switch k {
                case 0: record.purgeable = on
                case 1: record.leftover = on
                case 2: record.purgedBefore = on
                default: record.downloading = on
                }
            }
            #expect(record.lastUseTick == expected.tick && record.phase == expected.phase)
            #expect(
                [record.purgeable, record.leftover, record.purgedBefore, record.downloading]
                    == expected.flags)
        }
        #expect(record.app == AppID(rawValue: 3) && record.size == 5)
        record.lastUseTick = PackRecord.tickLimit - 1
        #expect(record.lastUseTick == PackRecord.tickLimit - 1 && record.phase == expected.phase)
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

    @Test(
        "Bytes received noted for a pack at rest that is not partial break an invariant: a miss reads them for no other"
    )
    func receivedOnlyForPartialPacks() throws {
        let catalog = try makeCatalog([(["a"], 10 * MB), (["b"], 10 * MB)])
        let device = ODRDevice(capacity: 100 * MB, policy: ApplePolicy())
        let app = device.installedApp("game", catalog)
        device.useAndRelease(app, ["b"], at: 1)
        #expect(device.checkInvariants().isEmpty)
        // A pack never downloaded, then a resident one, each with bytes noted as received.
        for (name, phase) in [("a", "notDownloaded"), ("b", "resident")] {
            let p = device.pack(name, of: app)
            device.state.packDetails[p].received = 5
            #expect(device.checkInvariants().contains("pack \(p.rawValue) \(phase) with 5 bytes received still noted"))
            device.state.packDetails[p].received = 0
            #expect(device.checkInvariants().isEmpty)
        }
    }
}
