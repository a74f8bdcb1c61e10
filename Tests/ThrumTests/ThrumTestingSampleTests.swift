import Testing
import Thrum
import ThrumTesting

// The sample of `Sources/ThrumTesting/ThrumTesting.docc/GettingStarted.md`, line for line
// (`DocumentationSampleTests` checks it).

@Test func buzzPlaysToTheEnd() async throws {
    let clock = ManualClock()
    let engine = HapticEngine(manualClock: clock)  // the embedded simulator, on `clock`
    try await clock.drive { try await engine.start() }  // moves time until start() returns
    let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 0.8)])
    let player = try await engine.makePlayer(with: buzz)
    let events = engine.events
    let before = clock.now
    try await clock.drive {
        try await player.start(atTime: HapticEngine.timeImmediate)
        for await event in events {
            if case .playerFinished(player.id) = event { break }
        }
    }
    #expect(before.duration(to: clock.now) >= .milliseconds(200))  // virtual time
    try await clock.drive { await engine.stop() }
}
