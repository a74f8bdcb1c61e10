import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// What the board plays, read from the simulator's rendered ticks.
@Suite("Dynamic parameters reach the board's output")
struct RealtimeParameterTests {
    @Test("reliable and real-time intensity and sharpness controls change what the board renders")
    func controlsChangeTheOutput() async throws {
        let (engine, tap, clock) = try tappedBoard()
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1, sharpness: 0)]))
        try await withVirtualTime(clock) {
            try await player.start(atTime: 0)
            try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 0)
        }
        await advance(clock, by: .milliseconds(20))
        let reliable = try #require(tap.latest())
        #expect(abs(reliable.intensity - 0.5) < 0.01, "\(reliable)")

        try await withVirtualTime(clock) {
            try await player.sendRealtimeParameters([
                DynamicParameter(.hapticIntensityControl, value: 0.25, time: 0),
                DynamicParameter(.hapticSharpnessControl, value: 0.75, time: 0),
            ])
        }
        await advance(clock, by: .milliseconds(20))
        let realtime = try #require(tap.latest())
        #expect(abs(realtime.intensity - 0.25) < 0.01, "\(realtime)")
        #expect(abs(realtime.sharpness - 0.75) < 0.01, "\(realtime)")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}

@Suite("A board player's next start")
struct BoardPlayerReuseTests {
    @Test(
        "a start plays with its own player's settings and a neutral run-time layer, whatever the board player held before"
    )
    func nothingLeaksBetweenPlayers() async throws {
        let (engine, tap, clock) = try tappedBoard()
        try await withVirtualTime(clock) { try await engine.start() }
        let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0)])
        let first = try await engine.makeAdvancedPlayer(with: buzz)
        try await withVirtualTime(clock) {
            try await first.setPlaybackRate(0.5)
            try await first.start(atTime: 0)
            try await first.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)], atTime: 0)
            try await first.setMuted(true)
            try await first.stop(atTime: 0)
        }
        await advance(clock, by: .milliseconds(20))
        // The next player takes the board player the first one left.
        let second = try await engine.makePlayer(with: buzz)
        let startedAt = clock.now.offset.secondsDouble
        try await withVirtualTime(clock) { try await second.start(atTime: 0) }
        await advance(clock, by: .milliseconds(300))
        let sounding = tap.ticks.filter { $0.seconds >= startedAt && $0.intensity > 0 }
        #expect(sounding.contains { abs($0.intensity - 1) < 0.001 }, "full intensity, not muted or scaled by 0.3")
        // 100 ms at normal rate (not 200 ms at half rate)
        #expect((95...105).contains(sounding.count), "\(sounding.count) ticks sounded")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}

@Suite("Real-time updates paced to a UART")
struct RealtimePacingTests {
    @Test("1,000 updates a second on a 115,200-baud line: the newest reaches the board within a few ms; none queue up")
    func pacedUpdatesDoNotQueue() async throws {
        var board = BoardConfiguration()
        board.line = LineModel(baudRate: 115_200)
        let (engine, tap, clock) = try tappedBoard(board, lineRate: 115_200)
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1)]))
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        let before = await engine.linkStatistics.framesSent
        var lastSent = 0.0
        for index in 0..<300 {
            let value = Float(0.2 + 0.6 * Double(index % 7) / 6)
            try await withVirtualTime(clock) {
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: value, time: 0)
                ])
            }
            lastSent = clock.now.offset.secondsDouble
            await clock.pass(.milliseconds(1), yields: 200)
        }
        await clock.pass(.milliseconds(20), yields: 200)
        let frames = await engine.linkStatistics.framesSent - before
        #expect(frames < 300, "updates that could not go out were replaced by newer ones (\(frames) frames)")
        // The last value (index 299: 0.2 + 0.6 × 5/6 = 0.7) shows within wire time and a tick or two
        // (about 3 ms). The bound is 10 ms: the manual clock moves after a fixed number of yields,
        // and on a busy machine the link's pacing task can miss a step or two of virtual time
        // (SerialExecutionTests checks the exact figures, with the clock moving only at quiescence).
        // Queued updates would show hundreds of milliseconds (300 frames of 1.3 ms each).
        let last = try #require(tap.ticks.first { abs($0.intensity - 0.7) < 0.001 && $0.seconds > lastSent })
        #expect(last.seconds - lastSent < 0.010, "rendered \((last.seconds - lastSent) * 1000) ms after it was sent")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}
