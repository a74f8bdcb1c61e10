import Logging
import ThrumTransport
import ThrumWire

/// One board behind a byte transport: drives ThrumWire's pure `LinkSession` with real I/O.
///
/// Three tasks serve it: a reader feeds received bytes in, a writer sends frames out in order, and a
/// timer wakes the session for retransmissions, pings and keep-alive. Everything else happens on the
/// actor: requests are matched to their replies by tag, uploads run ThrumWire's `TimelineUpload`,
/// and board notifications go out on ``notifications``. What happens to the link (connecting, a
/// reset, retransmissions, going down) is logged under `thrum.link`, what the board says (LOG,
/// ERROR) under `thrum.board`, whether or not anyone listens to the notifications.
actor BoardLink {
    let transport: any ByteTransport
    let clock: any EngineClock
    private var session: LinkSession
    private var outbox: AsyncStream<[UInt8]>.Continuation?
    private var tasks: [Task<Void, Never>] = []

    private var connectWaiter: CheckedContinuation<BoardCapabilities, any Error>?
    private var replyWaiters: [UInt16: CheckedContinuation<WireMessage, any Error>] = [:]
    /// Tags sent whose replies are wanted, and replies that came before anyone waited for them.
    private var expected: Set<UInt16> = []
    private var arrived: [UInt16: WireMessage] = [:]
    /// What last failed the waiting requests (a board reset, the link going down).
    private var interruption: HapticEngineError?
    private var uploads: [Int: ActiveUpload] = [:]
    private var nextUploadID = 0
    private var nextTag: UInt16 = 1
    private var nextUploadTag: UInt16 = 0x8000
    /// Why the link is down, once it is; every later request fails with it.
    private(set) var failure: HapticEngineError?
    /// Channels the board reported faulted in this session (FAULT with a channel number), with the
    /// fault: recorded as the frame arrives, so a reply that follows it finds it here.
    private(set) var channelFaults: [Int: WireFault] = [:]

    /// Board notifications and link changes, in arrival order.
    nonisolated let notifications: AsyncStream<BoardLinkEvent>
    private let notify: AsyncStream<BoardLinkEvent>.Continuation
    private let logger: Logger
    private let boardLogger: Logger
    /// The session's retransmission count when last looked at (each rise is logged).
    private var retransmissions = 0

    private struct ActiveUpload {
        var upload: TimelineUpload
        var continuation: CheckedContinuation<UInt8, any Error>
        var progress: (@Sendable (Int, Int) -> Void)?
    }

    /// When the line's rate is known (a UART), real-time updates are paced to it: each waits
    /// until the line has drained, and a newer value for the same player and parameter replaces
    /// one still waiting (newest wins already on the host), so a fast stream of updates never
    /// queues up behind itself.
    private let byteTime: Duration?
    /// When the bytes handed to the transport so far will have left the line (an estimate).
    private var lineDrainedAt = MonotonicInstant.zero
    /// Real-time messages waiting for the line, newest per (player, parameter), oldest key first.
    private var waitingRealtime: [(key: Int, message: WireMessage)] = []
    /// The task that pumps the session at its deadlines, and when it next wakes.
    private var timer: Task<Void, Never>?
    private var sleepingUntil: MonotonicInstant?

    init(
        transport: any ByteTransport, clock: any EngineClock,
        configuration: LinkConfiguration = LinkConfiguration(role: .host),
        lineRate: Int? = nil, loggers: ThrumLoggers
    ) {
        self.logger = loggers.link
        self.boardLogger = loggers.board
        self.byteTime = lineRate.flatMap { $0 > 0 ? Duration.nanoseconds(Int64(10_000_000_000 / $0)) : nil }
        self.transport = transport
        self.clock = clock
        self.session = LinkSession(configuration: configuration)
        (notifications, notify) = AsyncStream.makeStream(of: BoardLinkEvent.self)
    }

    var capabilities: BoardCapabilities? {
        session.peerAnnouncement.flatMap { try? BoardCapabilities(info: $0) }
    }

    /// The board's clock (µs, 64-bit) now, once clock synchronisation has a sample.
    var boardMicroseconds: Double? { session.clock.boardMicroseconds(at: clock.now) }

    /// The board's clock (µs, 64-bit) at a host instant, once clock synchronisation has a sample.
    func boardMicroseconds(at host: MonotonicInstant) -> Double? { session.clock.boardMicroseconds(at: host) }

    /// The clock estimate: offset, drift and error bound against the host's clock.
    var clockEstimate: ClockSyncEstimator.Estimate? { session.clock.estimate }

    var preferredPayload: Int { session.preferredPayload }

    var statistics: LinkStatistics { session.statistics }

    // MARK: connecting and closing

    /// Starts the tasks and the handshake; returns the board's capabilities from its INFO.
    func connect() async throws -> BoardCapabilities {
        if let failure { throw failure }
        if session.isEstablished, let capabilities { return capabilities }
        if tasks.isEmpty { startTasks() }
        // A cancelled caller stops waiting (a probe that timed out must not wait out the handshake).
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                connectWaiter = continuation
                session.connect(at: clock.now)
                pump()
            }
        } onCancel: {
            Task { await self.stopConnecting() }
        }
    }

    private func stopConnecting() {
        connectWaiter?.resume(throwing: CancellationError())
        connectWaiter = nil
    }

    /// Stops the tasks and closes the transport; pending requests fail with `reason`.
    func close(reason: HapticEngineError = .engineNotRunning("the engine was stopped")) async {
        fail(reason, level: .debug)
        for task in tasks { task.cancel() }
        tasks.removeAll()
        timer?.cancel()
        timer = nil
        outbox?.finish()
        await transport.close()
        notify.finish()
    }

    private func startTasks() {
        let (frames, outbox) = AsyncStream.makeStream(of: [UInt8].self)
        self.outbox = outbox
        let transport = transport
        tasks.append(
            Task { [weak self] in
                for await frame in frames {
                    do { try await transport.write(frame) } catch {
                        await self?.transportEnded(error)
                        return
                    }
                }
            })
        tasks.append(
            Task { [weak self] in
                do {
                    while true {
                        let bytes = try await transport.read()
                        await self?.received(bytes)
                    }
                } catch {
                    await self?.transportEnded(error)
                }
            })
        startTimer()
    }

    /// Wakes at the session's next deadline and when the line drains for a waiting real-time
    /// update, and at least every 10 ms, so a session deadline that became earlier while it slept
    /// is late by no more than that. A real-time update restarts it (`realtimeQueued`): it must
    /// not wait out the 10 ms.
    private func startTimer() {
        timer?.cancel()
        let clock = clock
        timer = Task { [weak self] in
            while !Task.isCancelled, let self {
                let deadline = await self.wakeDeadline()
                do { try await clock.sleep(until: deadline) } catch { return }
                await self.pump()
            }
        }
    }

    private func wakeDeadline() -> MonotonicInstant {
        var wake = clock.now + .milliseconds(10)
        if let due = session.nextDeadline { wake = min(wake, due) }
        if !waitingRealtime.isEmpty { wake = min(wake, lineDrainedAt) }
        sleepingUntil = wake
        return wake
    }

    /// A real-time update is waiting for the line: wake when the line drains, not later.
    private func realtimeQueued() {
        guard let sleepingUntil, lineDrainedAt < sleepingUntil, timer != nil else { return }
        startTimer()
    }

    // MARK: requests

    /// Sends a reliable request carrying a fresh tag and waits for the reply with that tag
    /// (RESULT, UPLOAD_STATUS, SLOT_LIST_REPLY, SLOT_DATA, TRACE_DATA, CALIBRATION_RESULT).
    func request(_ make: @escaping MessageMaker) async throws -> WireMessage {
        try await requestAll([make])[0].reply
    }

    /// Sends the requests back to back, in order, then waits for every reply: a start and the
    /// settings that go with it reach the board together, without a round trip between them.
    func requestAll(_ makes: [MessageMaker]) async throws -> [(request: MessageType, reply: WireMessage)] {
        if let failure { throw failure }
        var tags: [UInt16] = []
        var types: [MessageType] = []
        for make in makes {
            let tag = takeTag()
            let message = make(tag)
            do { try session.send(message, at: clock.now) } catch {
                for sent in tags { expected.remove(sent) }
                pump()
                throw HapticEngineError.notSent(message.type.name, cause: error)
            }
            expected.insert(tag)
            tags.append(tag)
            types.append(message.type)
        }
        pump()
        var replies: [(MessageType, WireMessage)] = []
        for (tag, type) in zip(tags, types) { replies.append((type, try await reply(to: tag))) }
        return replies
    }

    private func reply(to tag: UInt16) async throws -> WireMessage {
        defer { expected.remove(tag) }
        if let reply = arrived.removeValue(forKey: tag) { return reply }
        if let failure { throw failure }
        // A reset or failure since the request was sent dropped it from `expected`.
        guard expected.contains(tag) else { throw interruption ?? HapticEngineError.link("no reply to tag \(tag)") }
        // A cancelled caller stops waiting (the request itself stays sent: the board may act on it).
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { replyWaiters[tag] = $0 }
        } onCancel: {
            Task { await self.stopWaiting(for: tag) }
        }
    }

    private func stopWaiting(for tag: UInt16) {
        expected.remove(tag)
        replyWaiters.removeValue(forKey: tag)?.resume(throwing: CancellationError())
    }

    /// Sends a request and checks that the board answered `ok`.
    func command(_ make: @escaping MessageMaker) async throws {
        try await commands([make])
    }

    /// Sends the requests back to back and checks that the board answered `ok` to each.
    func commands(_ makes: [MessageMaker]) async throws {
        for (request, reply) in try await requestAll(makes) { try Self.check(reply, for: request) }
    }

    /// Sends a message that gets no reply (the real-time channel, newest wins).
    func sendUnacknowledged(_ message: WireMessage) throws {
        if let failure { throw failure }
        if byteTime != nil, case .rtParam(let update) = message {
            let key = Int(update.player) << 8 | Int(update.parameter.rawValue)
            if let index = waitingRealtime.firstIndex(where: { $0.key == key }) {
                waitingRealtime[index].message = message
            } else {
                waitingRealtime.append((key, message))
            }
            pump()
            if !waitingRealtime.isEmpty { realtimeQueued() }
            return
        }
        do { try session.send(message, at: clock.now) } catch {
            throw HapticEngineError.notSent(message.type.name, cause: error)
        }
        pump()
    }

    /// Sends the waiting real-time messages the line has room for now.
    private func sendWaitingRealtime() {
        while !waitingRealtime.isEmpty, lineDrainedAt <= clock.now {
            let (_, message) = waitingRealtime.removeFirst()
            try? session.send(message, at: clock.now)  // unreliable by design: a refusal is a lost update
            writeFrames()
        }
    }

    /// Uploads and commits a timeline; returns the board's handle. `progress(sent, total)` follows
    /// the bytes the board has confirmed.
    func upload(_ bytes: [UInt8], progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> UInt8 {
        if let failure { throw failure }
        let id = nextUploadID
        nextUploadID += 1
        var upload = TimelineUpload(bytes: bytes, maxPayload: session.peerMaxPayload, firstTag: nextUploadTag)
        // Each chunk and the begin and commit take a tag; leave room so uploads never share one.
        nextUploadTag = nextUploadTag &+ UInt16(truncatingIfNeeded: bytes.count / max(1, upload.chunkSize) * 2 + 8)
        if nextUploadTag < 0x8000 { nextUploadTag = 0x8000 }
        let first = upload.restart()
        return try await withCheckedThrowingContinuation { continuation in
            uploads[id] = ActiveUpload(upload: upload, continuation: continuation, progress: progress)
            send(first, failing: id)
            pump()
        }
    }

    private func send(_ messages: [WireMessage], failing upload: Int) {
        for message in messages {
            do { try session.send(message, at: clock.now) } catch {
                if let active = uploads.removeValue(forKey: upload) {
                    active.continuation.resume(throwing: HapticEngineError.notSent("upload", cause: error))
                }
                return
            }
        }
    }

    private func takeTag() -> UInt16 {
        defer { nextTag = nextTag >= 0x7FFF ? 1 : nextTag + 1 }
        return nextTag
    }

    static func check(_ reply: WireMessage, for type: MessageType) throws {
        let status = reply.status ?? .malformed
        guard status == .ok else { throw HapticEngineError.board(status: status, request: type) }
    }

    // MARK: the session's input and output

    private func received(_ bytes: [UInt8]) {
        session.receive(bytes, at: clock.now)
        pump()
    }

    /// Advances the session to now, sends what it has to send, and handles what it reported.
    private func pump() {
        session.advance(to: clock.now)
        writeFrames()
        for event in session.takeEvents() { handle(event) }
        // Handling may have queued replies (upload chunks, commits).
        writeFrames()
        noteRetransmissions()
        if !waitingRealtime.isEmpty { sendWaitingRealtime() }
    }

    /// Hands the session's frames to the writer, and counts their time on a paced line.
    private func writeFrames() {
        for frame in session.takeFrames() {
            outbox?.yield(frame)
            if let byteTime { lineDrainedAt = max(lineDrainedAt, clock.now) + byteTime * frame.count }
        }
    }

    /// Frames sent again since the last look (a lossy or slow line), at debug level: the link
    /// goes down, and says so, only when a frame runs out of retransmissions.
    private func noteRetransmissions() {
        let total = session.statistics.retransmissions
        guard total > retransmissions else { return }
        logger.debug(
            "retransmitted \(total - retransmissions) frame\(total - retransmissions == 1 ? "" : "s")",
            metadata: ["retransmissions": "\(total)", "timeout": "\(session.retransmissionTimeout)"])
        retransmissions = total
    }

    private func handle(_ event: LinkEvent) {
        switch event {
        case .connected(let info):
            do {
                let capabilities = try BoardCapabilities(info: info)
                logger.info("connected", metadata: ["board": "\(capabilities.boardName)"])
                connectWaiter?.resume(returning: capabilities)
            } catch {
                connectWaiter?.resume(throwing: HapticEngineError.invalidBoardInfo(error))
            }
            connectWaiter = nil
        case .versionMismatch(let host, let board):
            fail(.versionMismatch(host: host.description, board: board.description))
        case .received(let message, _):
            route(message)
        case .undecodable(let error, let channel):
            logger.error("undecodable message from the board: \(error)", metadata: ["channel": "\(channel)"])
            notify.yield(.log(level: .error, text: "undecodable message from the board: \(error)"))
        case .peerReset(let previous, let new, let discarded):
            // The board rebooted: requests in flight may or may not have run; their callers decide.
            logger.warning(
                "the board reset the link; \(discarded) unacknowledged message\(discarded == 1 ? "" : "s") discarded",
                metadata: ["epoch": "\(previous) -> \(new)", "discarded": "\(discarded)"])
            let error = HapticEngineError.boardReset(discardedMessages: discarded)
            failWaiters(error)
            notify.yield(.reset(previousEpoch: previous, newEpoch: new))
        case .failed(let failure):
            fail(.linkFailed(failure))
        }
    }

    private func route(_ message: WireMessage) {
        let tag = message.tag
        switch message {
        case .result, .uploadStatus, .slotListReply, .slotData, .traceData, .calibrationResult:
            guard let tag else { return }
            if let waiter = replyWaiters.removeValue(forKey: tag) {
                waiter.resume(returning: message)
                return
            }
            if expected.contains(tag) {
                arrived[tag] = message
                return
            }
            advanceUploads(with: message)
        case .playerFinished(let finished):
            notify.yield(.playerFinished(player: finished.player, boardTime: finished.atTime))
        case .late(let late):
            notify.yield(.late(tag: late.tag, lateByMicroseconds: late.lateBy))
        case .fault(let fault):
            if fault.channel != 255 { channelFaults[Int(fault.channel)] = fault.fault }
            notify.yield(.fault(fault.fault, channel: fault.channel))
        case .engineStopped(let stopped):
            notify.yield(.engineStopped(reason: stopped.reason))
        case .log(let log):
            var metadata: Logger.Metadata = [:]
            if !WireLogLevel.known.contains(log.level) { metadata["board_level"] = "\(log.level.rawValue)" }
            boardLogger.log(level: Logger.Level(log.level), "\(log.text)", metadata: metadata)
            notify.yield(.log(level: log.level, text: log.text))
        case .error(let report):
            boardLogger.error("the board refused a message: \(report.status)", metadata: ["detail": "\(report.detail)"])
            notify.yield(.log(level: .error, text: "the board refused a message: \(report.status), \(report.detail)"))
        default:
            break
        }
    }

    /// A reply no request waits for belongs to an upload: each upload takes what is its own and
    /// answers with its next chunks, or ends committed or refused.
    private func advanceUploads(with message: WireMessage) {
        for (id, var active) in uploads {
            let replies = active.upload.handle(message, payloadLimit: session.preferredPayload)
            switch active.upload.state {
            case .committed(let handle):
                uploads[id] = nil
                active.progress?(active.upload.bytes.count, active.upload.bytes.count)
                active.continuation.resume(returning: handle)
            case .failed(let status, let during):
                uploads[id] = nil
                active.continuation.resume(throwing: HapticEngineError.board(status: status, request: during))
            default:
                uploads[id] = active
                active.progress?(active.upload.confirmed, active.upload.bytes.count)
                send(replies, failing: id)
            }
        }
    }

    private func transportEnded(_ error: any Error & Sendable) {
        if error is CancellationError { return }
        if let transportError = error as? TransportError, transportError.reason == .closed {
            fail(.engineNotRunning("the connection to \(transport.name) was closed"))
        } else {
            fail(.deviceLost(device: transport.name, cause: .init(error)))
        }
    }

    /// The link is down for good: fail everything waiting and tell the engine. It is logged at
    /// `level`: an error, unless the engine closed the link itself.
    private func fail(_ reason: HapticEngineError, level: Logger.Level = .error) {
        guard failure == nil else { return }
        failure = reason
        logger.log(level: level, "the link is down: \(reason)")
        failWaiters(reason)
        notify.yield(.down(reason))
    }

    private func failWaiters(_ reason: HapticEngineError) {
        interruption = reason
        connectWaiter?.resume(throwing: reason)
        connectWaiter = nil
        let waiters = replyWaiters
        replyWaiters.removeAll()
        expected.removeAll()
        arrived.removeAll()
        for waiter in waiters.values { waiter.resume(throwing: reason) }
        let active = uploads
        uploads.removeAll()
        for upload in active.values { upload.continuation.resume(throwing: reason) }
    }
}

/// Builds a request from the tag the link gives it.
typealias MessageMaker = @Sendable (UInt16) -> WireMessage

/// What the board or the link reported, for the engine.
enum BoardLinkEvent: Sendable {
    case playerFinished(player: UInt8, boardTime: UInt32)
    case late(tag: UInt16, lateByMicroseconds: UInt32)
    case fault(WireFault, channel: UInt8)
    case engineStopped(reason: WireStopReason)
    case log(level: WireLogLevel, text: String)
    case reset(previousEpoch: UInt16, newEpoch: UInt16)
    case down(HapticEngineError)
}
