/// One PING/PONG exchange: four timestamps, two on each clock (PROTOCOL.md §7.2).
public struct ClockSample: Equatable, Sendable {
    public var hostSent: MonotonicInstant
    public var hostReceived: MonotonicInstant
    /// Board clock (µs, extended to 64 bits) when the PING arrived and when the PONG left.
    public var boardReceived: UInt64
    public var boardSent: UInt64

    public init(hostSent: MonotonicInstant, hostReceived: MonotonicInstant, boardReceived: UInt64, boardSent: UInt64) {
        self.hostSent = hostSent
        self.hostReceived = hostReceived
        self.boardReceived = boardReceived
        self.boardSent = boardSent
    }

    /// Time on the wire both ways, the board's processing removed (µs).
    public var roundTrip: Double {
        (hostReceived.microseconds - hostSent.microseconds) - (Double(boardSent) - Double(boardReceived))
    }

    /// Board clock minus host clock (µs), exact when both directions took equally long.
    public var offset: Double {
        ((Double(boardReceived) - hostSent.microseconds) + (Double(boardSent) - hostReceived.microseconds)) / 2
    }

    /// Host time (µs) the offset belongs to.
    public var hostMidpoint: Double { (hostSent.microseconds + hostReceived.microseconds) / 2 }
}
