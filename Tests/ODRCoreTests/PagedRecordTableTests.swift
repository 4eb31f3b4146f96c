import ODRPolicies
import Testing

@testable import ODRCore

/// ``PagedRecordTable`` holds what a plain array would, and spends memory only on pages
/// whose records were written: a trace replay's packs write none of their details.
@Suite("Paged record table")
struct PagedRecordTableTests {
    @Test("Random appends and writes read back as an array's, and only written pages exist")
    func matchesAnArray() {
        var table = PagedRecordTable<PackDetail>(fill: .plain)
        defer { table.deallocate() }
        var model: [PackDetail] = []
        var written = Set<Int>()
        var random = SystemRandomNumberGenerator()
        let page = PagedRecordTable<PackDetail>.pageSize
        for step in 0..<20_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where model.count < 40 * page:
                // Mostly plain appends (allocating nothing), some with another value.
                let plain = Int.random(in: 0..<10, using: &random) > 0
                let detail = plain ? PackDetail.plain : PackDetail(initialInstall: true, preservation: 0.5)
                if !plain { written.insert(model.count / page) }
                table.append(detail)
                model.append(detail)
            case 1 where !model.isEmpty:
                let i = Int.random(in: 0..<model.count, using: &random)
                table[i].received = Int64(step)
                model[i].received = Int64(step)
                written.insert(i / page)
            default:
                if model.isEmpty { continue }
                let i = Int.random(in: 0..<model.count, using: &random)
                // A read allocates nothing.
                let pages = table.allocatedPages
                #expect(table[i] == model[i])
                #expect(table.allocatedPages == pages)
            }
        }
        #expect(Array(table) == model)
        #expect(table.allocatedPages == written.count)
    }

    @Test("A replay's accesses, hits, misses and purges alike, leave every pack's detail unwritten")
    func replayWritesNoDetail() {
        let sizes = (0..<3_000).map { Int64(1 + $0 % 7) }
        let device = ODRDevice(capacity: 2_000, policy: LRUPolicy())
        device.recordsEvents = false
        let catalog = try! Catalog(numberedTags: sizes, names: sizes.indices.map(UInt64.init))
        let app = device.addApp(name: "trace", catalog: catalog)
        device.install(app, at: 0)
        var random = SystemRandomNumberGenerator()
        var outcomes: [AccessOutcome: Int] = [:]
        for t in 0..<20_000 {
            let tag = TagID(rawValue: Int32.random(in: 0..<Int32(sizes.count), using: &random))
            outcomes[device.access(app, tag: tag, at: Double(t)), default: 0] += 1
        }
        #expect(outcomes[.hit, default: 0] > 0 && outcomes[.miss, default: 0] > 0)
        #expect(device.ledger.purges > 0)
        #expect(device.checkInvariants().isEmpty)
        #expect(device.state.packDetails.allocatedPages == 0)
    }
}
