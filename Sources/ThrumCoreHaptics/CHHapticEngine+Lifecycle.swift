import Foundation
import Thrum

/// Starting and stopping, and the handlers that hear of it: the state machine that
/// <doc:EngineLifecycle> draws, transition by transition.
extension CHHapticEngine {
    public func start() throws {
        try blocking { try await self.engine.start() }
    }

    public func start(completionHandler: CompletionHandler? = nil) {
        detached({ try await self.engine.start() }, completion: completionHandler, on: callbacks)
    }

    /// Stops the engine. As in Core Haptics the stopped handler is not called: the app knows why.
    public func stop(completionHandler: CompletionHandler? = nil) {
        detached({ await self.engine.stop() }, completion: completionHandler, on: callbacks)
    }

    /// The `async` forms Swift makes of Core Haptics' completion-handler methods.
    public func start() async throws {
        do { try await engine.start() } catch { throw CHHapticError(error) }
    }

    public func stop() async throws {
        await engine.stop()
    }

    /// Called when the engine stopped for a reason of its own: `.idleTimeout`,
    /// `.notifyWhenFinished`, `.engineDestroyed`, `.systemError`, and for an engine made by
    /// ``ThrumDeviceHaptics`` whose board went away, `.gameControllerDisconnect`. Not for the
    /// app's `stop`.
    public var stoppedHandler: StoppedHandler {
        get {
            let handler: StoppedHandler? = state.withLock { $0.stopped }
            return handler ?? { _ in }
        }
        set { state.withLock { $0.stopped = newValue } }
    }

    public var resetHandler: ResetHandler {
        get {
            let handler: ResetHandler? = state.withLock { $0.reset }
            return handler ?? {}
        }
        set { state.withLock { $0.reset = newValue } }
    }

    /// Calls `finishedHandler` on the callback queue once every player has finished (or stopped
    /// with the engine), or at once when none plays or the engine is stopped, as Apple documents.
    ///
    /// Its answer `.stopEngine` is carried out before the queue moves on, and ends only the run the
    /// handler was called in: the stopped handler then hears `.notifyWhenFinished`. When the engine
    /// was stopped at the call, or has stopped or started again since, there is nothing to end and
    /// the engine is left as it is: a `start()` made while the handler ran is not undone.
    public func notifyWhenPlayersFinished(finishedHandler: @escaping FinishedHandler) {
        let handler = Unchecked(finishedHandler)
        let (engine, callbacks) = (engine, callbacks)
        try? blocking {
            await engine.notifyWhenPlayersFinishedOrNow { error, run in
                let reported = error.map { CHHapticError($0) }
                callbacks.deliver {
                    guard handler.value(reported) == .stopEngine, let run else { return }
                    try? blocking { await engine.stop(reporting: .notifyWhenFinished, endingOnly: run) }
                }
                return .leaveEngineRunning
            }
        }
    }

    /// Core Haptics shuts an idle engine down "after approximately two minutes of inactivity".
    static let autoShutdownDelay: Duration = .seconds(120)

    /// After two minutes with nothing playing the board's drivers go to standby and the engine
    /// stops with `.idleTimeout`. A stopped engine starts again on request from one of its
    /// players (start, `sendParameters`, `scheduleParameterCurve`, `pause`, `resume`, `seek`),
    /// whatever stopped it, as Apple documents: the engine "starts and stops automatically on
    /// request from one of its pattern players, or when idle".
    public var isAutoShutdownEnabled: Bool {
        get { state.withLock { $0.settings.autoShutdown } }
        set {
            state.withLock { $0.settings.autoShutdown = newValue }
            try? blocking { await self.engine.setAutoShutdown(enabled: newValue, after: Self.autoShutdownDelay) }
        }
    }

    /// Delivers the engine's stops and resets to the handlers on the callback queue, in order.
    func watch() {
        let events = engine.events
        watcher = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                switch event {
                case .stopped(let reason):
                    let mapped = self.stoppedReason(reason)
                    let handler = Unchecked(self.stoppedHandler)
                    self.callbacks.deliver { handler.value(mapped) }
                case .reset:
                    let handler = Unchecked(self.resetHandler)
                    self.callbacks.deliver { handler.value() }
                default:
                    continue
                }
            }
        }
    }

    /// Apple's reason for a Thrum engine's stop: a board fault or a lapsed keep-alive is a system
    /// error to Core Haptics code, and so is a lost device, but to a game controller's engine.
    func stoppedReason(_ reason: Thrum.StoppedReason) -> StoppedReason {
        switch reason {
        case .idleTimeout: .idleTimeout
        case .notifyWhenFinished: .notifyWhenFinished
        case .deviceLost: state.withLock { $0.deviceLoss }
        case .boardFault, .keepAliveLapsed, .systemError: .systemError
        }
    }

    /// Core Haptics: an engine destroyed while it runs stops, and its stopped handler hears
    /// `.engineDestroyed`. Runs from `deinit`, so it takes what it needs and not `self`.
    func stopBecauseDestroyed() {
        let handler = Unchecked(state.withLock { $0.stopped })
        let (engine, callbacks) = (engine, callbacks)
        Task {
            let wasRunning = await engine.isRunning
            await engine.stop()
            guard wasRunning, let stopped = handler.value else { return }
            callbacks.deliver { stopped(.engineDestroyed) }
        }
    }
}
