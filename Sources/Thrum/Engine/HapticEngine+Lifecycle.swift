import Foundation
import Logging
import ThrumWire

/// Starting and stopping, auto shutdown, the app's handlers, and what the link reports.
extension HapticEngine {
    /// Whether the engine puts the board's drivers in standby after ``autoShutdownDelay`` with
    /// no player playing, and stops with ``StoppedReason/idleTimeout``; the next ``start()``
    /// wakes them (Core Haptics' `isAutoShutdownEnabled`).
    public var isAutoShutdownEnabled: Bool { idle.isEnabled }
    public var autoShutdownDelay: Duration { idle.delay }

    /// Called when the engine stops for a reason other than ``stop()``.
    public var stoppedHandler: (@Sendable (StoppedReason) -> Void)? {
        get { handlers.stopped }
        set { handlers.stopped = newValue }
    }

    /// Called when the board rebooted; restart the engine from it (players keep working).
    public var resetHandler: (@Sendable () -> Void)? {
        get { handlers.reset }
        set { handlers.reset = newValue }
    }

    /// Opens the device (once), shakes hands with the board and wakes its drivers.
    ///
    /// A call that comes while a start is under way waits for it, then returns if the engine runs
    /// or tries a start of its own if that one failed: a second handshake on the same link would
    /// leave the first caller waiting for ever. The start itself runs in its caller's task, so
    /// cancelling that caller still cancels the handshake (a probe that timed out).
    public func start() async throws {
        if isRunning { return }
        guard session.startWaiters == nil else {
            await withCheckedContinuation { session.startWaiters?.append($0) }
            return try await start()
        }
        session.startWaiters = []
        defer {
            for waiter in session.startWaiters ?? [] { waiter.resume() }
            session.startWaiters = nil
        }
        try await startNow()
    }

    /// After `start()` found the engine stopped, with no suspension since.
    private func startNow() async throws {
        let link = try session.openLink { link in
            Task { [weak self] in
                for await event in link.notifications {
                    await self?.handle(event, from: link)
                }
            }
        }
        let capabilities = try await link.connect()
        session.capabilities = capabilities
        players.resize(to: capabilities.players)
        session.channels = BoardChannels(
            unnamed: capabilities.channels.count, canTarget: BoardChannels.supportsTargeting(capabilities.version))
        try await link.command { .engineStart(tag: $0) }
        session.isRunning = true
        session.lostTo = nil
        streams.cutOff.removeAll()
        log.logger.info("started", metadata: ["board": "\(capabilities.boardName)"])
        emit.yield(.started)
        noteActivity()
    }

    /// Stops every player, puts the drivers in standby and closes the device.
    public func stop() async {
        guard let link = session.link else { return }
        if isRunning { await session.standby(link) }
        await shutDown(link: link, reason: nil)
    }

    /// Stops as ``stop()`` does, then tells the stopped handler and the events why (Core Haptics'
    /// layer: a finished handler that answered `.stopEngine` on its own queue).
    package func stop(reporting reason: StoppedReason) async {
        guard let link = session.link else { return }
        if isRunning { await session.standby(link) }
        await shutDown(link: link, reason: reason)
    }

    /// Stops as ``stop(reporting:)`` does if `run` is still going on; a run that began since,
    /// or an engine stopped meanwhile, is left as it is.
    package func stop(reporting reason: StoppedReason, endingOnly run: EngineRun) async {
        guard currentRun == run else { return }
        await stop(reporting: reason)
    }

    /// The run going on now; nil while the engine is stopped.
    package var currentRun: EngineRun? { isRunning ? EngineRun(number: session.runsBegun) : nil }

    /// Calls `handler` once every player has finished (or stopped with the engine); its answer
    /// says whether the engine stops. A `.stopEngine` ends only the run in which it was called.
    public func notifyWhenPlayersFinished(_ handler: @escaping @Sendable ((any Error)?) -> FinishedAction) {
        handlers.finished = { error, _ in handler(error) }
    }

    /// Core Haptics' form: when the engine is stopped or no player plays, `handler` is called at
    /// once (as Apple documents); otherwise once every player has finished. It hears the run it
    /// is called in (nil: stopped), for a `.stopEngine` carried out later on its own queue.
    package func notifyWhenPlayersFinishedOrNow(
        _ handler: @escaping @Sendable ((any Error)?, EngineRun?) -> FinishedAction
    ) {
        if !isRunning || nothingPlaying {
            handlers.finished = nil
            let run = currentRun
            if handler(nil, run) == .stopEngine { stopSoon(reporting: .notifyWhenFinished, ending: run) }
        } else {
            handlers.finished = handler
        }
    }

    public func setAutoShutdown(enabled: Bool, after delay: Duration = .seconds(2)) {
        idle.configure(enabled: enabled, delay: delay)
        noteActivity()
    }

    public func setStoppedHandler(_ handler: (@Sendable (StoppedReason) -> Void)?) { handlers.stopped = handler }
    public func setResetHandler(_ handler: (@Sendable () -> Void)?) { handlers.reset = handler }

    /// No board player busy and no streamed pattern between pieces.
    var nothingPlaying: Bool { players.activeCount == 0 && streams.isEmpty }

