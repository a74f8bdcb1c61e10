/// The emulated serial line between host and board: a UART's byte time at `baudRate` (10 bits a
/// byte) or none (`nil`: unlimited, as USB CDC), plus a fixed latency, USB-like delivery in
/// whole frames (bytes become visible at the next frame boundary) and a random extra latency per
/// delivery (`jitterMicroseconds`, replayed from `jitterSeed`) that never reorders bytes.
public struct LineModel: Sendable, Hashable {
    /// Bits per second, or nil for no rate limit.
    public var baudRate: Int? = nil
    /// Added to every byte's delivery (microseconds).
    public var latencyMicroseconds: UInt64 = 0
    /// USB full-speed frames are 1 ms; 0 = deliver as soon as the byte is there.
    public var frameMicroseconds: UInt64 = 0
    /// Largest extra latency of a delivery (microseconds): each delivery, such as one USB frame's
    /// bytes, comes 0...jitterMicroseconds late, and never before the one sent ahead of it.
    public var jitterMicroseconds: UInt64 = 0
    /// Seed of the jitter's draws: the same seed, the same delays.
    public var jitterSeed: UInt64 = 0

    public init(
        baudRate: Int? = nil, latencyMicroseconds: UInt64 = 0, frameMicroseconds: UInt64 = 0,
        jitterMicroseconds: UInt64 = 0, jitterSeed: UInt64 = 0
    ) {
        self.baudRate = baudRate
        self.latencyMicroseconds = latencyMicroseconds
        self.frameMicroseconds = frameMicroseconds
        self.jitterMicroseconds = jitterMicroseconds
        self.jitterSeed = jitterSeed
    }

    /// A USB CDC link: 1 ms frames and a millisecond of host-stack latency.
    public static let usb = LineModel(baudRate: nil, latencyMicroseconds: 1000, frameMicroseconds: 1000)

    /// Time on the wire of one byte, in nanoseconds (start + 8 data + stop bits).
    public var byteNanoseconds: UInt64 {
        guard let baudRate, baudRate > 0 else { return 0 }
        return 10 * 1_000_000_000 / UInt64(baudRate)
    }

    /// The line rates the simulator emulates.
    public static let baudRates = 300...20_000_000
    /// The most jitter the simulator emulates (1 s).
    public static let maximumJitterMicroseconds: UInt64 = 1_000_000

    func problems() -> [String] {
        var found: [String] = []
        if let baudRate, !Self.baudRates.contains(baudRate) {
            found.append("baudRate \(baudRate): must be \(Self.baudRates)")
        }
        if latencyMicroseconds > 1_000_000 { found.append("latencyMicroseconds \(latencyMicroseconds): at most 1 s") }
        if frameMicroseconds > 100_000 { found.append("frameMicroseconds \(frameMicroseconds): at most 100 ms") }
        if jitterMicroseconds > Self.maximumJitterMicroseconds {
            found.append("jitterMicroseconds \(jitterMicroseconds): at most 1 s")
        }
        return found
    }
}

/// One direction of the line: bytes with the instant (microseconds, on the sender's clock) at
/// which they reach the other side. Bytes keep their order and cannot overtake each other.
struct LineDirection: Sendable {
    /// Which way the bytes go; each way draws its own jitter from the line's seed.
    enum Way: UInt64, Sendable {
        case hostToBoard = 0x686F_7374  // "host"
        case boardToHost = 0x626F_6172  // "boar"
    }

    let model: LineModel
    private var queue: [(at: UInt64, byte: UInt8)] = []
    private var head = 0
    /// When the wire is free again, in nanoseconds.
    private var busyUntilNanoseconds: UInt64 = 0
    private var jitter: DeliveryJitter

    init(model: LineModel, way: Way) {
        self.model = model
        jitter = DeliveryJitter(bound: model.jitterMicroseconds, seed: model.jitterSeed ^ way.rawValue)
    }

    var isEmpty: Bool { head == queue.count }
    /// Arrival time of the oldest byte still on the line.
    var nextArrival: UInt64? { isEmpty ? nil : queue[head].at }

    mutating func send(_ bytes: some Sequence<UInt8>, at nowMicroseconds: UInt64) {
        var wire = max(busyUntilNanoseconds, nowMicroseconds * 1000)
        for byte in bytes {
            wire += model.byteNanoseconds
            var arrival = (wire + 999) / 1000 + model.latencyMicroseconds
            if model.frameMicroseconds > 0 {
                arrival = (arrival + model.frameMicroseconds - 1) / model.frameMicroseconds * model.frameMicroseconds
            }
            queue.append((jitter.delivery(due: arrival), byte))
        }
        busyUntilNanoseconds = wire
    }

    /// Bytes that have arrived by `nowMicroseconds`.
    mutating func receive(upTo nowMicroseconds: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        while head < queue.count, queue[head].at <= nowMicroseconds {
            out.append(queue[head].byte)
            head += 1
        }
        if head > 4096, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return out
    }
}
