import Foundation
import Testing
import ThrumCoreHaptics

/// Core Haptics client code (AppStyleClients.swift) running on the embedded simulator. Each test
/// failed before ThrumCoreHaptics matched Apple's API in the way it exercises.
@Suite("Core Haptics clients run unchanged", .serialized)
struct ClientTests {
    @Test("handlers written in main-actor code run on the engine's queue and may hop to the main queue")
    func mainActorHandlers() async throws {
        let board = VirtualBoard()
        try await board.onMain {
            FeedbackManager.stopReasons = []
            FeedbackManager.finishedCalls = 0
            let manager = FeedbackManager(engine: board.engine)
            try manager.playTapThenStop()
        }
        try await board.wait {
            FeedbackManager.finishedCalls == 1 && FeedbackManager.stopReasons == [.notifyWhenFinished]
        }
        #expect(HandlerThreads.shared.wereMain.last == false, "Core Haptics calls handlers on an internal queue")
    }

    @Test("a completion handler restarts its own player 20 times")
    func reentrantCompletion() async throws {
        let board = VirtualBoard()
        let finished = Latch()
        MainThreadCounter.shared.reset()
        let manager = try await board.onMain {
            let manager = FeedbackManager(engine: board.engine)
            try manager.startHeartbeat(times: 20) { finished.open() }
            return Unchecked(manager)
        }
        try await board.wait { finished.isOpen && manager.value.restarts == 20 }
        let error = await MainActor.run { manager.value.lastError.map { "\($0)" } }
        #expect(error == nil)
    }

    @Test("notifyWhenPlayersFinished answers at once when no player plays")
    func finishedWhenIdle() async throws {
        let board = VirtualBoard()
        let called = Latch()
        try await board.onMain {
            board.engine.notifyWhenPlayersFinished { _ in
                called.open()
                return .leaveEngineRunning
            }
        }
        try await board.wait { called.isOpen }
    }

    @Test("start and stop completion handlers are called")
    func completionForms() async throws {
        let board = VirtualBoard()
        let started = Latch()
        let stopped = Latch()
        try await board.onMain {
            board.engine.start { error in if error == nil { started.open() } }
        }
        try await board.wait { started.isOpen }
        try await board.onMain {
            board.engine.stop { error in if error == nil { stopped.open() } }
        }
        try await board.wait { stopped.isOpen }
    }