    /// Something played or stopped: restart the idle countdown if nothing plays now.
    func noteActivity() {
        let canIdle = isRunning && nothingPlaying && session.link != nil
        guard let generation = idle.activity(canIdle: canIdle), let link = session.link else { return }
        let clock = session.clock
        let deadline = clock.now + idle.delay
        Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.idleTimedOut(generation: generation, link: link)
        }
    }

    private func idleTimedOut(generation: Int, link source: BoardLink) async {
        guard idle.isCurrent(generation), isRunning, nothingPlaying, source === session.link else { return }
        session.isRunning = false
        await session.standby(source)
        reportStopped(.idleTimeout)
    }

    /// Tells the log, the events' subscribers and the stopped handler why the engine stopped by
    /// itself: a notice when it was not asked to (the handler and the events are the app's word on it).
    private func reportStopped(_ reason: StoppedReason) {
        let asked = reason == .idleTimeout || reason == .notifyWhenFinished
        log.logger.log(level: asked ? .info : .notice, "stopped by itself", metadata: ["reason": "\(reason)"])
        emit.yield(.stopped(reason))
        handlers.stopped?(reason)
    }

    /// Ends `run` in a task of its own: a finished handler asked to, and its caller must not wait.
    /// By then the app may have stopped and started again; that later run keeps running.
    private func stopSoon(reporting reason: StoppedReason, ending run: EngineRun?) {
        guard let run else { return }
        Task { [weak self] in await self?.stop(reporting: reason, endingOnly: run) }
    }

    /// The engine stopped, and every player with it: a finished handler still waiting hears so.
    /// Its answer has no run left to stop.
    private func playersStoppedWithEngine(run: EngineRun?, error: (any Error)? = nil) {
        _ = handlers.takeFinished()?(error, run)
    }

    private func handle(_ event: BoardLinkEvent, from source: BoardLink) async {
        guard source === session.link else { return }
        switch event {
        case .playerFinished(let boardPlayer, _):
            playerFinished(boardPlayer: Int(boardPlayer))
        case .late(_, let lateBy):
            log.logger.warning("the board ran a command \(String(format: "%.1f", Double(lateBy) / 1000)) ms late")
            emit.yield(.late(seconds: Double(lateBy) / 1e6))
        case .fault(let fault, let channel):
            log.logger.error(
                "the board reported a fault: \(fault)", metadata: ["channel": channel == 255 ? "all" : "\(channel)"])
            emit.yield(.fault(fault, channel: channel))
        case .engineStopped(let reason):
            boardStopped(reason)
        case .log(let level, let text):
            emit.yield(.log(level: level, text: text))  // logged by the link, under thrum.board
        case .reset:
            boardReset()
        case .down(let error):
            session.lostTo = error
            await shutDown(link: source, reason: .deviceLost(Self.naming(streams.takeUnplayed(), lostTo: error)))
        }
    }

    /// The loss of the board, with what was streaming when it went (which did not play).
    private static func naming(_ unplayed: [String], lostTo error: HapticEngineError) -> HapticEngineError {
        guard !unplayed.isEmpty else { return error }
        return .interrupted(
            operation: "streaming", lost: unplayed.joined(separator: "; ") + " did not play", cause: .init(error))
    }

    private func boardStopped(_ reason: WireStopReason) {
        guard isRunning else { return }
        let run = currentRun
        session.isRunning = false
        let stopped: StoppedReason =
            switch reason {
            case .fault: .boardFault
            case .keepaliveLapsed: .keepAliveLapsed
            case .idleStandby: .idleTimeout
            default: .systemError
            }
        players.finishAll()
        streams.removeAll()
        playersStoppedWithEngine(run: run)
        reportStopped(stopped)
    }

    /// The board lost its timelines and players; players re-upload on their next start.
    private func boardReset() {
        let run = currentRun
        timelines.removeAll()
        players.finishAll()
        players.forgetBoardStates()
        streams.removeAll()
        session.isRunning = false
        playersStoppedWithEngine(run: run)
        log.logger.notice("the board reset: its timelines and players are gone; start the engine again")
        emit.yield(.reset)
        handlers.reset?()
    }

    private func shutDown(link source: BoardLink, reason: StoppedReason?) async {
        guard source === session.link else { return }
        let run = currentRun
        session.isRunning = false
        let connection = session.detach()
        timelines.removeAll()
        players.finishAll()
        streams.removeAll()
        await source.close()
        connection?.simulator?.cancel()
        if case .deviceLost(let error) = reason {
            playersStoppedWithEngine(run: run, error: error)
        } else {
            playersStoppedWithEngine(run: run)
        }
        if let reason, run != nil { reportStopped(reason) }
    }

    func playerFinished(boardPlayer: Int) {
        if streamer.pieceFinished(boardPlayer: boardPlayer) { return }
        guard let id = players.finished(boardPlayer: boardPlayer) else { return }
        emit.yield(.playerFinished(player: id))
        players.completion(of: id)?(nil)
        noteActivity()
        if nothingPlaying, let handler = handlers.takeFinished() {
            let run = currentRun
            if handler(nil, run) == .stopEngine { stopSoon(reporting: .notifyWhenFinished, ending: run) }
        }
    }
}
