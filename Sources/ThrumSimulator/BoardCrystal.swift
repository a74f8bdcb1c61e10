/// The board's crystal against the host's clock: the board's microsecond counter runs
/// (1 + ppm·10⁻⁶) times as fast as host time (negative ppm: slow), as a real board's does when its
/// crystal is off. Every place that turns host (or test clock) time into board time goes through
/// here, so board timestamps and tick pacing follow the same crystal.
public struct BoardCrystal: Sendable, Hashable {
    /// Parts per million the board's clock runs fast (negative: slow).
    public var ppm: Double

    public init(ppm: Double = 0) { self.ppm = ppm }

    /// The clocks the simulator emulates: crystals (±100 ppm) and RC oscillators up to 4 % off (the host
    /// serves ±3 %, PROTOCOL.md §7.4); a board further off is broken, not drifting.
    public static let ppmRange = -40000.0...40000.0

    /// The board's counter (microseconds since power-on) when `host` nanoseconds have passed
    /// since power-on. Integer arithmetic apart from the drift itself, which is rounded to the
    /// nanosecond, so the same host time always gives the same reading.
    public func boardMicroseconds(atHostNanoseconds host: UInt64) -> UInt64 {
        boardNanoseconds(atHostNanoseconds: host) / 1000
    }

    /// The first host instant (nanoseconds since power-on) at which the board's counter reads
    /// `board` microseconds or more: when a host should wake for a board deadline.
    public func hostNanoseconds(atBoardMicroseconds board: UInt64) -> UInt64 {
        let target = board * 1000
        guard ppm != 0 else { return target }
        // The estimate is within a few nanoseconds; the exact forward map settles it.
        var host = UInt64(max(0, (Double(target) / (1 + ppm / 1_000_000)).rounded()))
        while boardNanoseconds(atHostNanoseconds: host) < target { host += 1 }
        while host > 0, boardNanoseconds(atHostNanoseconds: host - 1) >= target { host -= 1 }
        return host
    }

    /// The first board microsecond whose host instant is `host` nanoseconds or later: the board
    /// time at which a host deadline has come.
    public func boardMicroseconds(reachingHostNanoseconds host: UInt64) -> UInt64 {
        let board = boardMicroseconds(atHostNanoseconds: host)
        return hostNanoseconds(atBoardMicroseconds: board) < host ? board + 1 : board
    }

    private func boardNanoseconds(atHostNanoseconds host: UInt64) -> UInt64 {
        guard ppm != 0 else { return host }
        let drift = Int64((Double(host) * ppm / 1_000_000).rounded())
        return drift >= 0 ? host + UInt64(drift) : host - min(host, drift.magnitude)
    }
}
