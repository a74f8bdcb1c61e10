import ThrumWire

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

    public init(
        host: LinkConfiguration, board: LinkConfiguration, toBoard: VirtualLine, toHost: VirtualLine,
        boardClock: SimulatedBoardClock
    ) {
        self.host = LinkSession(configuration: host)
        self.board = LinkSession(configuration: board)
        self.toBoard = toBoard
        self.toHost = toHost
        self.boardClock = boardClock
    }

    /// A board-role configuration with a plausible INFO for simulations.
    public static func boardConfiguration(
        maxPayload: Int = 512, window: Int = 4, bootEpoch: UInt16 = 0x5A00
    ) -> LinkConfiguration {
        let info = WireMessage.Info(
            nonce: 0, major: MessageCatalog.major, minor: MessageCatalog.minor, firmware: "sim", board: "virtual-line",
            serial: "0",
            maxPayload: UInt16(maxPayload), window: UInt8(window), tickHz: 1000, timelineMemory: 65536, maxTimelines: 8,
            players: 4,
            maxCurvePoints: 16, flashSlots: 4, flashSlotSize: 4096, triggerInputs: 1, audio: .none, audioRateHz: 0,
            keepaliveMs: 500,
            streamMaxSamples: 64, channels: [.init(kind: .lra, resonantDhz: 1700, ratedMv: 2000, maxMv: 3300)])
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
    public mutating func run(
        until deadline: MonotonicInstant, stop: (inout LinkSimulation) -> Bool = { _ in false }
    ) -> Bool {
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
            if case .ping(let ping) = message {
                let reading = boardClock.reading(at: now)
                try? board.send(.pong(id: ping.id, hostTime: ping.hostTime, rxTime: reading, txTime: reading), at: now)
            } else {
                boardReceived.append((message, channel))
            }
        }
        hostEvents.append(contentsOf: host.takeEvents())
        for frame in host.takeFrames() { toBoard.write(frame, at: now) }
        for frame in board.takeFrames() { toHost.write(frame, at: now) }
    }
}
