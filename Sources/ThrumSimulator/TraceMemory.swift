/// The board's trace buffer as TRACE_READ reads it (PROTOCOL.md §5.3): the last `capacity` ticks
/// of each channel's rendered intensity, Q1.14. Ticks arrive in order, one per channel per tick.
struct TraceMemory {
    private var rings: [[Int16]]
    private var count: [Int]
    private var head: [Int]
    /// Board time (low 32 bits) of each channel's newest tick.
    private var newest: [UInt32]
    let capacity: Int
    let tick: UInt32

    init(channels: Int, capacity: Int, tick: UInt32) {
        rings = Array(repeating: Array(repeating: 0, count: capacity), count: channels)
        count = Array(repeating: 0, count: channels)
        head = Array(repeating: 0, count: channels)
        newest = Array(repeating: 0, count: channels)
        self.capacity = capacity
        self.tick = tick
    }

    mutating func record(channel: Int, time: UInt32, intensityQ15: UInt16) {
        guard rings.indices.contains(channel), capacity > 0 else { return }
        rings[channel][head[channel]] = Int16(clamping: (Int(intensityQ15) + 1) / 2)
        head[channel] = (head[channel] + 1) % capacity
        count[channel] = min(count[channel] + 1, capacity)
        newest[channel] = time
    }

    /// Up to `limit` samples of `channel` from the first retained tick at or after `from`
    /// (wrap-safe); the time of the first one returned, `from` itself when there are none.
    func read(channel: Int, from: UInt32, limit: Int) -> (from: UInt32, samples: [Int16]) {
        guard rings.indices.contains(channel), count[channel] > 0, tick > 0, limit > 0 else { return (from, []) }
        let kept = count[channel]
        let oldest = newest[channel] &- UInt32(kept - 1) &* tick
        // Ticks from `oldest` to the first at or after `from`; negative: `from` is before what is kept.
        let offset = Int64(Int32(bitPattern: from &- oldest))
        let skip = offset <= 0 ? 0 : Int((offset + Int64(tick) - 1) / Int64(tick))
        guard skip < kept else { return (from, []) }
        let n = min(limit, kept - skip)
        let start = (head[channel] - kept + skip + capacity * 2) % capacity
        let samples = (0..<n).map { rings[channel][(start + $0) % capacity] }
        return (oldest &+ UInt32(skip) &* tick, samples)
    }
}
