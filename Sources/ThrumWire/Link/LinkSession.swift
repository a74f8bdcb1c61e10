/// One end of the link as a pure state machine (PROTOCOL.md §6–7): no I/O, no clock, no threads.
/// Feed it received bytes and the passage of time; take the frames it wants written and the events it
/// reports. `nextDeadline` says when it next needs `advance(to:)`.
public struct LinkSession: Sendable {
    enum Phase: Equatable, Sendable {
        case idle
        case handshaking(nonce: UInt32, attempts: Int, nextAttempt: MonotonicInstant)
        case established
        case incompatible
        case failed
    }

    public let configuration: LinkConfiguration
    public private(set) var statistics = LinkStatistics()
    public private(set) var clock: ClockSyncEstimator
    /// The board's epoch of the current session.
    public private(set) var epoch: UInt16
    /// The peer's largest payload, from HELLO or INFO.
    public private(set) var peerMaxPayload = FrameLimits.minimumMaxPayload
    /// The board's INFO (host) or the host's HELLO (board role) that opened the session.
    public private(set) var peerAnnouncement: WireMessage?

    var phase: Phase = .idle
    private var previousEpoch: UInt16?
    private var sessionNonce: UInt32?
    private var sender: ReliableSender
    private var receiver = ReliableReceiver()
    /// The peer's message set knows SACK (1.1 or later) and this end uses it.
    private var peerTakesSack = false
    private var realtimeFilter = NewestWinsFilter()
    private var realtimeSeq: UInt8 = 0
    private var decoder: FrameDecoder
    private var outbox: [[UInt8]] = []
    private var events: [LinkEvent] = []
    private var nonces: SplitMix64
    private var pingID: UInt16 = 0
    private var pingsInFlight: [UInt16: MonotonicInstant] = [:]
    /// The sender's transmission count when each PING left (its PONG shows which copies arrived before it).
    private var pingTransmissions: [UInt16: UInt64] = [:]
    private var pingsSentInSession = 0
    private var nextPing: MonotonicInstant?
    private var pingInterval: Duration?
    private var clockExtender = BoardClockExtender()

    public init(configuration: LinkConfiguration) {
        self.configuration = configuration
        clock = ClockSyncEstimator(configuration: configuration.estimator)
        decoder = FrameDecoder(maxPayload: configuration.maxPayload)
        nonces = SplitMix64(seed: configuration.nonceSeed)
        sender = ReliableSender(timer: Self.makeTimer(configuration))
        switch configuration.role {
        case .host: epoch = 0
        case .board(let bootEpoch, _): epoch = bootEpoch
        }
    }

    private static func makeTimer(_ configuration: LinkConfiguration) -> RetransmissionTimer {
        RetransmissionTimer(
            initial: configuration.initialRetransmissionTimeout,
            minimum: configuration.minimumRetransmissionTimeout,
            maximum: configuration.maximumRetransmissionTimeout)
    }

    private var isBoard: Bool {
        if case .board = configuration.role { true } else { false }
    }

    public var isEstablished: Bool { phase == .established }

    /// Reliable messages queued or unacknowledged.
    public var pendingReliable: Int { sender.pendingCount }

    /// The current retransmission timeout (adapts to the measured round trip).
    public var retransmissionTimeout: Duration { sender.timer.timeout }

    /// The largest reliable payload worth sending now (PROTOCOL.md §6.5): the peer's `max_payload` on a clean
    /// line, less when frames die on the way. Producers of bulk data (timeline chunks) size their messages
    /// by it; it never exceeds `peerMaxPayload`.
    public var preferredPayload: Int { min(sender.payloadSize.limit, peerMaxPayload) }

    /// The sender's view of the line behind `preferredPayload`.
    public var payloadSize: AdaptivePayloadSize { sender.payloadSize }

    // MARK: outputs

    /// Frames to write, each complete with delimiters, in order.
    public mutating func takeFrames() -> [[UInt8]] {
        defer { outbox.removeAll() }
        return outbox
    }

    public mutating func takeEvents() -> [LinkEvent] {
        defer { events.removeAll() }
        return events
    }

