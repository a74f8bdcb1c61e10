/// Two link ends joined by two virtual lines, run in virtual time (no I/O, no sleeping). The board end
/// is only a link peer: it answers PING with PONG from a simulated clock and collects what it receives.
/// Board behaviour proper belongs to the C firmware core; this exists to test and measure the link.
public struct LinkSimulation: Sendable {
    public private(set) var now = MonotonicInstant.zero
    public var host: LinkSession
    public var board: LinkSession
    public var toBoard: VirtualLine
    public var toHost: VirtualLine
    public var boardClock: SimulatedBoardClock
    /// Everything the host reported, in order.
    public private(set) var hostEvents: [LinkEvent] = []
    /// Messages the board end received, in order, with their channel.
    public private(set) var boardReceived: [(message: WireMessage, channel: Channel)] = []

    public init(host: LinkConfiguration, board: LinkConfiguration, toBoard: VirtualLine, toHost: VirtualLine, boardClock: SimulatedBoardClock) {
        self.host = LinkSession(configuration: host)
        self.board = LinkSession(configuration: board)
        self.toBoard = toBoard
        self.toHost = toHost
        self.boardClock = boardClock
    }

    /// A board-role configuration with a plausible INFO for simulations.
    public static func boardConfiguration(maxPayload: Int = 512, window: Int = 4, bootEpoch: UInt16 = 0x5A00) -> LinkConfiguration {
        let info = WireMessage(.info, [
            "nonce": 0, "major": .int(Int64(MessageCatalog.major)), "minor": .int(Int64(MessageCatalog.minor)),
            "firmware": "sim", "board": "virtual-line", "serial": "0",
            "max_payload": .int(Int64(maxPayload)), "window": .int(Int64(window)), "tick_hz": 1000,
            "timeline_memory": 65536, "max_timelines": 8, "players": 4, "max_curve_points": 16, "flash_slots": 4,
            "flash_slot_size": 4096, "trigger_inputs": 1, "audio": 0, "audio_rate_hz": 0, "keepalive_ms": 500,
            "stream_max_samples": 64, "channels": .list([["kind": 0, "resonant_dhz": 1700, "rated_mv": 2000, "max_mv": 3300]]),
        ])
        var configuration = LinkConfiguration(role: .board(bootEpoch: bootEpoch, info: info))
        configuration.maxPayload = maxPayload
        configuration.receiveWindow = window
        return configuration
    }

    public mutating func connect() {
        host.connect(at: now)
        pump()
    }

    public mutating func takeHostEvents() -> [LinkEvent] {
        defer { hostEvents.removeAll() }
        return hostEvents
    }

    public mutating func takeBoardReceived() -> [(message: WireMessage, channel: Channel)] {
        defer { boardReceived.removeAll() }
        return boardReceived
    }

    /// Host sends a message now.
    public mutating func hostSend(_ message: WireMessage) throws(LinkError) {
        try host.send(message, at: now)
        pump()
    }

    /// Board end sends a message now.
    public mutating func boardSend(_ message: WireMessage) throws(LinkError) {
        try board.send(message, at: now, errorChannel: .reliable)
        pump()
    }

    /// The time of the next thing that happens.
    public var nextEventTime: MonotonicInstant? {
        [host.nextDeadline, board.nextDeadline, toBoard.nextDelivery, toHost.nextDelivery].compactMap { $0 }.min()
    }

    /// Runs until `deadline` or until `stop` returns true (checked after every event). Returns whether `stop` held.
    @discardableResult
    public mutating func run(until deadline: MonotonicInstant, stop: (inout LinkSimulation) -> Bool = { _ in false }) -> Bool {
        var stepsWithoutProgress = 0
        while let next = nextEventTime, next <= deadline {
            stepsWithoutProgress = next <= now ? stepsWithoutProgress + 1 : 0
            if stepsWithoutProgress > 100_000 { break }  // a stuck deadline must not hang a test
            now = max(now, next)
            step()
            if stop(&self) { return true }
        }
        now = max(now, deadline)
        step()
        return stop(&self)
    }

    private mutating func step() {
        let forBoard = toBoard.deliver(upTo: now)
        if !forBoard.isEmpty { board.receive(forBoard, at: now) }
        let forHost = toHost.deliver(upTo: now)
        if !forHost.isEmpty { host.receive(forHost, at: now) }
        host.advance(to: now)
        board.advance(to: now)
        pump()
    }

    private mutating func pump() {
        for event in board.takeEvents() {
            guard case .received(let message, let channel) = event else { continue }
            if message.type == .ping {
                let reading = Int64(boardClock.reading(at: now))
                let pong = WireMessage(.pong, [
                    "id": message["id"] ?? 0, "host_time": message["host_time"] ?? 0, "rx_time": .int(reading), "tx_time": .int(reading),
                ])
                try? board.send(pong, at: now)
            } else {
                boardReceived.append((message, channel))
            }
        }
        hostEvents.append(contentsOf: host.takeEvents())
        for frame in host.takeFrames() { toBoard.write(frame, at: now) }
        for frame in board.takeFrames() { toHost.write(frame, at: now) }
    }
}
