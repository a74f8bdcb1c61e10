import Foundation
import Testing
import ThrumCoreHaptics

/// A finished handler's `.stopEngine` ends the run it was called in, and no later one.
@Suite("The finished handler's answer", .serialized)
struct FinishedHandlerTests {
    @Test(".stopEngine after the players finished stops the engine with .notifyWhenFinished; a player's start wakes it")
    func finishedStopsThenWakes() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true)
        try await board.onMain {
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
            board.engine.notifyWhenPlayersFinished { _ in .stopEngine }
        }
        try await board.wait { reasons.values == [.notifyWhenFinished] }
        #expect(await !board.isRunning)
        let before = board.playedTicks
        try await board.onMain { try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.wait { board.playedTicks > before }
        #expect(await board.isRunning)
    }

    @Test("start() between the call and a .stopEngine answer on a running engine: the run is the same, and stops")
    func startBetweenOnRunningEngine() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops()
        let gate = try await board.heldStopEngineAnswer()
        try await board.onMain { try board.engine.start() }  // already running: no new run
        gate.open()
        try await board.wait { reasons.values == [.notifyWhenFinished] }
        #expect(await !board.isRunning)
    }

    @Test("stop() and start() between the call and a .stopEngine answer: the later run keeps running")
    func restartBetween() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops()
        let gate = try await board.heldStopEngineAnswer()
        try await board.clock.drive { try await board.engine.stop() }
        try await board.clock.drive { try await board.engine.start() }
        gate.open()
        try await board.drain()
        #expect(await board.isRunning, "the answer was about the run that the app's stop() ended")
        try await board.expectOnlyUnplugHeard(reasons)
    }

    @Test("a finished handler still waiting hears the app's stop(); its .stopEngine stops nothing later")
    func waitingHandlerHearsStop() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops()
        let heard = Latch()
        try await board.onMain {
            try board.engine.makePlayer(with: Self.longBuzz()).start(atTime: 0)
            board.engine.notifyWhenPlayersFinished { _ in
                heard.open()
                return .stopEngine
            }
        }
        try await board.clock.drive { try await board.engine.stop() }
        try await board.wait { heard.isOpen }
        try await board.onMain { try board.engine.start() }
        try await board.drain()
        #expect(await board.isRunning)
        try await board.expectOnlyUnplugHeard(reasons)
    }

    static func longBuzz() throws -> CHHapticPattern {
        try CHHapticPattern(
            events: [CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 0, duration: 10)],
            parameters: [])
    }
}
