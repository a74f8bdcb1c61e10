import Testing
import Thrum
import ThrumTesting

/// The sample of `Sources/Thrum/Thrum.docc/GettingStarted.md`, line for line
/// (`DocumentationSampleTests` checks it), run on an engine on a manual clock.
@Suite("Thrum's getting-started sample")
struct GettingStartedSampleTests {
    /// As the article writes it: the default device.
    static func asWritten() async throws {
        let engine = try HapticEngine()  // THRUM_DEVICE, else the simulator built into the library
        try await play(on: engine)
    }

    static func play(on engine: HapticEngine) async throws {
        try await engine.start()  // opens the device, shakes hands, synchronises the clocks
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 0.8),
            .continuous(at: 0.1, duration: 0.3, intensity: 0.6, sharpness: 0.2),
        ])
        let player = try await engine.makePlayer(with: pattern)  // compiles the pattern: a bad one fails here
        let events = engine.events  // subscribe before starting
        try await player.start(atTime: HapticEngine.timeImmediate)
        for await event in events {
            if case .playerFinished(player.id) = event { break }
        }
        await engine.stop()
    }

    @Test("plays the pattern to the end and stops the engine")
    func sample() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        let before = clock.now
        try await clock.drive { try await Self.play(on: engine) }
        #expect(before.duration(to: clock.now) >= .milliseconds(400))
        #expect(await engine.statistics.uploads == 1)
        #expect(await !engine.isRunning)
    }
}
