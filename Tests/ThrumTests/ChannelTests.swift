import Foundation
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTimeline
import ThrumTransport

@testable import Thrum

/// Channel targeting, read back through TRACE_READ: what each channel of a simulated board
/// rendered equals the reference renderer's output times that channel's share (SEMANTICS.md §12).
@Suite("Channels and localities")
struct ChannelTests {
    static let names = ["left", "middle", "right"]
    /// Never above 1 where the two events overlap, so no channel clips (a pan's share of a clipped
    /// sum is not the clipped sum's share: the board clips each channel after its gains, §2).
    static let buzz = HapticPattern(events: [
        .continuous(at: 0, duration: 0.3, intensity: 0.6, sharpness: 0.4),
        .transient(at: 0.1, intensity: 0.35, sharpness: 0.9),
    ])

    static func board(channels: Int = 3) -> BoardConfiguration {
        var configuration = BoardConfiguration()
        configuration.channels = Array(repeating: .lra(), count: channels)
        for (index, name) in names.prefix(channels).enumerated() { configuration.channelNames[index] = name }
        return configuration
    }

    /// The reference renderer's intensity for `pattern` at 1 kHz, as the board plays it from t = 0.
    static func reference(_ pattern: HapticPattern, seconds: Double) throws -> [Double] {
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        let playback = Playback(pattern: decoded, startTime: 0, decayReadTick: 0.001)
        return ReferenceRenderer.render([playback], channels: 1, sampleRate: 1000, from: 0, to: seconds)[0]
            .intensity.values.map(Double.init)
    }

    /// The largest difference between a channel's trace and `expected` (both from the start),
    /// allowing one tick of timing (SEMANTICS.md §10) as the differential tests do.
    static func worst(_ trace: [Double], _ expected: [Double]) -> Double {
        var worst = 0.0
        for index in 0..<min(trace.count, expected.count) {
            let near = (max(0, index - 1)...min(expected.count - 1, index + 1)).map { abs(trace[index] - expected[$0]) }
            worst = max(worst, near.min()!)
        }
        return worst
    }

    /// Starts `player` on a tick boundary 50 ms ahead; returns that board time (µs).
    static func startOnTick(_ player: HapticPatternPlayer, _ engine: HapticEngine) async throws -> UInt32 {
        let now = await engine.currentTime
        let start = (now * 1000).rounded(.up) / 1000 + 0.05
        try await player.start(atTime: start)
        return UInt32((start * 1e6).rounded())
    }

    /// Until a player finishes, on virtual time (the drive's limit stops a hang): a wall-clock
    /// timeout would cut it short on a slow run (a sanitizer's).
    static func finished(_ events: AsyncStream<HapticEngineEvent>) async {
        for await event in events {
            if case .playerFinished = event { return }
        }
    }

