import ThrumTransport

/// What a faulty line does to the bytes going one way. Rates are probabilities (0…1); all the
/// random choices come from the transport's seed, so a seed and a sequence of writes always give
/// the same bytes out, and with an injected clock the same delivery times.
public struct FaultProfile: Sendable, Equatable {
    /// Probability that a whole write is lost (with one frame per write: frame loss).
    public var dropChunk: Double
    /// Probability that a single byte is lost.
    public var dropByte: Double
    /// Probability that a byte arrives changed (XOR with a random non-zero mask).
    public var corruptByte: Double
    /// Probability that a write arrives twice.
    public var duplicateChunk: Double
    /// Probability that a burst of random bytes is inserted somewhere in a write.
    public var garbageBurst: Double
    /// Length of each garbage burst, drawn uniformly.
    public var garbageLength: ClosedRange<Int>
    /// Fixed time between a byte leaving the line and arriving (USB frames, cable, scheduling).
    public var latency: Duration
    /// Extra delay, drawn uniformly from 0…jitter per segment; order is kept, as on a real line.
    public var jitter: Duration
    /// Line rate to emulate (bits per second); nil for an infinitely fast line.
    public var baudRate: Int?
    /// Bits on the line per byte: 10 for 8N1 (start + 8 data + stop).
    public var bitsPerByte: Int
    /// Bytes the "OS" buffers before a write waits for the line.
    public var bufferSize: Int
    /// A throttled write travels in segments of at most this many bytes (a UART FIFO,
    /// a USB packet), each arriving when its last bit would.
    public var segmentSize: Int

    public init(
        dropChunk: Double = 0, dropByte: Double = 0, corruptByte: Double = 0,
        duplicateChunk: Double = 0, garbageBurst: Double = 0, garbageLength: ClosedRange<Int> = 1...16,
        latency: Duration = .zero, jitter: Duration = .zero, baudRate: Int? = nil,
        bitsPerByte: Int = 10, bufferSize: Int = 4096, segmentSize: Int = 64
    ) {
        self.dropChunk = dropChunk
        self.dropByte = dropByte
        self.corruptByte = corruptByte
        self.duplicateChunk = duplicateChunk
        self.garbageBurst = garbageBurst
        self.garbageLength = garbageLength
        self.latency = latency
        self.jitter = jitter
        self.baudRate = baudRate
        self.bitsPerByte = bitsPerByte
        self.bufferSize = bufferSize
        self.segmentSize = segmentSize
    }

    /// A perfect line: bytes pass through untouched and at once.
    public static let none = FaultProfile()

    /// Whether any byte can be changed, lost or added.
    public var altersBytes: Bool {
        dropChunk > 0 || dropByte > 0 || corruptByte > 0 || duplicateChunk > 0 || garbageBurst > 0
    }

    /// Whether delivery is delayed or paced (needs the clock).
    public var shapesTiming: Bool {
        latency > .zero || jitter > .zero || baudRate != nil
    }

    /// Time one byte occupies the line.
    var byteTime: Duration {
        guard let baudRate, baudRate > 0 else { return .zero }
        return .nanoseconds(Int64(bitsPerByte) * 1_000_000_000) / baudRate
    }

    /// Rejects settings that make no sense, naming the field.
    func validate() throws(TransportError) {
        func bad(_ text: String) -> TransportError {
            TransportError(.unsupportedConfiguration, device: "fault profile", detail: text)
        }
        let rates = [
            ("dropChunk", dropChunk), ("dropByte", dropByte), ("corruptByte", corruptByte),
            ("duplicateChunk", duplicateChunk), ("garbageBurst", garbageBurst),
        ]
        for (name, rate) in rates where !(0...1).contains(rate) {
            throw bad("\(name) must be a probability in 0…1, not \(rate)")
        }
        if garbageLength.lowerBound < 1 {
            throw bad("garbageLength must start at 1 or more, not \(garbageLength.lowerBound)")
        }
        if latency < .zero || jitter < .zero { throw bad("latency and jitter cannot be negative") }
        if let baudRate, baudRate <= 0 { throw bad("baudRate must be positive, not \(baudRate)") }
        if bitsPerByte < 1 { throw bad("bitsPerByte must be positive, not \(bitsPerByte)") }
        if bufferSize < 1 { throw bad("bufferSize must be positive, not \(bufferSize)") }
        if segmentSize < 1 { throw bad("segmentSize must be positive, not \(segmentSize)") }
    }
}

/// What a faulty line did so far, to compare with the configured rates.
public struct FaultStatistics: Sendable, Equatable {
    /// Writes (or, inbound, received chunks) that entered the line.
    public var chunks = 0
    /// Bytes that entered the line.
    public var bytesIn = 0
    public var chunksDropped = 0
    /// Bytes lost one by one (not counting dropped chunks).
    public var bytesDropped = 0
    public var bytesCorrupted = 0
    public var chunksDuplicated = 0
    public var garbageBursts = 0
    public var garbageBytes = 0
    /// Bytes that left the line towards the reader (duplicates and garbage included).
    public var bytesOut = 0

    public init() {}
}
