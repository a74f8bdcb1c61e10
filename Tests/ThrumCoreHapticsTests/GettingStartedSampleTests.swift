import Foundation
import Testing
import Thrum
import ThrumCoreHaptics

/// The sample of `Sources/ThrumCoreHaptics/ThrumCoreHaptics.docc/GettingStarted.md`, line for
/// line (`DocumentationSampleTests` in ThrumTests checks it), run on its own thread as an app's
/// main thread would, on the embedded simulator.
@Suite("ThrumCoreHaptics' getting-started sample")
struct GettingStartedSampleTests {
    /// As the article writes it: the default device.
    static func asWritten() throws {
        let engine = try CHHapticEngine()  // THRUM_DEVICE, else the simulator built into the library
        try play(on: engine)
    }

    static func play(on engine: CHHapticEngine) throws {
        try engine.start()
        let tap = CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.8),
            ],
            relativeTime: 0)
        let buzz = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.6)],
            relativeTime: 0.1, duration: 0.3)
        let player = try engine.makePlayer(with: CHHapticPattern(events: [tap, buzz], parameters: []))
        try player.start(atTime: CHHapticTimeImmediate)
        engine.notifyWhenPlayersFinished { _ in .stopEngine }  // stops the engine when it has played
    }

    @Test("plays the pattern, then the engine stops itself")
    func sample() async throws {
        let engine = CHHapticEngine(engine: HapticEngine(simulating: .init()))
        let stopped = Flag()
        engine.stoppedHandler = { reason in if reason == .notifyWhenFinished { stopped.set() } }
        try await onThread {
            try Self.play(on: engine)
            let deadline = Date().addingTimeInterval(20)
            while !stopped.isSet && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(stopped.isSet)
        #expect(await !engine.engine.isRunning)
    }
}