    /// When `advance(to:)` must next be called, if ever.
    public var nextDeadline: MonotonicInstant? {
        var deadlines: [MonotonicInstant] = []
        if case .handshaking(_, _, let next) = phase { deadlines.append(next) }
        if phase == .established {
            if let retransmit = sender.deadline { deadlines.append(retransmit) }
            if let nextPing { deadlines.append(nextPing) }
        }
        return deadlines.min()
    }

    // MARK: inputs

    /// Host: start (or restart) a session by sending HELLO until INFO arrives.
    public mutating func connect(at now: MonotonicInstant) {
        guard !isBoard else { return }
        startHandshake(at: now)
    }

    public mutating func advance(to now: MonotonicInstant) {
        switch phase {
        case .handshaking(let nonce, let attempts, let next) where now >= next:
            if attempts >= configuration.helloAttempts {
                phase = .failed
                events.append(.failed(.handshakeTimedOut(attempts: attempts)))
            } else {
                sendHello(nonce: nonce, at: now, attempts: attempts + 1)
            }
        case .established:
            if let transmissions = sender.handleTimeout(at: now), transmissions >= configuration.maxTransmissions {
                let seq = sender.inFlight.first?.seq ?? 0
                phase = .failed
                events.append(.failed(.retransmissionLimit(seq: seq, transmissions: transmissions)))
                return
            }
            if let due = nextPing, now >= due { sendPing(at: now) }
            flush(at: now)
        default:
            break
        }
    }

    public mutating func receive(_ bytes: some Sequence<UInt8>, at now: MonotonicInstant) {
        for output in decoder.feed(bytes) {
            if case .frame(let frame) = output { handle(frame, at: now) }
        }
        flush(at: now)
    }

    /// Decoder counters: rejected pieces by reason, discarded bytes.
    public var framing: FrameDecoder.Statistics { decoder.statistics }

    /// Queues or sends a message on its channel (ERROR goes on `errorChannel`).
    public mutating func send(
        _ message: WireMessage, at now: MonotonicInstant, errorChannel: Channel = .control
    ) throws(LinkError) {
        let spec = message.type.spec
        if spec.direction == (isBoard ? .hostToBoard : .boardToHost) { throw .wrongDirection(message.type) }
        guard phase == .established else { throw .notConnected }
        let payload: [UInt8]
        do {
            payload = try MessageCodec.encode(message, maxPayload: peerMaxPayload)
        } catch {
            throw .encoding(error)
        }
        switch spec.channel {
        case .reliable:
            guard sender.pendingCount < configuration.maxQueuedMessages else {
                throw .queueFull(limit: configuration.maxQueuedMessages)
            }
            sender.enqueue(type: spec.id, payload: payload)
        case .realtime:
            realtimeSeq &+= 1
            emit(.realtime, seq: realtimeSeq, type: spec.id, payload: payload)
        case .control:
            emit(.control, type: spec.id, payload: payload)
        case .any:
            if errorChannel == .reliable {
                guard sender.pendingCount < configuration.maxQueuedMessages else {
                    throw .queueFull(limit: configuration.maxQueuedMessages)
                }
                sender.enqueue(type: spec.id, payload: payload)
            } else {
                emit(.control, type: spec.id, payload: payload)
            }
        }
        flush(at: now)
    }

    // MARK: frame handling

    private mutating func handle(_ frame: Frame, at now: MonotonicInstant) {
        statistics.framesReceived += 1
        statistics.bytesReceived += frame.payload.count + FrameLimits.overhead
        if isBoard { handleAsBoard(frame, at: now) } else { handleAsHost(frame, at: now) }
    }

