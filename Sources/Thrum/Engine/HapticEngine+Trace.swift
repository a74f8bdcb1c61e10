import ThrumWire

/// What a board rendered, read back from its trace buffer (TRACE_READ): how tests and benchmarks
/// see each channel's output, and how a rig's boards are compared.
extension HapticEngine {
    /// Up to `count` ticks of `channel`'s rendered intensity from board time `from` (µs, low 32
    /// bits; the first retained tick at or after it). Fewer when the board has not rendered them
    /// yet or no longer keeps them; a board without a trace buffer answers `not_supported`.
    public func readTrace(channel: Int, from: UInt32, count: Int) async throws -> BoardTrace {
        let link = try session.runningLink()
        guard let channels = session.channels, (0..<channels.count).contains(channel) else {
            throw HapticEngineError.invalidLocality("readTrace: no channel \(channel) on the board")
        }
        let perReply = max(1, (await link.preferredPayload - 12) / 2)
        var trace = BoardTrace(channel: channel, start: from, tick: 0, samples: [])
        while trace.samples.count < count {
            let next = trace.samples.isEmpty ? from : trace.start &+ UInt32(trace.samples.count) &* UInt32(trace.tick)
            let wanted = UInt16(min(count - trace.samples.count, perReply))
            let reply = try await link.request {
                .traceRead(tag: $0, channel: UInt8(channel), fromTime: next, count: wanted)
            }
            try BoardLink.check(reply, for: .traceRead)
            guard case .traceData(let data) = reply, data.samples.count >= 2 else { break }
            if trace.samples.isEmpty {
                trace.start = data.fromTime
                trace.tick = Int(data.tick)
            }
            for index in stride(from: 0, to: data.samples.count - 1, by: 2) {
                trace.samples.append(
                    Int16(bitPattern: UInt16(data.samples[index]) | UInt16(data.samples[index + 1]) << 8))
            }
        }
        return trace
    }
}

/// Rendered output of one channel: one sample per tick from `start`.
public struct BoardTrace: Sendable, Equatable {
    public var channel: Int
    /// Board time of the first sample (µs, low 32 bits).
    public var start: UInt32
    /// Tick length (µs).
    public var tick: Int
    /// Rendered intensity per tick, Q1.14 (16384 = 1).
    public var samples: [Int16]

    public var intensities: [Double] { samples.map { Double($0) / 16384 } }
}
