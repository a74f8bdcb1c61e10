import ThrumWire

/// The board's free-running microsecond clock as a function of host time: an offset and a drift.
public struct SimulatedBoardClock: Sendable {
    /// Board reading (µs) at host time zero.
    public var offset: Double
    /// Parts per million the board runs fast (negative: slow).
    public var driftPPM: Double

    public init(offset: Double, driftPPM: Double) {
        self.offset = offset
        self.driftPPM = driftPPM
    }

    public func microseconds(at host: MonotonicInstant) -> Double {
        offset + host.microseconds * (1 + driftPPM * 1e-6)
    }

    /// The 32-bit reading a board would put on the wire.
    public func reading(at host: MonotonicInstant) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(max(0, microseconds(at: host))))
    }
}
