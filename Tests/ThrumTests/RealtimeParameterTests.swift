import Testing
@testable import Thrum
import ThrumSimulator
import ThrumTransport

/// What the board plays, read from the simulator's rendered ticks.
@Suite("Dynamic parameters reach the board's output")
struct RealtimeParameterTests {
    @Test("reliable and real-time intensity and sharpness controls change what the board renders")
    func controlsChangeTheOutput() async throws {
        let clock = ManualClock()
        let tap = TraceTap()
        let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: BoardConfiguration(), transport: board, tap: tap)
        let engine = HapticEngine(manualClock: clock) { (host, Task { try? await server.run(on: clock) }) }
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makeAdvancedPlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1, sharpness: 0)]))
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
