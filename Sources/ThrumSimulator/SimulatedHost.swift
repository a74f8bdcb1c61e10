import ThrumWire

/// A host speaking ThrumWire's link (`LinkSession`) to a simulated board in the same process, on
/// the board's clock: deterministic, no threads, no sleeps. Host time follows board time through
/// the board's crystal (`BoardConfiguration.clockPPM`): equal when the crystal is exact.
public struct SimulatedHost {
    public let board: SimulatedBoard
    public private(set) var session: LinkSession
    /// Every event the link reported, in order.
    public private(set) var events: [LinkEvent] = []
    /// Step by which `run` advances the board when nothing is due sooner (microseconds).
    public var stepMicroseconds: UInt64 = 1000
    private let crystal: BoardCrystal

    /// For tests in this package: a host that runs the board in its own steps.
    package init(board: SimulatedBoard, configuration: LinkConfiguration = LinkConfiguration(role: .host)) {
        self.board = board
        self.session = LinkSession(configuration: configuration)
        crystal = board.configuration.crystal
    }

    /// The host's time when the board's clock reached its reading.
    var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: crystal.hostNanoseconds(atBoardMicroseconds: board.time))
    }

    /// Sends HELLO and runs until INFO arrives (or `limit` microseconds pass); returns INFO.
    public mutating func connect(limit: UInt64 = 5_000_000) throws -> WireMessage {
        session.connect(at: now)
        let deadline = board.time + limit
        var info: WireMessage?
        run(
            until: { event in
                if case .connected(let message) = event {
                    info = message
                    return true
                }
                return false
            }, deadline: deadline)
        guard let info else { throw SimulatorError("no INFO within \(limit) µs: events \(events)") }
        return info
    }

    /// Queues a message on the link.
    public mutating func send(_ message: WireMessage) throws {
        try session.send(message, at: now)
        flush()
    }

    /// Runs host and board together until `stop` accepts an event or board time reaches `deadline`.
    /// Returns the event that stopped it.
    @discardableResult
    public mutating func run(until stop: (LinkEvent) -> Bool, deadline: UInt64) -> LinkEvent? {
        while board.time < deadline {
            flush()
            var next = min(deadline, board.time + stepMicroseconds)
            if let arrival = board.nextByteToHost, arrival > board.time, arrival < next { next = arrival }
            if let due = session.nextDeadline.map({ crystal.boardMicroseconds(reachingHostNanoseconds: $0.nanoseconds) }
            ),
                due > board.time, due < next
            {
                next = due
            }
            board.advance(to: next)
            let received = board.hostReceive()
            if !received.isEmpty { session.receive(received, at: now) }
            session.advance(to: now)
            flush()
            for event in session.takeEvents() {
                events.append(event)
                if stop(event) { return event }
            }
        }
        return nil
    }

    /// Runs until a message of `type` arrives; returns it.
    public mutating func waitFor(_ type: MessageType, within limit: UInt64 = 2_000_000) throws -> WireMessage {
        let event = run(
            until: { event in
                if case .received(let message, _) = event { return message.type == type }
                return false
            }, deadline: board.time + limit)
        guard case .received(let message, _)? = event else { throw SimulatorError("no \(type) within \(limit) µs") }
        return message
    }

    /// Uploads and commits a timeline with ThrumWire's `TimelineUpload`; returns the handle.
    public mutating func upload(_ bytes: [UInt8], limit: UInt64 = 10_000_000) throws -> UInt8 {
        var upload = TimelineUpload(bytes: bytes, maxPayload: session.peerMaxPayload, firstTag: 100)
        for message in upload.restart() { try send(message) }
        let deadline = board.time + limit
        while board.time < deadline {
            if case .committed(let handle) = upload.state { return handle }
            if case .failed(let status, let during) = upload.state {
                throw SimulatorError("upload failed during \(during) with status \(status)")
            }
            let event = run(until: { if case .received = $0 { true } else { false } }, deadline: deadline)
            if case .received(let reply, _)? = event {
                for message in upload.handle(reply) { try send(message) }
            }
        }
        throw SimulatorError("upload not committed within \(limit) µs (state \(upload.state))")
    }

    private mutating func flush() {
        for frame in session.takeFrames() { board.hostSend(frame) }
    }
}
