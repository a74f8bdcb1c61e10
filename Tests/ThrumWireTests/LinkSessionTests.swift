import Testing
import ThrumTesting

@testable import ThrumWire

/// The link state machine driven frame by frame, with a hand-built peer where the test needs one.
@Suite("Link session")
struct LinkSessionTests {
    static func decode(_ frames: [[UInt8]]) -> [(header: FrameHeader, message: WireMessage?)] {
        var decoder = FrameDecoder()
        return frames.flatMap { decoder.feed($0) }.compactMap { output in
            guard case .frame(let frame) = output else { return nil }
            return (frame.header, try? MessageCodec.decode(frame))
        }
    }

    static func info(nonce: UInt32, major: UInt8 = MessageCatalog.major) -> WireMessage.Info {
        guard case .board(_, var info) = LinkSimulation.boardConfiguration().role else { fatalError() }
        info.nonce = nonce
        info.major = major
        return info
    }

    static func boardFrame(_ info: WireMessage.Info, epoch: UInt16) -> [UInt8] { boardFrame(.info(info), epoch: epoch) }

    static func boardFrame(
        _ message: WireMessage, channel: Channel = .control, epoch: UInt16, seq: UInt8 = 0, ack: UInt8 = 0,
        window: UInt8 = 4
    ) -> [UInt8] {
        let header = FrameHeader(
            channel: channel, epoch: epoch, seq: seq, ack: ack, window: window, type: message.type.rawValue)
        return FrameEncoder.encode(header: header, payload: try! MessageCodec.encode(message))
    }

    /// A host that has sent HELLO and received INFO in `epoch`.
    /// `selective`: false for a host of message set 1.0 (no held frames, no SACK); `boardMinor`: the INFO's.
    static func connectedHost(
        epoch: UInt16 = 0x0100, at now: MonotonicInstant = .zero, selective: Bool = true,
        boardMinor: UInt8 = MessageCatalog.minor
    ) -> LinkSession {
        var configuration = LinkConfiguration(role: .host)
        configuration.clockSync.interval = nil
        configuration.clockSync.burstCount = 0
        configuration.selectiveAcknowledgement = selective
        var host = LinkSession(configuration: configuration)
        host.connect(at: now)
        let hello = decode(host.takeFrames())[0]
        var info = info(nonce: hello.message!.nonce!)
        info.minor = boardMinor
        host.receive(boardFrame(info, epoch: epoch), at: now)
        return host
    }

    @Test("handshake: HELLO with epoch 0, then INFO opens the session in the board's epoch")
    func handshake() throws {
        var host = LinkSession(configuration: LinkConfiguration(role: .host))
        host.connect(at: .zero)
        let sent = Self.decode(host.takeFrames())
        #expect(sent.count == 1)
        #expect(sent[0].header.epoch == 0 && sent[0].header.channel == .control)
        let hello = try #require(sent[0].message)
        #expect(hello.type == .hello)
        #expect(hello.announcedMajor == MessageCatalog.major)

        host.receive(Self.boardFrame(Self.info(nonce: 1234), epoch: 0x77), at: .zero)  // wrong nonce: ignored
        #expect(!host.isEstablished)
        host.receive(Self.boardFrame(Self.info(nonce: hello.nonce!), epoch: 0x77), at: .zero)
        #expect(host.isEstablished)
        #expect(host.epoch == 0x77)
        #expect(host.peerMaxPayload == 512)
        #expect(host.takeEvents().contains { if case .connected(let info) = $0 { info.type == .info } else { false } })
    }

    @Test("HELLO is repeated until INFO arrives, then the handshake gives up loudly")
    func helloRetries() {
        var configuration = LinkConfiguration(role: .host)
        configuration.helloAttempts = 3
        var host = LinkSession(configuration: configuration)
        host.connect(at: .zero)
        var hellos = Self.decode(host.takeFrames()).count
        while let deadline = host.nextDeadline {
            host.advance(to: deadline)
            hellos += Self.decode(host.takeFrames()).count
        }
        #expect(hellos == 3)
        #expect(host.takeEvents() == [.failed(.handshakeTimedOut(attempts: 3))])
    }

