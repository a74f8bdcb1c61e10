import Foundation
import Testing
import Thrum
import ThrumCoreHaptics
import ThrumTesting

/// Every transition of the engine's life cycle (ThrumCoreHaptics.docc/EngineLifecycle.md), and
/// issue 25's flow, in Swift 5 and Swift 6 language modes: this file builds both client targets.
///
/// A stopped handler that was not called is shown so: the test then makes the engine stop for a
/// known reason (the board unplugged) and expects that reason alone. The engine's events arrive in
/// order on one queue, so a stop reported earlier would be heard first.
@Suite("The engine's life cycle, as Apple documents it", .serialized)
struct EngineLifecycleTests {
    // MARK: issue 25's flow

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
        let reasons = Reasons()
        let called = Latch()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            board.engine.stoppedHandler = { reasons.append($0) }
            board.engine.notifyWhenPlayersFinished { _ in
                called.open()
                return .stopEngine
            }
        }
        try await board.wait { called.isOpen }
        try await drain(board)
        try await board.onMain {
            try board.engine.start()
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
        }
        try await board.wait { board.playedTicks > 0 }
        try await expectOnlyUnplugHeard(board, reasons)
    }

    @Test("flow: start() and the player's start come before the answer; .stopEngine leaves the new run running")
    func flowStartBeforeAnswer() async throws {
        let board = VirtualBoard()
        let reasons = Reasons()
        let gate = try await heldStopEngineAnswer(board, reasons, startingFirst: false, autoShutdown: true)
        try await board.onMain {
            try board.engine.start()
            try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0)
        }
        gate.open()
        try await drain(board)
        try await board.wait { board.playedTicks > 0 }
        #expect(await board.isRunning, "the handler was called while the engine was stopped: no run to end")
        try await expectOnlyUnplugHeard(board, reasons)
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

    // MARK: start and the app's stop

    @Test("start() runs the engine; the app's stop() stops it and the stopped handler is not called")
    func startAndAppStop() async throws {
        let board = VirtualBoard()
        let reasons = Reasons()
        try await board.onMain {
            board.engine.stoppedHandler = { reasons.append($0) }
            try board.engine.start()
        }
        #expect(await board.isRunning)
        let stopped = Latch()
        try await board.onMain { board.engine.stop { error in if error == nil { stopped.open() } } }
        try await board.wait { stopped.isOpen }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.start() }
        try await expectOnlyUnplugHeard(board, reasons)
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
        let reasons = Reasons()
        try await board.onMain {
            board.engine.stoppedHandler = { reasons.append($0) }
            try board.engine.start()
            board.engine.isAutoShutdownEnabled = true
        }
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

    // MARK: the finished handler

    @Test(".stopEngine after the players finished stops the engine with .notifyWhenFinished; a player's start wakes it")
    func finishedStopsThenWakes() async throws {
        let board = VirtualBoard()
        let reasons = Reasons()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            board.engine.stoppedHandler = { reasons.append($0) }
            try board.engine.start()
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
        let reasons = Reasons()
        let gate = try await heldStopEngineAnswer(board, reasons, startingFirst: true)
        try await board.onMain { try board.engine.start() }  // already running: no new run
        gate.open()
        try await board.wait { reasons.values == [.notifyWhenFinished] }
        #expect(await !board.isRunning)
    }

    @Test("stop() and start() between the call and a .stopEngine answer: the later run keeps running")
    func restartBetween() async throws {
        let board = VirtualBoard()
        let reasons = Reasons()
        let gate = try await heldStopEngineAnswer(board, reasons, startingFirst: true)
        try await board.clock.drive { try await board.engine.stop() }
        try await board.clock.drive { try await board.engine.start() }
        gate.open()
        try await drain(board)
        #expect(await board.isRunning, "the answer was about the run that the app's stop() ended")
        try await expectOnlyUnplugHeard(board, reasons)
    }

    @Test("a finished handler still waiting hears the app's stop(); its .stopEngine stops nothing later")
    func waitingHandlerHearsStop() async throws {
        let board = VirtualBoard()
        let reasons = Reasons()
        let heard = Latch()
        try await board.onMain {
            board.engine.stoppedHandler = { reasons.append($0) }
            try board.engine.start()
            try board.engine.makePlayer(with: Self.longBuzz()).start(atTime: 0)
            board.engine.notifyWhenPlayersFinished { _ in
                heard.open()
                return .stopEngine
            }
        }
        try await board.clock.drive { try await board.engine.stop() }
        try await board.wait { heard.isOpen }
        try await board.onMain { try board.engine.start() }
        try await drain(board)
        #expect(await board.isRunning)
        try await expectOnlyUnplugHeard(board, reasons)
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
        let reasons = Reasons()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            board.engine.stoppedHandler = { reasons.append($0) }
            try board.engine.start()
        }
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
        let reasons = Reasons()
        let reset = Latch()
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = true
            board.engine.stoppedHandler = { reasons.append($0) }
            board.engine.resetHandler = { reset.open() }
            try board.engine.start()
        }
        board.socket.pressReset()
        try await board.wait { reset.isOpen }
        #expect(await !board.isRunning)
        try await board.onMain { try board.engine.makePlayer(with: FeedbackManager.tap()).start(atTime: 0) }
        try await board.wait { board.playedTicks > 0 }
        try await expectOnlyUnplugHeard(board, reasons)
    }

    // MARK: NSObject bases

    @Test("the classes are NSObjects and the protocols NSObjectProtocol's, as Objective-C-era code needs")
    func objectBases() async throws {
        let (count, found) = try ObjectiveCStyle.arrayOfValues()
        #expect(count == 6 && found)
        let board = VirtualBoard()
        let names = try await board.onMain { () -> [String] in
            let player = try board.engine.makeAdvancedPlayer(with: FeedbackManager.tap())
            let capability = CHHapticEngine.capabilitiesForHardware()
            let attributes = try capability.attributes(forDynamicParameter: .hapticIntensityControl)
            #expect(ObjectiveCStyle.sameObject(player, player) && !ObjectiveCStyle.sameObject(player, capability))
            #expect(ObjectiveCStyle.sameObject(attributes, attributes))
            player.completionHandler = { _ in }
            let handler: CHHapticAdvancedPatternPlayerCompletionHandler = player.completionHandler
            handler(nil)
            return [ObjectiveCStyle.describe(board.engine), ObjectiveCStyle.describe(try FeedbackManager.tap())]
        }
        #expect(names == ["CHHapticEngine", "CHHapticPattern"])
    }

    // MARK: helpers

    static func longBuzz() throws -> CHHapticPattern {
        try CHHapticPattern(
            events: [CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 0, duration: 10)],
            parameters: [])
    }

    /// Sets the stopped handler (into `reasons`) and a finished handler that answers `.stopEngine`
    /// only once the test opens the gate it returns; returns once the engine has called it.
    func heldStopEngineAnswer(
        _ board: VirtualBoard, _ reasons: Reasons, startingFirst: Bool, autoShutdown: Bool = false
    ) async throws -> Gate {
        let (called, gate) = (Latch(), Gate())
        try await board.onMain {
            board.engine.isAutoShutdownEnabled = autoShutdown
            board.engine.stoppedHandler = { reasons.append($0) }
            if startingFirst { try board.engine.start() }
            board.engine.notifyWhenPlayersFinished { _ in
                called.open()
                gate.wait()
                return .stopEngine
            }
        }
        try await board.wait { called.isOpen }
        return gate
    }

    /// Waits until every callback queued so far has run: a finished handler registered now is
    /// called at once (nothing plays) or when the players finish, after those before it.
    func drain(_ board: VirtualBoard) async throws {
        let drained = Latch()
        try await board.onMain {
            board.engine.notifyWhenPlayersFinished { _ in
                drained.open()
                return .leaveEngineRunning
            }
        }
        try await board.wait { drained.isOpen }
    }

    /// Unplugs the running board and expects the stopped handler to have heard that, and nothing before.
    func expectOnlyUnplugHeard(
        _ board: VirtualBoard, _ reasons: Reasons, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(await board.isRunning, sourceLocation: sourceLocation)
        await board.socket.unplug()
        try await board.wait { reasons.values.contains(.systemError) }
        #expect(reasons.values == [.systemError], sourceLocation: sourceLocation)
    }
}

/// What a stopped handler heard, readable from any thread.
final class Reasons: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [CHHapticEngine.StoppedReason] = []
    var values: [CHHapticEngine.StoppedReason] { lock.withLock { heard } }
    func append(_ reason: CHHapticEngine.StoppedReason) { lock.withLock { heard.append(reason) } }
}

/// Holds a handler on the engine's queue until the test opens it.
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func open() { semaphore.signal() }
}