    /// `count` ticks of each channel from `from`; fails unless the board rendered all of them.
    static func traces(
        _ engine: HapticEngine, clock: ManualClock, from: UInt32, count: Int, channels: Int = 3
    ) async throws -> [[Double]] {
        // The board renders on the manual clock: let it get past the last tick asked for.
        let now = await engine.currentTime
        let wait = max(0, Double(from) / 1e6 + Double(count) / 1000 + 0.01 - now)
        try await clock.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up))))
        var traces: [[Double]] = []
        for channel in 0..<channels {
            let trace = try await engine.readTrace(channel: channel, from: from, count: count)
            #expect(trace.start == from, "channel \(channel)'s trace starts at the start tick")
            try #require(trace.samples.count == count, "channel \(channel): \(trace.samples.count) of \(count) ticks")
            traces.append(trace.intensities)
        }
        return traces
    }

    @Test("the board names its channels, and the engine reads them")
    func names() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock, simulator: Self.board())
        try await withVirtualTime(clock) { try await engine.start() }
        let channels = try #require(await engine.channels)
        #expect(channels.names == ["left", "middle", "right"])
        #expect(channels.canTarget)
        #expect(try channels.resolve("right,left") == [2, 0])
        #expect(try channels.resolve(.indices(1)) == [1])
        #expect(throws: HapticEngineError.self) { try channels.resolve("thumb") }
        #expect(throws: HapticEngineError.self) { try channels.resolve("left,0") }
        await engine.stop()
    }

    @Test("a player on a locality renders only there, each channel as the reference renderer")
    func targeting() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock, simulator: Self.board())
        let traces = try await withVirtualTime(clock) {
            try await engine.start()
            let player = try await engine.makePlayer(with: Self.buzz, locality: ["right", "left"])
            let events = engine.events
            let start = try await Self.startOnTick(player, engine)
            await Self.finished(events)
            return try await Self.traces(engine, clock: clock, from: start, count: 400)
        }
        let expected = try Self.reference(Self.buzz, seconds: 0.4)
        #expect(expected.max()! > 0.55)
        #expect(Self.worst(traces[0], expected) <= 0.01, "left")
        #expect(Self.worst(traces[2], expected) <= 0.01, "right")
        #expect(traces[1].allSatisfy { $0 == 0 }, "middle is not in the locality")
        await engine.stop()
    }

    @Test("a pan shares the pattern between two neighbours at equal power", arguments: [0.0, 0.25, 0.5, 1.0])
    func pan(position: Double) async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock, simulator: Self.board())
        let traces = try await withVirtualTime(clock) {
            try await engine.start()
            let player = try await engine.makePlayer(with: Self.buzz, locality: .all)
            let events = engine.events
            let start = try await Self.startOnTick(player, engine)
            try await player.setPan(position, atTime: 0)
            await Self.finished(events)
            return try await Self.traces(engine, clock: clock, from: start, count: 400)
        }
        let expected = try Self.reference(Self.buzz, seconds: 0.4)
        let gains = ChannelPan.gains(position: position, count: 3)
        for channel in 0..<3 {
            #expect(
                Self.worst(traces[channel], expected.map { $0 * gains[channel] }) <= 0.01,
                "channel \(channel) at gain \(gains[channel])")
        }
    }

    @Test("a locality change while playing takes effect at its stated time, to the tick")
    func changeWhilePlaying() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock, simulator: Self.board())
        let long = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 0.7, sharpness: 0.5)])
        let traces = try await withVirtualTime(clock) {
            try await engine.start()
            let player = try await engine.makePlayer(with: long, locality: "left")
            let events = engine.events
            let start = try await Self.startOnTick(player, engine)
            try await player.setLocality("right", atTime: Double(start) / 1e6 + 0.2)
            await Self.finished(events)
            return try await Self.traces(engine, clock: clock, from: start, count: 700)
        }
        let expected = try Self.reference(long, seconds: 0.7)
        // Ticks 0..199 on the left, from tick 200 on the right.
        #expect(Self.worst(Array(traces[0][..<200]), Array(expected[..<200])) <= 0.01)
        #expect(traces[0][200...].allSatisfy { $0 == 0 }, "left is silent from the change on")
        #expect(traces[2][..<200].allSatisfy { $0 == 0 }, "right is silent before the change")
        #expect(abs(traces[2][200] - expected[200]) <= 0.01, "right takes over at the change's tick")
        #expect(Self.worst(Array(traces[2][200...]), Array(expected[200...])) <= 0.01)
        #expect(traces[1].allSatisfy { $0 == 0 })
    }

    @Test("players started together start on the same tick, each on its locality")
    func parallelStart() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock, simulator: Self.board())
        let (traces, start) = try await withVirtualTime(clock) {
            try await engine.start()
            let left = try await engine.makePlayer(with: Self.buzz, locality: "left")
            let right = try await engine.makePlayer(
                with: HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 0.4, sharpness: 0.1)]),
                locality: "right")
            let events = engine.events
            let now = await engine.currentTime
            let start = (now * 1000).rounded(.up) / 1000 + 0.05
            try await engine.startTogether([left, right], atTime: start)
            await Self.finished(events)
            let at = UInt32((start * 1e6).rounded())
            return (try await Self.traces(engine, clock: clock, from: at, count: 300), at)
        }
        #expect(start > 0)
        #expect(traces[0].firstIndex { $0 > 0 } == traces[2].firstIndex { $0 > 0 })
        #expect(traces[1].allSatisfy { $0 == 0 })
    }

    @Test("a board of message set 1.1 plays on every channel, and the engine warns once")
    func earlierBoard() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: Self.board(), transport: board)
        let engine = HapticEngine(manualClock: clock, logHandler: recorder.handler(label:)) {
            (EarlierBoardTransport(wrapping: host, minor: 1), Task { try? await server.run(on: clock) })
        }
        try await withVirtualTime(clock) {
            try await engine.start()
            #expect(await engine.channels?.canTarget == false)
            #expect(await engine.channels?.names == [nil, nil, nil])
            let player = try await engine.makePlayer(with: Self.buzz, locality: "0")
            try await player.start(atTime: 0)
            try await player.start(atTime: 0)
            try await player.setPan(0.5, atTime: 0)
        }
        let warnings = recorder.entries.map(\.message).filter { $0.contains("locality '0' ignored") }
        #expect(warnings.count == 1, "\(recorder.entries.map(\.message))")
        #expect(recorder.entries.map(\.message).contains { $0.contains("pan skipped") })
        await engine.stop()
    }
}
