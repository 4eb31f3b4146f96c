/// The requests waiting for one running download, kept so that the questions asked after
/// every change — is anyone who has not paused still waiting? what is the highest loading
/// priority among them? — cost O(log n) amortised instead of a scan of every waiter, so that
/// many requests sharing one download run in linear time.
///
/// Waiters are never removed one by one: a cancelled request stays in ``joined`` (skipped
/// when the download finishes, as it is no longer live) and only ``remaining`` drops. The
/// priority heap is lazy: an entry is pushed whenever a waiter joins, resumes or changes its
/// priority, and an entry that no longer holds (its request ended, paused or re-prioritised)
/// is dropped when it reaches the top.
struct DownloadWaiters {
    /// A waiter's priority when the entry was pushed.
    struct Entry {
        var priority: LoadingPriority
        var request: RequestID
    }

    /// Every request that joined, in join order: the order they are granted in.
    private(set) var joined: [RequestID] = []
    /// Requests that joined and have not cancelled; the download is abandoned at 0.
    private(set) var remaining: Int32 = 0
    /// A binary max-heap on priority.
    private var heap: [Entry] = []

    /// Empties the lists, keeping their storage for the slot's next download.
    mutating func removeAll() {
        joined.removeAllKeepingCapacity()
        heap.removeAllKeepingCapacity()
        remaining = 0
    }

    /// `request` waits for this download from now on, at `priority`.
    mutating func join(_ request: RequestID, priority: LoadingPriority) {
        joined.append(request)
        remaining += 1
        push(priority, request)
    }

    /// A waiter cancelled; returns whether none is left.
    mutating func leave() -> Bool {
        assert(remaining > 0, "a waiter left a download it had not joined")
        remaining -= 1
        return remaining == 0
    }

    /// A waiter resumed or changed its priority.
    mutating func push(_ priority: LoadingPriority, _ request: RequestID) {
        heap.append(Entry(priority: priority, request: request))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].priority < heap[child].priority else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// The entry of the highest priority, which may no longer hold (``dropTop()`` drops it).
    /// Read without mutating: asked after every change, it should cost a load.
    var top: Entry? { heap.first }

    /// Drops ``top``, an entry that no longer holds.
    mutating func dropTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < heap.count && heap[largest].priority < heap[left].priority { largest = left }
            if right < heap.count && heap[largest].priority < heap[right].priority { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
