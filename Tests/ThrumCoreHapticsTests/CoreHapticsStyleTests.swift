import Foundation
import Testing
import Thrum
import ThrumCoreHaptics

/// Code written the way the Core Haptics tutorials write it (a game's haptic manager, a palette of
/// continuous and transient players, per-collision players), compiled against ThrumCoreHaptics and
/// played on the embedded simulator. It runs on its own thread, as an app's main thread would:
/// Core Haptics' calls block.
@Suite("Core Haptics compatibility")
struct CoreHapticsStyleTests {
    /// A tutorial-style manager: engine set up in init, patterns built from events and curves.
    final class HapticManager: @unchecked Sendable {
        let hapticEngine: CHHapticEngine
        var swishPlayer: CHHapticAdvancedPatternPlayer?

        init?(engine: CHHapticEngine) {
            let capability = CHHapticEngine.capabilitiesForHardware()
            guard capability.supportsHaptics else { return nil }
            hapticEngine = engine
            hapticEngine.isAutoShutdownEnabled = true
            hapticEngine.resetHandler = { [weak self] in
                try? self?.hapticEngine.start()
            }
        }

        func slicePattern() throws -> CHHapticPattern {
            let slice = CHHapticEvent(
                eventType: .hapticContinuous,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.35),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.25),
                ],
                relativeTime: 0, duration: 0.25)
            let snip = CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
                ],
                relativeTime: 0.08)
            let curve = CHHapticParameterCurve(
                parameterID: .hapticIntensityControl,
                controlPoints: [
                    .init(relativeTime: 0, value: 0.2),
                    .init(relativeTime: 0.08, value: 1.0),
                    .init(relativeTime: 0.24, value: 0.2),
                ],
                relativeTime: 0)
            return try CHHapticPattern(events: [slice, snip], parameterCurves: [curve])
        }

        func playSlice() throws {
            let pattern = try slicePattern()
            try hapticEngine.start()
            let player = try hapticEngine.makePlayer(with: pattern)
            try player.start(atTime: CHHapticTimeImmediate)
            hapticEngine.notifyWhenPlayersFinished { _ in .stopEngine }
        }

        func createSwishPlayer() throws {
            let swish = CHHapticEvent(
                eventType: .hapticContinuous,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.5),
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0),
                ],
                relativeTime: 0, duration: 60)
            let pattern = try CHHapticPattern(events: [swish], parameters: [])
            swishPlayer = try hapticEngine.makeAdvancedPlayer(with: pattern)
            swishPlayer?.loopEnabled = true
        }

        func updateSwishPlayer(intensity: Float) throws {
            let parameter = CHHapticDynamicParameter(
                parameterID: .hapticIntensityControl, value: intensity, relativeTime: 0)
            try swishPlayer?.sendParameters([parameter], atTime: CHHapticTimeImmediate)
        }

        /// A collision's player, made per magnitude.
        func collisionPlayer(magnitude: Float) throws -> CHHapticPatternPlayer {
            let event = CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: magnitude)],
                relativeTime: 0)
            return try hapticEngine.makePlayer(with: CHHapticPattern(events: [event], parameters: []))
        }
    }

    static func simulatorEngine() -> CHHapticEngine {
        CHHapticEngine(engine: HapticEngine(simulating: .init()))
    }

    @Test("a tutorial-style manager plays a pattern, then stops the engine when its players finish")
    func sliceAndStop() async throws {
        let engine = Self.simulatorEngine()
        let stopped = Flag()
        engine.stoppedHandler = { reason in if reason == .notifyWhenFinished { stopped.set() } }
        try await onThread {
            let manager = try #require(HapticManager(engine: engine))
            try manager.playSlice()
            // The pattern lasts 0.25 s; the engine stops itself after.
            let deadline = Date().addingTimeInterval(20)
            while !stopped.isSet && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(stopped.isSet, "notifyWhenPlayersFinished's .stopEngine stops the engine")
        #expect(await !engine.engine.isRunning)
    }

    @Test("advanced players take dynamic parameters, loops, pause and resume; collisions make players per hit")
    func advancedAndCollisions() async throws {
        let engine = Self.simulatorEngine()
        try await onThread {
            let manager = try #require(HapticManager(engine: engine))
            try engine.start()
            try manager.createSwishPlayer()
            try manager.swishPlayer?.start(atTime: CHHapticTimeImmediate)
            try manager.updateSwishPlayer(intensity: 0.8)
            try manager.swishPlayer?.pause(atTime: CHHapticTimeImmediate)
            try manager.swishPlayer?.resume(atTime: CHHapticTimeImmediate)
            try manager.swishPlayer?.stop(atTime: CHHapticTimeImmediate)
            for magnitude: Float in [0.2, 0.6, 1.0] {
                try manager.collisionPlayer(magnitude: magnitude).start(atTime: CHHapticTimeImmediate)
            }
            #expect(engine.currentTime > 0)
        }
        let statistics = await engine.engine.statistics
        #expect(statistics.uploads == 4, "one swish and three collision timelines")
        try await engine.stop()
    }

    @Test("muting haptics after a player was made takes effect at its next start")
    func muteAppliesAtNextStart() async throws {
        let engine = Self.simulatorEngine()
        try await onThread {
            try engine.start()
            let pattern = try CHHapticPattern(
                events: [
                    CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0),
                    CHHapticEvent(eventType: .audioContinuous, parameters: [], relativeTime: 0, duration: 0.1),
                ], parameters: [])
            let early = try engine.makePlayer(with: pattern)
            engine.isMutedForHaptics = true
            try early.start(atTime: CHHapticTimeImmediate)
            // A player made now plays the same events: its timeline is the one already on the board.
            try engine.makePlayer(with: pattern).start(atTime: CHHapticTimeImmediate)
        }
        let statistics = await engine.engine.statistics
        #expect(statistics.uploads == 1, "the early player was remade without its haptic event")
        #expect(statistics.cacheHits == 1)
        try await engine.stop()
    }

    @Test("errors carry Core Haptics' codes")
    func errorCodes() async throws {
        let engine = Self.simulatorEngine()
        try await onThread {
            let pattern = try CHHapticPattern(
                events: [CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)], parameters: [])
            let player = try engine.makePlayer(with: pattern)
            #expect { try player.start(atTime: CHHapticTimeImmediate) } throws: { error in
                (error as? CHHapticError)?.code == .engineNotRunning
            }
            #expect {
                try CHHapticPattern(
                    events: [CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: -1)],
                    parameters: [])
            } throws: {
                ($0 as? CHHapticError)?.code == .invalidEventTime
            }
            #expect { try CHHapticPattern(dictionary: ["Version": 1.0]) } throws: {
                ($0 as? CHHapticError)?.code == .invalidPatternDictionary && "\($0)".contains("Pattern")
            }
            #expect { try engine.registerAudioResource(URL(fileURLWithPath: "/no/such/sound.wav")) } throws: {
                ($0 as? CHHapticError)?.code == .fileNotFound
            }
        }
    }

    @Test("audio resource options take CHHapticAudioResourceKey and Bool values; anything else is refused by name")
    func audioResourceOptions() throws {
        let engine = Self.simulatorEngine()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-options-\(UUID().uuidString).aiff")
        try Data("not audio".utf8).write(to: url)
        let id = try engine.registerAudioResource(
            url, options: [CHHapticAudioResourceKey.loopEnabled: true, "UseVolumeEnvelope": false])
        #expect(id > 0)
        #expect { try engine.registerAudioResource(url, options: ["Loop": true]) } throws: {
            ($0 as? CHHapticError)?.code == .invalidEngineParameter && "\($0)".contains("Loop")
        }
        #expect { try engine.registerAudioResource(url, options: [CHHapticAudioResourceKey.loopEnabled: 1]) } throws: {
            "\($0)".contains("LoopEnabled must be a Bool")
        }
    }

    @Test("capabilities give each parameter's range and default")
    func capabilities() throws {
        let capability = CHHapticEngine.capabilitiesForHardware()
        let intensity = try capability.attributes(forEventParameter: .hapticIntensity, eventType: .hapticTransient)
        #expect(intensity.minValue == 0 && intensity.maxValue == 1 && intensity.defaultValue == 0.75)
        let pan = try capability.attributes(forEventParameter: .audioPan, eventType: .audioContinuous)
        #expect(pan.minValue == -1 && pan.defaultValue == 0)
        let sharpness = try capability.attributes(forDynamicParameter: .hapticSharpnessControl)
        #expect(sharpness.minValue == -1 && sharpness.maxValue == 1 && sharpness.defaultValue == 0)
    }
}

/// Runs blocking code on a thread of its own (not Swift's cooperative pool), as an app's main
/// thread runs Core Haptics calls.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }.start()
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