    @Test("a board with another major version is reported with both versions")
    func versionMismatch() throws {
        var host = LinkSession(configuration: LinkConfiguration(role: .host))
        host.connect(at: .zero)
        let nonce = try #require(Self.decode(host.takeFrames())[0].message?.nonce)
        var info = Self.info(nonce: nonce, major: MessageCatalog.major + 1)
        info.minor = 3
        host.receive(Self.boardFrame(info, epoch: 9), at: .zero)
        #expect(!host.isEstablished)
        #expect(
            host.takeEvents() == [
                .versionMismatch(host: .current, board: ProtocolVersion(major: MessageCatalog.major + 1, minor: 3))
            ])
        #expect(throws: LinkError.notConnected) { try host.send(.engineStart(tag: 1), at: .zero) }
    }

    @Test("the board role answers a HELLO of another major with INFO but accepts nothing else")
    func boardRefusesOtherMajor() {
        var board = LinkSession(configuration: LinkSimulation.boardConfiguration(bootEpoch: 5))
        let hello = WireMessage.hello(major: MessageCatalog.major + 1, minor: 0, maxPayload: 1024, window: 8, nonce: 42)
        board.receive(
            FrameEncoder.encode(
                header: FrameHeader(channel: .control, epoch: 0, type: 1), payload: try! MessageCodec.encode(hello)),
            at: .zero)
        let answer = Self.decode(board.takeFrames())
        #expect(answer.first?.message?.type == .info)
        #expect(
            board.takeEvents() == [
                .versionMismatch(host: ProtocolVersion(major: MessageCatalog.major + 1, minor: 0), board: .current)
            ])
        let command = FrameEncoder.encode(
            header: FrameHeader(channel: .reliable, epoch: board.epoch, seq: 1, type: MessageType.engineStart.rawValue),
            payload: [1, 0])
        board.receive(command, at: .zero)
        #expect(board.takeEvents().isEmpty)
    }

    @Test("a repeated HELLO with the same nonce repeats INFO without starting a new epoch")
    func duplicateHello() {
        var board = LinkSession(configuration: LinkSimulation.boardConfiguration(bootEpoch: 5))
        let hello = WireMessage.hello(major: MessageCatalog.major, minor: 0, maxPayload: 1024, window: 8, nonce: 42)
        let frame = FrameEncoder.encode(
            header: FrameHeader(channel: .control, epoch: 0, type: 1), payload: try! MessageCodec.encode(hello))
        board.receive(frame, at: .zero)
        let first = Self.decode(board.takeFrames())
        board.receive(frame, at: .zero)
        let second = Self.decode(board.takeFrames())
        #expect(first.map(\.header.epoch) == [6])
        #expect(second.map(\.header.epoch) == [6])
        #expect(second.first?.message?.nonce == 42)
        let another = WireMessage.hello(major: MessageCatalog.major, minor: 0, maxPayload: 1024, window: 8, nonce: 43)
        board.receive(
            FrameEncoder.encode(
                header: FrameHeader(channel: .control, epoch: 0, type: 1), payload: try! MessageCodec.encode(another)),
            at: .zero)
        #expect(Self.decode(board.takeFrames()).map(\.header.epoch) == [7])
    }

    @Test("a frame from a new epoch is a peer reset: reported, pending messages discarded, new handshake")
    func peerReset() throws {
        var host = Self.connectedHost(epoch: 0x0100)
        _ = host.takeEvents()
        try host.send(.engineStart(tag: 1), at: .zero)
        try host.send(.engineStop(tag: 2), at: .zero)
        _ = host.takeFrames()
        host.receive(Self.boardFrame(.ack(), epoch: 0x0900), at: .zero)
        #expect(host.takeEvents() == [.peerReset(previousEpoch: 0x0100, newEpoch: 0x0900, discardedMessages: 2)])
        #expect(!host.isEstablished)
        #expect(Self.decode(host.takeFrames()).first?.message?.type == .hello)
        #expect(host.pendingReliable == 0)
    }

    @Test("the board role drops frames of another epoch and tells its epoch at once")
    func boardStaleEpoch() {
        var board = LinkSession(configuration: LinkSimulation.boardConfiguration(bootEpoch: 0x3000))
        let stale = FrameEncoder.encode(
            header: FrameHeader(channel: .reliable, epoch: 0x2FFF, seq: 1, type: MessageType.engineStart.rawValue),
            payload: [1, 0])
        board.receive(stale, at: .zero)
        let answer = Self.decode(board.takeFrames())
        #expect(answer.map(\.header.epoch) == [0x3000])
        #expect(answer.first?.message?.type == .ack)
        #expect(board.takeEvents().isEmpty)
        #expect(board.statistics.staleEpoch == 1)
    }

    @Test("an unknown message type is answered with ERROR naming it, and still acknowledged")
    func unknownType() throws {
        var host = Self.connectedHost(epoch: 0x0100)
        _ = host.takeEvents()
        let header = FrameHeader(channel: .reliable, epoch: 0x0100, seq: 1, ack: 0, window: 4, type: 0xEE)
        host.receive(FrameEncoder.encode(header: header, payload: [1, 2, 3]), at: .zero)
        #expect(host.takeEvents() == [.undecodable(.unknownType(0xEE), .reliable)])
        let replies = Self.decode(host.takeFrames())
        let error = try #require(replies.first { $0.message?.type == .error })
        #expect(error.header.channel == .reliable)
        #expect(error.header.ack == 1)
        guard case .error(let report)? = error.message else {
            Issue.record("no ERROR: \(String(describing: error.message))")
            return
        }
        #expect(report.refType == 0xEE)
        #expect(report.status == .unknownMessage)
        #expect(report.detail.contains("238"))
    }

    @Test("a message from the wrong direction is answered like an unknown one")
    func wrongDirection() throws {
        var host = Self.connectedHost(epoch: 0x0100)
        _ = host.takeEvents()
        let upload = WireMessage.uploadBegin(tag: 1, size: 10, hash: 0)
        host.receive(Self.boardFrame(upload, channel: .reliable, epoch: 0x0100, seq: 1), at: .zero)
        #expect(host.takeEvents() == [.undecodable(.wrongDirection(message: "UPLOAD_BEGIN"), .reliable)])
        #expect(throws: LinkError.wrongDirection(.info)) { try host.send(.info(Self.info(nonce: 1)), at: .zero) }
    }

    @Test("realtime frames: newest wins, stale and duplicate ones are dropped")
    func realtimeNewestWins() {
        var host = Self.connectedHost(epoch: 0x0100)
        _ = host.takeEvents()
        let log = WireMessage.log(level: .info, text: "x")  // any board message; channel is what matters here
        for seq: UInt8 in [5, 4, 6, 6, 200, 7, 70] {
            let header = FrameHeader(
                channel: .realtime, epoch: 0x0100, seq: seq, window: 4, type: MessageType.log.rawValue)
            host.receive(FrameEncoder.encode(header: header, payload: try! MessageCodec.encode(log)), at: .zero)
        }
        // 5 first; 4 stale; 6 newer; 6 duplicate; 200 newer (194 ahead? no: 6→200 is 194, outside 1…191: stale); 7 newer; 70 newer
        #expect(host.takeEvents().count == 4)
        #expect(host.statistics.staleRealtime == 3)
    }

    @Test("NewestWinsFilter accepts 1…191 ahead, refuses equal and up to 64 behind")
    func newestWinsFilter() {
        var filter = NewestWinsFilter()
        let verdicts = [250, 250 &+ 191, 250 &+ 191, 250 &+ 191 &- 64, 250 &+ 191 &+ 1].map { filter.accept($0) }
        #expect(verdicts == [true, true, false, false, true])
    }

    @Test("reliable receive (1.0 host): in order delivered, duplicates re-acknowledged, a gap NAKed once")
    func reliableReceive() {
        var host = Self.connectedHost(epoch: 0x0100, selective: false)
        _ = host.takeEvents()
        _ = host.takeFrames()
        func deliver(_ seq: UInt8) -> [(header: FrameHeader, message: WireMessage?)] {
            host.receive(
                Self.boardFrame(.result(tag: UInt16(seq), status: .ok), channel: .reliable, epoch: 0x0100, seq: seq),
                at: .zero)
            return Self.decode(host.takeFrames())
        }
        #expect(deliver(1).map(\.header.ack) == [1])
        #expect(deliver(1).map(\.header.ack) == [1])  // duplicate: ack again
        let gap = deliver(3)
        #expect(gap.map(\.header.ack) == [1])
        #expect(gap.map(\.header.nak) == [true])
        #expect(deliver(4).map(\.header.nak) == [false])  // one NAK per gap
        #expect(deliver(2).map(\.header.ack) == [2])
        let delivered = host.takeEvents().compactMap { event -> UInt16? in
            if case .received(let message, .reliable) = event { message.tag } else { nil }
        }
        #expect(delivered == [1, 2])
        #expect(host.statistics.duplicates == 1)
        #expect(host.statistics.outOfOrder == 2)
    }

    @Test(
        "reliable receive with SACK: frames after a gap are held, named in SACK (to a 1.1 board only) and delivered once the gap fills",
        arguments: [MessageCatalog.minor, 0])
    func reliableReceiveHolding(boardMinor: UInt8) {
        var host = Self.connectedHost(epoch: 0x0100, boardMinor: boardMinor)
        _ = host.takeEvents()
        _ = host.takeFrames()
        func deliver(_ seq: UInt8) -> [(header: FrameHeader, message: WireMessage?)] {
            host.receive(
                Self.boardFrame(.result(tag: UInt16(seq), status: .ok), channel: .reliable, epoch: 0x0100, seq: seq),
                at: .zero)
            return Self.decode(host.takeFrames())
        }
        let sack = boardMinor >= 1
        #expect(deliver(1).map(\.message) == [.ack()])
        let gap = deliver(3)
        #expect(gap.map(\.header.ack) == [1])
        #expect(gap.map(\.header.nak) == [true])  // one NAK per gap, for a go-back-N sender
        #expect(gap.map(\.message) == [sack ? .sack(held: [0b01]) : .ack()])  // bit 0: frame ack + 2 = 3
        let more = deliver(5)
        #expect(more.map(\.message) == [sack ? .sack(held: [0b101]) : .ack()])  // 3 and 5 held
        #expect(more.map(\.header.nak) == [false])
        #expect(deliver(3).map(\.header.ack) == [1])  // a held frame again: a duplicate
        let filled = deliver(2)
        #expect(filled.map(\.header.ack) == [3])  // 2 and the held 3 delivered, 5 still held after the gap at 4
        #expect(filled.map(\.message) == [sack ? .sack(held: [0b1]) : .ack()])
        #expect(deliver(4).map(\.message) == [.ack()])  // 4 and the held 5 delivered: nothing held, a plain ACK
        let delivered = host.takeEvents().compactMap { event -> UInt16? in
            if case .received(let message, .reliable) = event { message.tag } else { nil }
        }
        #expect(delivered == [1, 2, 3, 4, 5])
        #expect(host.statistics.framesHeld == 2)
        #expect(host.statistics.duplicates == 1)
        #expect(host.statistics.sacksSent == (sack ? 4 : 0))  // every reliable frame that arrives while frames are held
    }

    @Test(
        "reliable send: window respected, cumulative ack frees, timeout resends the oldest, then the link fails loudly")
    func reliableSend() throws {
        var configuration = LinkConfiguration(role: .host)
        configuration.clockSync.interval = nil
        configuration.clockSync.burstCount = 0
        configuration.maxTransmissions = 3
        var host = LinkSession(configuration: configuration)
        host.connect(at: .zero)
        let nonce = Self.decode(host.takeFrames())[0].message!.nonce!
        var info = Self.info(nonce: nonce)
        info.window = 2
        host.receive(Self.boardFrame(info, epoch: 1), at: .zero)
        for tag in 1...5 { try host.send(.engineStart(tag: UInt16(tag)), at: .zero) }
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [1, 2])  // INFO.window = 2

        let t1 = MonotonicInstant.zero + .milliseconds(20)
        host.receive(Self.boardFrame(.ack(), epoch: 1, ack: 1, window: 2), at: t1)
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [3])
        #expect(host.pendingReliable == 4)

        host.receive(Self.boardFrame(.ack(), epoch: 1, ack: 1, window: 2), at: t1)  // duplicate ack: nothing
        #expect(Self.decode(host.takeFrames()).isEmpty)

        var transmissions = 0
        while let deadline = host.nextDeadline, transmissions < 10 {
            host.advance(to: deadline)
            let resent = Self.decode(host.takeFrames()).map(\.header.seq)
            if !resent.isEmpty {
                #expect(resent == [2], "a timeout resends the oldest frame only")
                transmissions += 1
            }
        }
        // The first expiry does not count towards giving up: the board's ack at t1 came after frame 2 left,
        // so the line was alive. The next three find the board silent since the resend.
        #expect(transmissions == 3)
        #expect(host.takeEvents().contains(.failed(.retransmissionLimit(seq: 2, transmissions: 3))))
    }

    /// A host with frames 1…3 in flight, the first round trip measured at 20 ms, and frame 1 timed out.
    static func hostAfterTimeout() throws -> (LinkSession, MonotonicInstant) {
        var host = connectedHost(epoch: 1)
        try host.send(WireMessage.engineStart(tag: 0), at: .zero)
        _ = host.takeFrames()
        host.receive(boardFrame(.ack(), epoch: 1, ack: 1, window: 4), at: .zero + .milliseconds(20))
        for tag in 1...3 { try host.send(WireMessage.engineStart(tag: UInt16(tag)), at: .zero + .milliseconds(20)) }
        #expect(decode(host.takeFrames()).map(\.header.seq) == [2, 3, 4])
        let deadline = try #require(host.nextDeadline)
        host.advance(to: deadline)
        #expect(decode(host.takeFrames()).map(\.header.seq) == [2])
        return (host, deadline)
    }

    @Test("after a timeout, a late acknowledgement of the resent frame resends the frames the receiver dropped")
    func timeoutRecovery() throws {
        var (host, timedOut) = try Self.hostAfterTimeout()
        host.receive(Self.boardFrame(.ack(), epoch: 1, ack: 2, window: 4), at: timedOut + .milliseconds(15))
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [3, 4])
    }

    @Test("after a spurious timeout, a prompt acknowledgement of the original sends nothing again")
    func spuriousTimeout() throws {
        var (host, timedOut) = try Self.hostAfterTimeout()
        host.receive(Self.boardFrame(.ack(), epoch: 1, ack: 3, window: 4), at: timedOut + .milliseconds(1))
        #expect(Self.decode(host.takeFrames()).isEmpty)
        #expect(host.pendingReliable == 1)
    }

    /// The cause of the 1 % byte-corruption crawl (LinkTransferTests): an answer that comes a few ms after a
    /// resend was taken for an answer to the original whenever it came sooner than srtt/2, and srtt had
    /// grown far beyond one frame's round trip; the frames the receiver dropped after the lost one were then
    /// not resent, and each waited out a whole (doubled) timeout.
    @Test(
        "an answer to a timeout's resend sooner than srtt/2 but no sooner than a round trip can be is a real loss: the dropped frames are resent"
    )
    func promptAnswerToResendIsALoss() throws {
        var host = Self.connectedHost(epoch: 1)
        var now = MonotonicInstant.zero
        // Round trips of 2 ms, then 300 ms five times: srtt grows to about 150 ms.
        for (tag, roundTrip) in [(1, 2), (2, 300), (3, 300), (4, 300), (5, 300), (6, 300)] {
            try host.send(WireMessage.engineStart(tag: UInt16(tag)), at: now)
            _ = host.takeFrames()
            now = now + .milliseconds(roundTrip)
            host.receive(Self.boardFrame(.ack(), epoch: 1, ack: UInt8(tag), window: 4), at: now)
        }
        for tag in 7...9 { try host.send(WireMessage.engineStart(tag: UInt16(tag)), at: now) }
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [7, 8, 9])
        let timedOut = try #require(host.nextDeadline)
        host.advance(to: timedOut)
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [7])
        host.receive(Self.boardFrame(.ack(), epoch: 1, ack: 7, window: 4), at: timedOut + .milliseconds(5))
        #expect(
            Self.decode(host.takeFrames()).map(\.header.seq) == [8, 9], "the receiver dropped 8 and 9 after losing 7")
    }

    @Test("NAK makes the sender resend from the gap at once")
    func nakResend() throws {
        var host = Self.connectedHost(epoch: 1)
        for tag in 1...3 { try host.send(.engineStart(tag: UInt16(tag)), at: .zero) }
        _ = host.takeFrames()
        let header = FrameHeader(channel: .control, nak: true, epoch: 1, ack: 1, window: 4, type: 0)
        // A round trip of 10 ms.
        host.receive(FrameEncoder.encode(header: header, payload: []), at: .zero + .milliseconds(10))
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [2, 3])
        host.receive(FrameEncoder.encode(header: header, payload: []), at: .zero + .milliseconds(12))
        #expect(Self.decode(host.takeFrames()).isEmpty, "a repeated NAK within a round trip is ignored")
        host.receive(FrameEncoder.encode(header: header, payload: []), at: .zero + .milliseconds(25))
        #expect(
            Self.decode(host.takeFrames()).map(\.header.seq) == [2, 3], "a NAK after a round trip is honoured again")
    }

    @Test(
        "SACK makes the sender resend only the frames missing below a held one, each copy once; NAKs then resend nothing"
    )
    func selectiveResend() throws {
        var host = Self.connectedHost(epoch: 1)
        for tag in 1...4 { try host.send(.engineStart(tag: UInt16(tag)), at: .zero) }
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [1, 2, 3, 4])
        var sent: [(header: FrameHeader, message: WireMessage?)] = []
        func sack(ack: UInt8, held: [UInt8], nak: Bool = false, at ms: Int) -> [UInt8] {
            host.receive(
                FrameEncoder.encode(
                    header: FrameHeader(
                        channel: .control, nak: nak, epoch: 1, ack: ack, window: 4, type: MessageType.sack.rawValue),
                    payload: try! MessageCodec.encode(.sack(held: held))), at: .zero + .milliseconds(ms))
            sent = Self.decode(host.takeFrames())
            return sent.filter { $0.header.channel == .reliable }.map(\.header.seq)
        }
        // 3 held (bit 1 after ack 0): 1 and 2 left before it and are missing; 4 left after it and may be on its way.
        #expect(sack(ack: 0, held: [0b10], nak: true, at: 10) == [1, 2])
        #expect(host.statistics.selectiveResends == 2)
        #expect(sent.last?.message?.type == .ping, "a PING right behind the resends: its PONG shows if they died")
        #expect(sack(ack: 0, held: [0b1010], at: 11) == [], "4 held too: the resends left after it")
        let nak = FrameHeader(channel: .control, nak: true, epoch: 1, ack: 0, window: 4, type: 0)
        host.receive(FrameEncoder.encode(header: nak, payload: []), at: .zero + .milliseconds(40))
        #expect(Self.decode(host.takeFrames()).isEmpty, "a peer that holds frames: its NAK resends nothing")
        #expect(sack(ack: 1, held: [0b11], at: 41) == [], "1 arrived; the resent 2 is on its way, 3 and 4 held")
        #expect(host.pendingReliable == 3)
        // The resent 2 lost: it is now the oldest, and only it goes again when the timer expires.
        host.advance(to: .zero + .seconds(2))
        #expect(Self.decode(host.takeFrames()).map(\.header.seq) == [2])
        host.receive(
            FrameEncoder.encode(
                header: FrameHeader(channel: .control, epoch: 1, ack: 4, window: 4, type: 0), payload: []),
            at: .zero + .seconds(2) + .milliseconds(10))
        #expect(Self.decode(host.takeFrames()).isEmpty, "held frames are never sent again")
        #expect(host.pendingReliable == 0)
    }

    @Test("the retransmission timeout adapts to the round trip (RFC 6298 with an srtt/2 floor)")
    func retransmissionTimer() {
        var timer = RetransmissionTimer(initial: .milliseconds(500), minimum: .milliseconds(10), maximum: .seconds(4))
        for _ in 0..<30 { timer.record(sample: .milliseconds(40)) }
        #expect(timer.timeout >= .milliseconds(59) && timer.timeout <= .milliseconds(61))
        timer.backOff()
        #expect(timer.timeout >= .milliseconds(118))
        for _ in 0..<30 { timer.record(sample: .microseconds(100)) }
        #expect(timer.timeout == .milliseconds(10))
    }

    @Test("send refuses when the queue is full")
    func queueFull() throws {
        var configuration = LinkConfiguration(role: .host)
        configuration.maxQueuedMessages = 2
        var host = LinkSession(configuration: configuration)
        host.connect(at: .zero)
        let nonce = Self.decode(host.takeFrames())[0].message!.nonce!
        host.receive(Self.boardFrame(Self.info(nonce: nonce), epoch: 1), at: .zero)
        try host.send(.engineStart(tag: 1), at: .zero)
        try host.send(.engineStart(tag: 2), at: .zero)
        #expect(throws: LinkError.queueFull(limit: 2)) { try host.send(.engineStart(tag: 3), at: .zero) }
    }
}

