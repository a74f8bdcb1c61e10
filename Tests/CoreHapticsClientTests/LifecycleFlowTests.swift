import Foundation
import Testing
import ThrumCoreHaptics

/// Issue 25's flow (LifecycleClients.swift's `BackgroundHaptics`) plays, as with Core Haptics:
/// as the app writes it, and with the finished handler's answer and the starts in either order.
@Suite("An engine prepared before its players", .serialized)
struct LifecycleFlowTests {
    @Test("issue 25's flow plays: background start after a finished handler that stops the engine, then a player")
    func backgroundFlow() async throws {
        let board = VirtualBoard()
        let app = BackgroundHaptics(engine: board.engine)
        let ready = Latch()
        try await board.onMain { app.prepare { error in if error == nil { ready.open() } } }
        try await board.wait { ready.isOpen }
        try await board.onMain { try app.playTap() }
        try await board.wait { board.playedTicks > 0 }
        #expect(await board.isRunning)
        await board.socket.unplug()
        try await board.wait { app.stopReasons.contains(.systemError) }
        #expect(app.stopReasons == [.systemError], "the finished handler's .stopEngine had no run to end")
    }

    @Test("flow: the finished handler answers before start(); the start and the player's start play")
    func flowAnswerFirst() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true, starting: false)
        let called = Latch()
        try await board.onMain {
            board.engine.notifyWhenPlayersFinished { _ in
                called.open()
                return .stopEngine
            }
        }
        try await board.wait { called.isOpen }
        try await board.drain()
        try await board.onMain {
            try board.engine.start()
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
        }
        try await board.wait { board.playedTicks > 0 }
        try await board.expectOnlyUnplugHeard(reasons)
    }

    @Test("flow: start() and the player's start come before the answer; .stopEngine leaves the new run running")
    func flowStartBeforeAnswer() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true, starting: false)
        let gate = try await board.heldStopEngineAnswer()
        try await board.onMain {
            try board.engine.start()
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
        }
        gate.open()
        try await board.drain()
        try await board.wait { board.playedTicks > 0 }
        #expect(await board.isRunning, "the handler was called while the engine was stopped: no run to end")
        try await board.expectOnlyUnplugHeard(reasons)
    }

    @Test("flow: a player's start while the app's start is still under way waits for it, and plays")
    func playerStartDuringStart() async throws {
        let board = VirtualBoard()
        let started = Latch()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            board.engine.start { error in if error == nil { started.open() } }
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
        }
        try await board.wait { started.isOpen && board.playedTicks > 0 }
    }
}
