/// The slots of a table whose rows are reused: a request's record, a running download's
/// waiters. The slot freed last is the next taken, so the tables stay as small as the most
/// requests or downloads ever under way at once, and warm in the cache.
///
/// Plain data (see ``RecordTable``): the free list lives in raw memory, freed by the device.
struct SlotPool {
    private var free = RecordTable<Int>()
    /// How many slots were ever made: a new slot's index.
    private(set) var count = 0

    /// A free slot, or a new one (`isNew`: its table must grow by a row).
    mutating func take() -> (slot: Int, isNew: Bool) {
        if let slot = free.popLast() { return (slot, false) }
        count += 1
        return (count - 1, true)
    }

    /// Gives `slot` back for the next ``take()``.
    mutating func give(_ slot: Int) { free.append(slot) }

    func deallocate() { free.deallocate() }
}