@Suite("Keep-alive")
struct KeepAliveTests {
    @Test("the host pings often enough for the board's stated keep-alive")
    func pingsWithinKeepAlive() throws {
        var configuration = LinkConfiguration(role: .host)
        configuration.clockSync.burstCount = 0
        configuration.clockSync.interval = .seconds(1)
        var host = LinkSession(configuration: configuration)
        host.connect(at: .zero)
        let nonce = try #require(LinkSessionTests.decode(host.takeFrames())[0].message?.nonce)
        var info = LinkSessionTests.info(nonce: nonce)
        info.keepaliveMs = 300
        host.receive(LinkSessionTests.boardFrame(info, epoch: 1), at: .zero)
        var pingTimes: [MonotonicInstant] = []
        while let deadline = host.nextDeadline, deadline < .zero + .seconds(1) {
            host.advance(to: deadline)
            if LinkSessionTests.decode(host.takeFrames()).contains(where: { $0.message?.type == .ping }) {
                pingTimes.append(deadline)
            }
        }
        #expect(pingTimes.count >= 9)
        for (earlier, later) in zip(pingTimes, pingTimes.dropFirst()) {
            #expect(later.duration(since: earlier) <= .milliseconds(100))
        }
    }
}

extension WireMessage {
    /// The nonce a HELLO or INFO carries (the tests answer handshakes with it).
    var nonce: UInt32? {
        switch self {
        case .hello(let hello): hello.nonce
        case .info(let info): info.nonce
        default: nil
        }
    }

    var announcedMajor: UInt8? {
        switch self {
        case .hello(let hello): hello.major
        case .info(let info): info.major
        default: nil
        }
    }
}