    private mutating func handleAsHost(_ frame: Frame, at now: MonotonicInstant) {
        let header = frame.header
        switch phase {
        case .handshaking(let nonce, _, _):
            guard header.channel == .control, header.type == MessageType.info.rawValue,
                let message = try? MessageCodec.decode(frame), case .info(let info) = message, info.nonce == nonce
            else {
                statistics.ignoredBeforeHandshake += 1
                return
            }
            let board = ProtocolVersion(major: info.major, minor: info.minor)
            guard board.major == ProtocolVersion.current.major else {
                phase = .incompatible
                events.append(.versionMismatch(host: .current, board: board))
                return
            }
            openSession(
                epoch: header.epoch, announcement: message, maxPayload: info.maxPayload, window: info.window, at: now)
            pingsSentInSession = 0
            // Keep the board's keep-alive (PROTOCOL.md §8): ping at least every keepalive_ms / 3.
            pingInterval = configuration.clockSync.interval
            if let interval = pingInterval, info.keepaliveMs > 0 {
                pingInterval = min(interval, .milliseconds(info.keepaliveMs) / 3)
            }
            nextPing = pingInterval == nil && configuration.clockSync.burstCount == 0 ? nil : now
            events.append(.connected(message))
        case .established:
            guard header.epoch == epoch else {
                if header.epoch == previousEpoch {
                    statistics.staleEpoch += 1  // in flight from the session we left: harmless
                    return
                }
                let discarded = sender.pendingCount
                events.append(.peerReset(previousEpoch: epoch, newEpoch: header.epoch, discardedMessages: discarded))
                startHandshake(at: now)
                return
            }
            if header.channel == .control, header.type == MessageType.info.rawValue { return }  // repeated INFO
            handleInSession(frame, at: now)
        default:
            statistics.ignoredBeforeHandshake += 1
        }
    }

    private mutating func handleAsBoard(_ frame: Frame, at now: MonotonicInstant) {
        let header = frame.header
        if header.channel == .control, header.type == MessageType.hello.rawValue {
            guard let message = try? MessageCodec.decode(frame), case .hello(let hello) = message else {
                statistics.undecodable += 1
                return
            }
            let nonce = hello.nonce
            if nonce != sessionNonce || (phase != .established && phase != .incompatible) {
                epoch = epoch &+ 1 == 0 ? 1 : epoch &+ 1
                sessionNonce = nonce
                openSession(
                    epoch: epoch, announcement: message, maxPayload: hello.maxPayload, window: hello.window, at: now)
                let host = ProtocolVersion(major: hello.major, minor: hello.minor)
                if host.major == ProtocolVersion.current.major {
                    events.append(.connected(message))
                } else {
                    phase = .incompatible  // answer INFO so the host can report both versions, accept nothing else
                    events.append(.versionMismatch(host: host, board: .current))
                }
            }
            if case .board(_, var info) = configuration.role {
                info.nonce = nonce
                if let payload = try? MessageCodec.encode(.info(info)) {
                    emit(.control, type: MessageType.info.rawValue, payload: payload)
                }
            }
            return
        }
        guard phase == .established, header.epoch == epoch else {
            statistics.staleEpoch += 1
            emit(.control, type: MessageType.ack.rawValue, payload: [])  // tells the host our epoch at once
            return
        }
        handleInSession(frame, at: now)
    }

    /// `announcement`: the peer's HELLO or INFO, which states its largest payload and window.
    private mutating func openSession(
        epoch: UInt16, announcement: WireMessage, maxPayload: UInt16, window: UInt8, at now: MonotonicInstant
    ) {
        if phase == .established, self.epoch != epoch { previousEpoch = self.epoch }
        self.epoch = epoch
        phase = .established
        peerAnnouncement = announcement
        peerMaxPayload = min(max(Int(maxPayload), FrameLimits.minimumMaxPayload), FrameLimits.absoluteMaxPayload)
        sender = ReliableSender(timer: Self.makeTimer(configuration), maxPayload: peerMaxPayload)
        sender.peerWindow = Int(min(max(window, 1), 127))
        receiver = ReliableReceiver(
            capacity: configuration.selectiveAcknowledgement ? min(configuration.receiveWindow, 127) - 1 : 0)
        peerTakesSack = configuration.selectiveAcknowledgement && Self.minorVersion(of: announcement) >= 1
        realtimeFilter = NewestWinsFilter()
        realtimeSeq = 0
        pingsInFlight.removeAll()
        pingTransmissions.removeAll()
    }

    /// The minor version a HELLO or INFO states.
    private static func minorVersion(of announcement: WireMessage) -> UInt8 {
        switch announcement {
        case .hello(let hello): hello.minor
        case .info(let info): info.minor
        default: 0
        }
    }

