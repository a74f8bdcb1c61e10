import Foundation
import Testing
import Thrum
import ThrumCoreHaptics
import ThrumTesting

/// Every transition of the engine's life cycle (ThrumCoreHaptics.docc/EngineLifecycle.md) but the
/// finished handler's (FinishedHandlerTests.swift), in Swift 5 and Swift 6 language modes: this
/// file builds both client targets.
///
/// A stopped handler that was not called is shown so: the test then makes the engine stop for a
/// known reason (the board unplugged) and expects that reason alone. The engine's events arrive in
/// order on one queue, so a stop reported earlier would be heard first.
@Suite("The engine's life cycle, as Apple documents it", .serialized)
struct EngineLifecycleTests {
    // MARK: start and the app's stop

    @Test("start() runs the engine; the app's stop() stops it and the stopped handler is not called")
    func startAndAppStop() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops()
        #expect(await board.isRunning)
        let stopped = Latch()
        try await board.onMain { board.engine.stop { error in if error == nil { stopped.open() } } }
        try await board.wait { stopped.isOpen }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.start() }
        try await board.expectOnlyUnplugHeard(reasons)
    }

    @Test("without auto shutdown a player's start on a stopped engine throws engineNotRunning")
    func noWakeWithoutAutoShutdown() async throws {
        let board = VirtualBoard()
        let code = try await board.onMain { () -> Int in
            let player = try board.engine.makePlayer(with: FeedbackManager.tap())
            do {
                try player.start(atTime: 0)
                return 0
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code == CHHapticError.Code.engineNotRunning.rawValue)
        #expect(await !board.isRunning)
    }

    // MARK: auto shutdown

    @Test("auto shutdown: two minutes idle stop the engine with .idleTimeout; a player's start wakes it and plays")
    func idleTimeoutAndWake() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true)
        await board.clock.pass(.seconds(118), step: .milliseconds(10))
        #expect(await board.isRunning, "not idle two minutes yet")
        #expect(reasons.values.isEmpty)
        try await board.wait(limit: .seconds(5), step: .milliseconds(10)) { reasons.values == [.idleTimeout] }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.wait { board.playedTicks > 0 }
        #expect(await board.isRunning)
    }

    /// A player's request, made on a stopped engine.
    enum Request: String, CaseIterable, Sendable {
        case start, sendParameters, scheduleParameterCurve, pause, resume, seek, stop, cancel

        /// Whether it needs the engine: those start a stopped one; `stop` and `cancel` find
        /// nothing playing on it, so they have nothing to do.
        var wakes: Bool { self != .stop && self != .cancel }

        func make(on player: CHHapticAdvancedPatternPlayer) throws {
            switch self {
            case .start: try player.start(atTime: 0)
            case .sendParameters:
                try player.sendParameters(
                    [CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: 0)],
                    atTime: 0)
            case .scheduleParameterCurve:
                let points = [CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 0.5)]
                try player.scheduleParameterCurve(
                    CHHapticParameterCurve(
                        parameterID: .hapticIntensityControl, controlPoints: points, relativeTime: 0),
                    atTime: 0)
            case .pause: try player.pause(atTime: 0)
            case .resume: try player.resume(atTime: 0)
            case .seek: try player.seek(toOffset: 0)
            case .stop: try player.stop(atTime: 0)
            case .cancel: try player.cancel()
            }
        }
    }

    @Test(
        "auto shutdown: a player's request on an engine the app stopped starts it, if the request needs it",
        arguments: Request.allCases)
    func requestWakes(_ request: Request) async throws {
        let board = VirtualBoard()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            try board.engine.start()
        }
        try await board.clock.drive { try await board.engine.stop() }
        #expect(await !board.isRunning)
        try await board.onMain { try request.make(on: board.engine.makeAdvancedPlayer(with: FeedbackManager.tap())) }
        #expect(await board.isRunning == request.wakes)
        if request == .start { try await board.wait { board.playedTicks > 0 } }
    }
    // MARK: stops the engine reports

    @Test("an engine destroyed while it runs stops, and its stopped handler hears .engineDestroyed")
    func destroyed() async throws {
        let clock = ManualClock()
        let thrum = HapticEngine(manualClock: clock, open: BoardSocket(clock: clock).plugIn)
        let reasons = Reasons()
        try await clock.drive {
            let engine = CHHapticEngine(engine: thrum)
            engine.stoppedHandler = { reasons.append($0) }
            try await engine.start()
        }
        try await clock.drive { while reasons.values != [.engineDestroyed] { await Task.yield() } }
        #expect(await !thrum.isRunning)
    }

    @Test(
        "a board unplugged while running stops the engine with .systemError; with auto shutdown a player's start reconnects"
    )
    func unpluggedThenWakes() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true)
        await board.socket.unplug()
        try await board.wait { reasons.values == [.systemError] }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.wait { board.playedTicks > 0 }
    }

    @Test("a game controller's engine (ThrumDeviceHaptics) whose board goes away hears .gameControllerDisconnect")
    func controllerDisconnected() async throws {
        let clock = ManualClock()
        let socket = BoardSocket(clock: clock)
        let haptics = ThrumDeviceHaptics(engine: HapticEngine(manualClock: clock, open: socket.plugIn))
        let reasons = Reasons()
        // createEngine blocks, as Apple's calls do: on the main thread, not one of Swift's few.
        let engine = try await clock.drive {
            try await MainActor.run { try #require(haptics.createEngine(withLocality: .all)) }
        }
        engine.stoppedHandler = { reasons.append($0) }
        try await clock.drive { try await engine.start() }
        await socket.unplug()
        try await clock.drive { while reasons.values != [.gameControllerDisconnect] { await Task.yield() } }
        #expect(await !haptics.engine.isRunning)
    }

    @Test("a board that reboots calls the reset handler, not the stopped handler; a player's start wakes the engine")
    func resetThenWakes() async throws {
        let board = VirtualBoard()
        let reasons = try await board.recordingStops(autoShutdown: true)
        let reset = Latch()
        try await board.onMain { board.engine.resetHandler = { reset.open() } }
        board.socket.pressReset()
        try await board.wait { reset.isOpen }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.wait { board.playedTicks > 0 }
        try await board.expectOnlyUnplugHeard(reasons)
    }
}
