import ThrumWire

/// One direction of a serial line in virtual time, for tests and benchmarks (no I/O, no sleeping):
/// bytes are serialised at the baud rate (10 bits per byte), then delivered in USB-sized packets after
/// a random latency, in order. Faults are applied per written frame, from a seed, so a run replays exactly.
public struct VirtualLine: Sendable {
    public struct Faults: Sendable {
        /// A frame's bytes take line time but never arrive.
        public var dropRate = 0.0
        /// One byte of the frame is replaced by another random value (possibly 0x00).
        public var corruptRate = 0.0
        /// Each byte on the line, independently, is replaced by another random value (a bit-error-rate model).
        public var byteCorruptionRate = 0.0
        /// The frame arrives twice.
        public var duplicateRate = 0.0
        /// Random bytes (possibly containing 0x00) go on the line before the frame.
        public var garbageRate = 0.0
        public var garbageLength: ClosedRange<Int> = 1...48

        public init(dropRate: Double = 0, corruptRate: Double = 0, duplicateRate: Double = 0, garbageRate: Double = 0) {
            self.dropRate = dropRate
            self.corruptRate = corruptRate
            self.duplicateRate = duplicateRate
            self.garbageRate = garbageRate
        }

        public static let none = Faults()
        /// Issue 3 §5: 5 % frame loss, 1 % corrupted frames, duplicates and garbage bursts.
        public static let issue3 = Faults(dropRate: 0.05, corruptRate: 0.01, duplicateRate: 0.01, garbageRate: 0.01)
    }

    public struct Statistics: Equatable, Sendable {
        public var framesWritten = 0
        public var bytesWritten = 0
        /// Bytes that occupied the line, garbage and duplicates included.
        public var bytesOnLine = 0
        public var dropped = 0
        public var corrupted = 0
        public var corruptedBytes = 0
        public var duplicated = 0
        public var garbageBursts = 0
    }

    /// Bits per second; nil for a line without serialisation delay.
    public var baud: Double?
    /// Latency added to each packet after serialisation (USB polling, OS scheduling).
    public var latency: ClosedRange<Duration>
    public var packetSize: Int
    public var faults: Faults
    public private(set) var statistics = Statistics()

    private var rng: SplitMix64
    private var busyUntil = MonotonicInstant.zero
    private var lastDelivery = MonotonicInstant.zero
    private var pending: [(at: MonotonicInstant, bytes: [UInt8])] = []
    private var pendingHead = 0

    public init(
        baud: Double?, latency: ClosedRange<Duration> = .zero ... .zero, packetSize: Int = 64, faults: Faults = .none,
        seed: UInt64
    ) {
        self.baud = baud
        self.latency = latency
        self.packetSize = max(1, packetSize)
        self.faults = faults
        self.rng = SplitMix64(seed: seed)
    }

    /// Seconds one byte occupies the line.
    public var byteTime: Double { baud.map { 10 / $0 } ?? 0 }

    public mutating func write(_ frame: [UInt8], at now: MonotonicInstant) {
        statistics.framesWritten += 1
        statistics.bytesWritten += frame.count
        if rng.chance(faults.garbageRate) {
            statistics.garbageBursts += 1
            let length = Int.random(in: faults.garbageLength, using: &rng)
            transmit((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: now, deliver: true)
        }
        var bytes = frame
        if rng.chance(faults.corruptRate), !bytes.isEmpty {
            statistics.corrupted += 1
            let index = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[index] ^= UInt8.random(in: 1...255, using: &rng)
        }
        let dropped = rng.chance(faults.dropRate)
        if dropped { statistics.dropped += 1 }
        transmit(bytes, at: now, deliver: !dropped)
        if rng.chance(faults.duplicateRate) {
            statistics.duplicated += 1
            transmit(bytes, at: now, deliver: true)
        }
    }

    private mutating func transmit(_ original: [UInt8], at now: MonotonicInstant, deliver: Bool) {
        var bytes = original
        if faults.byteCorruptionRate > 0 {
            for index in bytes.indices where rng.chance(faults.byteCorruptionRate) {
                bytes[index] ^= UInt8.random(in: 1...255, using: &rng)
                statistics.corruptedBytes += 1
            }
        }
        statistics.bytesOnLine += bytes.count
        var start = max(now, busyUntil)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + packetSize)
            let serialised = start + .nanoseconds(Int64((Double(end - offset) * byteTime * 1e9).rounded()))
            start = serialised
            if deliver {
                let low = latency.lowerBound.nanosecondsClamped
                let high = latency.upperBound.nanosecondsClamped
                let delay = high > low ? Int64.random(in: low...high, using: &rng) : low
                let at = max(lastDelivery, serialised + .nanoseconds(delay))
                lastDelivery = at
                pending.append((at, Array(bytes[offset..<end])))
            }
            offset = end
        }
        busyUntil = start
    }

    /// When the next packet arrives, if any is under way.
    public var nextDelivery: MonotonicInstant? { pendingHead < pending.count ? pending[pendingHead].at : nil }

    /// When the line finishes sending what it was given.
    public var idleAt: MonotonicInstant { busyUntil }

    /// Bytes that have arrived by `now`, in order.
    public mutating func deliver(upTo now: MonotonicInstant) -> [UInt8] {
        var out: [UInt8] = []
        while pendingHead < pending.count, pending[pendingHead].at <= now {
            out.append(contentsOf: pending[pendingHead].bytes)
            pendingHead += 1
        }
        if pendingHead > 256 {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return out
    }
}
