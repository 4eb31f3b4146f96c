/// A growable table of plain records most of which keep the value they were made with: its
/// memory is spent only on pages holding a record that differs from that value.
///
/// Records live in pages of ``pageSize``. A page is allocated the first time one of its
/// records is written (or appended with another value); until then every record of it reads
/// as the table's `fill`. Reads never allocate: the read accessor returns the page's record
/// or the one shared `fill`. So a record must be written through the table (its subscript, or
/// ``record(_:)``), never through an address a read returned.
///
/// Performance: a trace replay's packs keep their ``PackDetail`` as made (a replay's miss
/// stores the whole pack at once, with no download slot or partial bytes to note), so ten
/// million packs cost a page table of 80 KB where a ``RecordTable`` of them took 240 MB.
/// A scenario's packs, with their downloads, fill their few pages and pay one more load per
/// access (the page's address).
///
/// Copies of a table share its storage; only the owner mutates it, and calls
/// ``deallocate()`` once, in its `deinit` (as for ``RecordTable``).
struct PagedRecordTable<Element: BitwiseCopyable & Equatable>: RandomAccessCollection {
    /// Records per page, a power of two: 512 records of 24 bytes are three 4 KiB memory pages.
    static var pageShift: Int { 9 }
    static var pageSize: Int { 1 << pageShift }

    private(set) var count = 0
    /// Each page's records, or nil while every record of it is `fill`.
    private var pages: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>
    private var pageCapacity = 0
    /// The value of every record of a page not yet allocated (one shared copy, read only).
    private let fill: UnsafeMutablePointer<Element>

    init(fill: Element) {
        self.fill = .allocate(capacity: 1)
        self.fill.initialize(to: fill)
        pages = .allocate(capacity: 1)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Pages allocated so far (a test reads it).
    var allocatedPages: Int { (0..<pageCapacity).reduce(0) { $0 + (pages[$1] == nil ? 0 : 1) } }

    subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(index >= 0 && index < count, "record index out of range")
            return UnsafePointer(address(index))
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            precondition(index >= 0 && index < count, "record index out of range")
            return writableAddress(index)
        }
    }

    /// The record of `key` (a ``PackID``).
    subscript<Key: RecordKey>(key: Key) -> Element {
        @inline(__always) unsafeAddress {
            let index = key.index
            precondition(index >= 0 && index < count, "record index out of range")
            return UnsafePointer(address(index))
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            let index = key.index
            precondition(index >= 0 && index < count, "record index out of range")
            return writableAddress(index)
        }
    }

    /// The record at `index` to read and write several fields of (``RecordReference``): its
    /// page is allocated if it was not. Valid until the table grows.
    @inline(__always)
    func record(_ index: Int) -> RecordReference<Element> {
        precondition(index >= 0 && index < count, "record index out of range")
        return RecordReference(writableAddress(index))
    }

    @inline(__always)
    private func address(_ index: Int) -> UnsafeMutablePointer<Element> {
        guard let page = pages[index >> Self.pageShift] else { return fill }
        return page + (index & (Self.pageSize - 1))
    }

    @inline(__always)
    private func writableAddress(_ index: Int) -> UnsafeMutablePointer<Element> {
        if let page = pages[index >> Self.pageShift] { return page + (index & (Self.pageSize - 1)) }
        return allocatePage(index >> Self.pageShift) + (index & (Self.pageSize - 1))
    }

    /// Allocates page `k`, every record of it `fill` (those past `count` too: appends write
    /// over them).
    @inline(never)
    private func allocatePage(_ k: Int) -> UnsafeMutablePointer<Element> {
        let page = UnsafeMutablePointer<Element>.allocate(capacity: Self.pageSize)
        page.initialize(repeating: fill.pointee, count: Self.pageSize)
        pages[k] = page
        return page
    }

    mutating func append(_ element: Element) {
        reserveCapacity(count + 1)
        count += 1
        // A record made as `fill` on a page not yet allocated is already there.
        if element != fill.pointee || pages[(count - 1) >> Self.pageShift] != nil {
            writableAddress(count - 1).pointee = element
        }
    }

    /// Makes room for at least `minimum` records (the page table; pages come as written).
    mutating func reserveCapacity(_ minimum: Int) {
        let needed = (minimum + Self.pageSize - 1) >> Self.pageShift
        guard needed > pageCapacity else { return }
        let target = Swift.max(needed, pageCapacity * 2)
        let grown = UnsafeMutablePointer<UnsafeMutablePointer<Element>?>.allocate(capacity: target)
        grown.initialize(from: pages, count: pageCapacity)
        (grown + pageCapacity).initialize(repeating: nil, count: target - pageCapacity)
        pages.deallocate()
        pages = grown
        pageCapacity = target
    }

    /// Frees the storage; the table must not be used afterwards.
    func deallocate() {
        for k in 0..<pageCapacity { pages[k]?.deallocate() }
        pages.deallocate()
        fill.deallocate()
    }
}
