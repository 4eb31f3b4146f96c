#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A live run's clock: the scenario's virtual seconds as the machine's monotonic clock runs,
/// `speed` virtual seconds to a real one, with jumps over stretches where nothing real is
/// under way (no transfer runs: waiting would show nothing but the wait).
struct LiveClock {
    let speed: Double
    /// The virtual time at the real instant `base` (seconds of the monotonic clock).
    private var virtualAtBase: Double
    private var base: Double

    init(speed: Double, at virtual: Double = 0) {
        precondition(speed > 0, "a clock's speed is positive")
        self.speed = speed
        virtualAtBase = virtual
        base = Self.monotonic()
    }

    /// Seconds of the system's monotonic clock.
    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The virtual time now.
    var now: Double { virtualAtBase + (Self.monotonic() - base) * speed }

    /// The real instant (monotonic seconds) at which virtual time reaches `virtual`.
    func realInstant(of virtual: Double) -> Double { base + (virtual - virtualAtBase) / speed }

    /// Jumps to virtual time `virtual` now (never backwards).
    mutating func jump(to virtual: Double) {
        let current = now
        guard virtual > current else { return }
        virtualAtBase = virtual
        base = Self.monotonic()
    }
}