    @Test("the async forms of start and stop")
    func asyncForms() async throws {
        let board = VirtualBoard()
        let engine = board.engine
        try await board.clock.drive { try await engine.start() }
        try await board.onMain { try engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.clock.drive { try await engine.stop() }
        await #expect(throws: CHHapticError.self) {
            try await board.onMain { try engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        }
    }

    @Test("an app's Decodable subclasses of the value classes read an AHAP file that plays")
    func decodableSubclasses() async throws {
        let text = """
            {"Version": 1.0, "Pattern": [
              {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.5,
                 "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}},
              {"Event": {"Time": 0.5, "EventType": "HapticTransient",
                 "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0.0}]}},
              {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.0,
                 "ParameterCurveControlPoints": [{"Time": 0.0, "ParameterValue": 0.0}, {"Time": 0.5, "ParameterValue": 1.0}]}}
            ]}
            """
        let document = try JSONDecoder().decode(AHAPDocument.self, from: Data(text.utf8))
        let events = document.pattern.compactMap(\.event)
        #expect(events.map(\.type) == [.hapticContinuous, .hapticTransient])
        let pattern = try document.hapticPattern()
        #expect(pattern.duration == 0.5)
        // The subclassed pattern and the file read by Thrum are the same pattern.
        let exported = try pattern.exportDictionary()
        let reread = try CHHapticPattern(dictionary: PatternDictionaries.fromJSON(text) ?? [:]).exportDictionary()
        #expect(NSDictionary(dictionary: exported) == NSDictionary(dictionary: reread))
        let board = VirtualBoard()
        try await board.onMain {
            try board.engine.start()
            let pattern = try JSONDecoder().decode(AHAPDocument.self, from: Data(text.utf8)).hapticPattern()
            try board.engine.makePlayer(with: pattern).start(atTime: CHHapticTimeImmediate)
        }
    }

    @Test("a plug-in hands players across a C boundary with Unmanaged and reports NSError codes")
    func pluginBoundary() async throws {
        let board = VirtualBoard()
        let stopped = Latch()
        let (pointer, running) = try await board.onMain { () -> (Unchecked<UnsafeMutableRawPointer>, Int) in
            try board.engine.start()
            let player = try board.engine.makeAdvancedPlayer(with: FeedbackManager.tap())
            let pointer = HapticsPlugin.retain(player)
            #expect(HapticsPlugin.player(pointer) === player)
            let running = HapticsPlugin.start(pointer)
            board.engine.stop { _ in stopped.open() }
            return (Unchecked(pointer), running)
        }
        try await board.wait { stopped.isOpen }
        let afterStop = try await board.onMain { HapticsPlugin.start(pointer.value) }
        HapticsPlugin.release(pointer.value)
        #expect(running == 0)
        #expect(afterStop == -4805, "engineNotRunning, as the plug-in's managed side expects")
    }

    @Test("a library's own player conforms to the protocol and is stored beside real ones")
    func mockPlayers() async throws {
        let board = VirtualBoard()
        let calls = try await board.onMain { () -> [String] in
            let mock = RecordingPlayer()
            var players: [CHHapticPatternPlayer] = [mock]
            players.append(try board.engine.makePlayer(with: FeedbackManager.tap()))
            let pointer = Unmanaged<CHHapticPatternPlayer>.passUnretained(players[0]).toOpaque()
            #expect(Unmanaged<CHHapticPatternPlayer>.fromOpaque(pointer).takeUnretainedValue() === mock)
            try players[0].start(atTime: 1.5)
            try players[0].cancel()
            return mock.calls
        }
        #expect(calls == ["start 1.5", "cancel"])
    }

    @Test("errors bridge to NSError in Core Haptics' domain and match as Apple's codes do")
    func errorBridging() async throws {
        let board = VirtualBoard()
        let outcome = try await board.onMain { () -> (String, Int, Bool) in
            let player = try board.engine.makePlayer(with: FeedbackManager.tap())
            do {
                try player.start(atTime: CHHapticTimeImmediate)
                return ("", 0, false)
            } catch CHHapticError.engineNotRunning {
                do { try player.start(atTime: CHHapticTimeImmediate) } catch {
                    let (domain, code) = HapticsPlugin.describe(error)
                    return (domain, code, true)
                }
                return ("", 0, true)
            }
        }
        #expect(outcome == ("com.apple.CoreHaptics", -4805, true))
        #expect {
            try CHHapticPattern(dictionary: [.version: 1.0])
        } throws: { error in
            (error as NSError).code == CHHapticError.Code.invalidPatternDictionary.rawValue
                && (error as NSError).domain == CHHapticErrorDomain
        }
    }

    @Test("pattern dictionaries built with CHHapticPattern.Key, and from JSONSerialization, make patterns")
    func dictionaries() throws {
        let keyed = try CHHapticPattern(dictionary: PatternDictionaries.keyed(intensity: 1))
        #expect(keyed.duration == 1.0)
        // Numbers that are exactly 0 and 1 are numbers, not booleans.
        let text = """
            {"Version": 1, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 1.0,
              "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0},
                                  {"ParameterID": "HapticSharpness", "ParameterValue": 0}]}}]}
            """
        let dictionary = try #require(
            try PatternDictionaries.fromJSON(text), "the cast to [CHHapticPattern.Key: Any] succeeds")
        #expect(dictionary[.version] != nil)
        let fromJSON = try CHHapticPattern(dictionary: dictionary)
        #expect(fromJSON.duration == 1.0)
        let exported = try fromJSON.exportDictionary()
        let roundTrip = try CHHapticPattern(dictionary: exported)
        #expect(NSDictionary(dictionary: try roundTrip.exportDictionary()) == NSDictionary(dictionary: exported))
        #expect(
            CHHapticPattern.Key(rawValue: "Pattern") == .pattern && CHHapticPattern.Key.pattern.rawValue == "Pattern")
    }

    @Test("playPattern(from:) starts a stopped engine, as Core Haptics does")
    func playPatternStarts() async throws {
        let board = VirtualBoard()
        let ahap = #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticTransient"}}]}"#
        try await board.onMain { try board.engine.playPattern(from: Data(ahap.utf8)) }
    }

    @Test("an engine made with the app's own audio session type, or nil, starts and stops")
    func audioSession() async throws {
        for engine in [
            try CHHapticEngine(audioSession: AVAudioSession.sharedInstance()), try CHHapticEngine(audioSession: nil),
        ] {
            try await engine.start()
            try await engine.stop()
        }
    }
}

/// Opens once; readable from any thread.
final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    var isOpen: Bool {
        lock.lock()
        defer { lock.unlock() }
        return opened
    }
    func open() {
        lock.lock()
        opened = true
        lock.unlock()
    }
}

/// Hands a main-actor object back to the test (it is only read on the main actor).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