    private mutating func handleInSession(_ frame: Frame, at now: MonotonicInstant) {
        let header = frame.header
        var held: [UInt8]?
        if header.channel == .control, header.type == MessageType.sack.rawValue,
            case .sack(let sack)? = try? MessageCodec.decode(frame)
        {
            held = configuration.selectiveAcknowledgement ? sack.held : nil  // a 1.0 peer would not know SACK
        }
        let acknowledgementOnly =
            header.channel == .control && (header.type == MessageType.ack.rawValue || held != nil)
        sender.handle(
            ack: header.ack, window: header.window, nak: header.nak, bareAck: acknowledgementOnly,
            carrier: ackCarrier(frame), held: held, at: now)
        switch header.channel {
        case .control:
            if acknowledgementOnly { return }
            deliver(frame, at: now)
        case .reliable:
            switch receiver.accept(frame) {
            case .deliver:
                deliver(frame, at: now)
                while let next = receiver.takeNextHeld() { deliver(next, at: now) }
            case .held: statistics.framesHeld += 1
            case .duplicate: statistics.duplicates += 1
            case .outOfOrder: statistics.outOfOrder += 1
            }
        case .realtime:
            if realtimeFilter.accept(header.seq) { deliver(frame, at: now) } else { statistics.staleRealtime += 1 }
        }
    }

    /// What `frame` answered, for the sender's round-trip samples.
    private func ackCarrier(_ frame: Frame) -> ReliableSender.AckCarrier {
        let header = frame.header
        if header.channel == .reliable
            || (header.channel == .control
                && (header.type == MessageType.ack.rawValue || header.type == MessageType.sack.rawValue))
        {
            return .prompt
        }
        guard header.channel == .control, header.type == MessageType.pong.rawValue,
            case .pong(let pong)? = try? MessageCodec.decode(frame), let pingSent = pingsInFlight[pong.id]
        else { return .untimed }
        return .pong(pingSent: pingSent, afterTransmission: pingTransmissions[pong.id])
    }

    private mutating func deliver(_ frame: Frame, at now: MonotonicInstant) {
        let message: WireMessage
        do throws(MessageCodecError) {
            message = try MessageCodec.decode(frame)
            if message.type.spec.direction == (isBoard ? .boardToHost : .hostToBoard) {
                throw .wrongDirection(message: message.type.name)
            }
        } catch {
            statistics.undecodable += 1
            events.append(.undecodable(error, frame.header.channel))
            answerUndecodable(frame, error: error)
            return
        }
        if !isBoard, case .pong(let pong) = message {
            recordPong(pong, payload: frame.payload.count, at: now)
            return
        }
        events.append(.received(message, frame.header.channel))
    }

    private mutating func answerUndecodable(_ frame: Frame, error: MessageCodecError) {
        guard frame.header.channel != .realtime, frame.header.type != MessageType.error.rawValue else { return }
        let status: WireStatus =
            switch error {
            case .unknownType, .wrongDirection: .unknownMessage
            default: .malformed
            }
        let reply = WireMessage.error(
            status: status, refType: frame.header.type, refSeq: frame.header.seq,
            detail: String(error.description.utf8.prefix(64)) ?? error.reason)
        guard let payload = try? MessageCodec.encode(reply) else { return }
        if frame.header.channel == .reliable {
            sender.enqueue(type: MessageType.error.rawValue, payload: payload)
        } else {
            emit(.control, type: MessageType.error.rawValue, payload: payload)
        }
    }

    // MARK: handshake and clock

    private mutating func startHandshake(at now: MonotonicInstant) {
        if phase == .established { previousEpoch = epoch }
        let nonce = UInt32(truncatingIfNeeded: nonces.next())
        sender = ReliableSender(timer: Self.makeTimer(configuration))
        sendHello(nonce: nonce, at: now, attempts: 1)
    }

    private mutating func sendHello(nonce: UInt32, at now: MonotonicInstant, attempts: Int) {
        phase = .handshaking(nonce: nonce, attempts: attempts, nextAttempt: now + configuration.helloInterval)
        let hello = WireMessage.hello(
            major: MessageCatalog.major, minor: configuration.selectiveAcknowledgement ? MessageCatalog.minor : 0,
            maxPayload: UInt16(configuration.maxPayload),
            window: UInt8(configuration.receiveWindow), nonce: nonce)
        if let payload = try? MessageCodec.encode(hello) {
            emitRaw(.control, epoch: 0, type: MessageType.hello.rawValue, payload: payload)
        }
    }

