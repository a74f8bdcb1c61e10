/// The service's limits (Protocol/SERVICE.md §8): what one message, one client and the HTTP
/// endpoints may cost. Defaults suit a designer's tool and a game on one machine.
public struct ServiceLimits: Sendable {
    /// The largest message the service reads; a larger one gets a `too_large` error reply.
    public var maxMessageBytes = 4 << 20
    /// The largest WebSocket frame: beyond it the WebSocket layer closes the connection (1009).
    public var maxFrameBytes = 16 << 20
    /// The largest HTTP request body (validate, compile, plot).
    public var maxBodyBytes = 4 << 20
    /// The largest sound `POST /api/convert` takes (it streams to a temporary file, not memory):
    /// ten minutes of 48 kHz stereo 24-bit WAV, or hours of a compressed format.
    public var maxAudioBytes = 256 << 20
    /// Requests a second per client, on average and at once; real-time messages do not count.
    public var requestsPerSecond = 500.0
    public var requestBurst = 1000.0
    /// A client's real-time values go to the board in batches that begin at least this far apart
    /// (newest wins in between): at most 2,000 batches a second per client.
    public var realtimeInterval: Duration = .microseconds(500)
    /// Messages waiting for a client that does not read; past this the oldest are dropped.
    public var outboundQueue = 8192
    /// Clients at once; one more is refused with HTTP 503.
    public var maxClients = 64
    /// Patterns loaded per client.
    public var maxPatternsPerClient = 256
    /// Trace updates a second, at most and by default.
    public var maxTraceRate = 100.0
    public var defaultTraceRate = 30.0

    public init() {}
}
