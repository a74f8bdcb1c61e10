/// Counters for diagnostics and benchmarks.
public struct LinkStatistics: Equatable, Sendable {
    public var framesSent = 0
    public var bytesSent = 0
    public var framesReceived = 0
    public var bytesReceived = 0
    /// Frames sent again (each frame of a go-back-N resend counts).
    public var retransmissions = 0
    /// Resends caused by the retransmission timer, and by a NAK.
    public var timeouts = 0
    public var nakResends = 0
    /// Go-back resends caused by duplicate acknowledgements (a lost resend the single NAK cannot report).
    public var duplicateAckResends = 0
    /// Frames resent because the peer's SACK showed them missing while it held a frame sent after them.
    public var selectiveResends = 0
    /// Reliable frames held after a gap (delivered once the gap filled), and SACK frames sent.
    public var framesHeld = 0
    public var sacksSent = 0
    public var duplicates = 0
    public var outOfOrder = 0
    public var staleRealtime = 0
    /// Frames carrying an epoch other than the session's (dropped).
    public var staleEpoch = 0
    /// Frames ignored because no session was established.
    public var ignoredBeforeHandshake = 0
    public var undecodable = 0
    public var pingsSent = 0
    public var pongsReceived = 0

    public init() {}
}