    private mutating func sendPing(at now: MonotonicInstant, probe: Bool = false) {
        pingID &+= 1
        pingsInFlight[pingID] = now
        pingsInFlight = pingsInFlight.filter { now.duration(since: $0.value) < .seconds(5) }
        pingTransmissions[pingID] = sender.transmissions
        pingTransmissions = pingTransmissions.filter { pingsInFlight[$0.key] != nil }
        let ping = WireMessage.ping(
            id: pingID, hostTime: UInt32(truncatingIfNeeded: now.nanoseconds / 1000), reserved0: 0, reserved1: 0)
        if let payload = try? MessageCodec.encode(ping) {
            emit(.control, type: MessageType.ping.rawValue, payload: payload)
        }
        statistics.pingsSent += 1
        if probe { return }  // outside the schedule
        pingsSentInSession += 1
        let policy = configuration.clockSync
        if pingsSentInSession < policy.burstCount {
            nextPing = now + policy.burstInterval
        } else if let interval = pingInterval {
            nextPing = now + interval
        } else {
            nextPing = nil
        }
    }

    private mutating func recordPong(_ pong: WireMessage.Pong, payload: Int, at now: MonotonicInstant) {
        statistics.pongsReceived += 1
        guard let sent = pingsInFlight.removeValue(forKey: pong.id) else { return }
        let boardReceived = clockExtender.extend(pong.rxTime)
        let boardSent = clockExtender.extend(pong.txTime)
        clock.add(ClockSample(hostSent: sent, hostReceived: now, boardReceived: boardReceived, boardSent: boardSent))
        sender.noteControlRoundTrip(now.duration(since: sent), payload: payload)
    }

    // MARK: emitting frames

    /// Sends a SACK first if one is owed (so that its bitmap arrives before any acknowledgement the reliable
    /// frames carry), then what the reliable window allows, then a bare ACK if an acknowledgement is still owed.
    private mutating func flush(at now: MonotonicInstant) {
        guard phase == .established else { return }
        if receiver.sackPending {
            receiver.sackPending = false
            let bitmap = receiver.heldBitmap
            if peerTakesSack, !bitmap.isEmpty, let payload = try? MessageCodec.encode(.sack(held: bitmap)) {
                emit(.control, type: MessageType.sack.rawValue, payload: payload)
                statistics.sacksSent += 1
            }
        }
        for frame in sender.framesToSend(at: now) {
            emit(.reliable, seq: frame.seq, type: frame.type, payload: frame.payload)
        }
        statistics.retransmissions = sender.retransmissions
        statistics.timeouts = sender.timeouts
        statistics.nakResends = sender.nakResends
        statistics.duplicateAckResends = sender.duplicateAckResends
        statistics.selectiveResends = sender.selectiveResends
        if sender.wantsProbe {
            // A PING right behind a selective resend: its PONG shows at once whether the resend arrived (§6.1).
            sender.wantsProbe = false
            if !isBoard { sendPing(at: now, probe: true) }
        }
        if receiver.ackPending || receiver.nakPending {
            emit(.control, type: MessageType.ack.rawValue, payload: [])
        }
    }

    private mutating func emit(_ channel: Channel, seq: UInt8 = 0, type: UInt8, payload: [UInt8]) {
        let nak = receiver.nakPending
        let header = FrameHeader(
            channel: channel, nak: nak, epoch: epoch, seq: seq, ack: receiver.lastDelivered,
            window: UInt8(min(max(configuration.receiveWindow, 0), 127)), type: type)
        receiver.ackPending = false
        receiver.nakPending = false
        append(FrameEncoder.encode(header: header, payload: payload), payload: payload.count)
    }

    private mutating func emitRaw(_ channel: Channel, epoch: UInt16, type: UInt8, payload: [UInt8]) {
        let header = FrameHeader(
            channel: channel, epoch: epoch, window: UInt8(min(configuration.receiveWindow, 127)), type: type)
        append(FrameEncoder.encode(header: header, payload: payload), payload: payload.count)
    }

    private mutating func append(_ frame: [UInt8], payload: Int) {
        outbox.append(frame)
        statistics.framesSent += 1
        statistics.bytesSent += frame.count
    }
}
