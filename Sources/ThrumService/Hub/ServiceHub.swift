import Foundation
import Logging
import Thrum

/// The service's shared state (Protocol/SERVICE.md §5): the stage it plays on, the clients, the
/// patterns they loaded and the players they made, each owned by one client. Requests arrive here
/// from every connection; a client's real-time values bypass it (``ClientConnection``).
public actor ServiceHub {
    public nonisolated let stage: any ServiceStage
    nonisolated let limits: ServiceLimits
    let logger: Logger
    var clients: [Int: ClientConnection] = [:]
    var patterns: [Int: LoadedPattern] = [:]
    var players: [Int: OwnedPlayer] = [:]
    private var nextClientID = 1
    var nextPatternID = 1
    private var eventTask: Task<Void, Never>?
    lazy var traceFeed = TraceFeed(stage: stage, limits: limits)
    /// `thrum serve --watch FILE`'s file, when one is watched.
    private(set) var watchedFile: WatchedFile?
    /// Set while the service serves; `status` reports it.
    var startedAt = ContinuousClock.now

    struct LoadedPattern: Sendable {
        var owner: Int
        /// A report without errors: its pattern and timeline are there.
        var report: PatternReport
        var pattern: HapticPattern { report.pattern! }
    }

    struct OwnedPlayer: Sendable {
        var owner: Int
        var player: any StagePlayer
        /// Its owner stopped it since its last start: the board's "finished" that follows is the
        /// stop's, not the pattern's end, and is not reported (SERVICE.md §4).
        var stopRequested = false
    }

    public init(stage: any ServiceStage, limits: ServiceLimits = ServiceLimits(), logger: Logger? = nil) {
        self.stage = stage
        self.limits = limits
        self.logger = logger ?? Logger(label: "thrum.service")
    }

    /// Starts the boards and begins routing their events.
    public func start() async throws {
        let events = stage.events
        eventTask = Task { [weak self] in
            for await event in events { await self?.route(event) }
        }
        try await stage.start()
        startedAt = .now
    }

    /// Watches `path` (`thrum serve --watch`): each change goes to every client as a
    /// `pattern.changed` event with the file's name and new text.
    public func watch(_ path: String) async {
        await watchedFile?.stop()
        let file = WatchedFile(url: URL(fileURLWithPath: path), maxBytes: limits.maxMessageBytes / 2)
        watchedFile = file
        await file.start { [weak self] text in
            await self?.announce("pattern.changed", ["name": .string(file.name), "text": .string(text)])
        }
    }

    /// An event of the service's own, to every client.
    func announce(_ name: String, _ fields: [String: JSONValue]) async {
        let message = ServiceMessages.event(name, fields, time: await stage.now())
        for client in clients.values { client.send(message) }
    }

    /// Stops every player and the boards.
    public func stop() async {
        await watchedFile?.stop()
        for client in clients.values { await disconnect(client) }
        await traceFeed.stop()
        await stage.stop()
        eventTask?.cancel()
    }

    /// A new client; nil when the service has as many as it takes.
    func connect() -> ClientConnection? {
        guard clients.count < limits.maxClients else { return nil }
        let client = ClientConnection(id: nextClientID, limits: limits)
        nextClientID += 1
        clients[client.id] = client
        logger.info("client connected", metadata: ["client": "\(client.id)"])
        return client
    }

    /// A client gone: its players stop, its patterns and trace subscription go. Nothing of another
    /// client's is touched.
    func disconnect(_ client: ClientConnection) async {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        let owned = players.filter { $0.value.owner == client.id }
        for (id, entry) in owned {
            players[id] = nil
            client.disown(id)
            await entry.player.cancel()
        }
        patterns = patterns.filter { $0.value.owner != client.id }
        await traceFeed.unsubscribe(client)
        client.close()
        logger.info(
            "client disconnected", metadata: ["client": "\(client.id)", "stoppedPlayers": "\(owned.count)"])
    }

    /// The stage's events: a player's to its owner, the rest to every client.
    private func route(_ event: StageEvent) async {
        let (name, fields) = Self.describe(event)
        guard case .playerFinished(let player) = event else { return await announce(name, fields) }
        if let entry = players[player], !entry.stopRequested {
            clients[entry.owner]?.send(ServiceMessages.event(name, fields, time: await stage.now()))
        }
    }

    static func describe(_ event: StageEvent) -> (String, [String: JSONValue]) {
        switch event {
        case .playerFinished(let player): ("player.finished", ["player": .int(player)])
        case .late(let board, let seconds): ("late", ["board": .string(board), "seconds": .number(seconds)])
        case .fault(let board, let fault, let channel):
            ("fault", ["board": .string(board), "fault": .string(fault), "channel": channel.map { .int($0) } ?? .null])
        case .boardLeft(let board, let cause): ("board.left", ["board": .string(board), "cause": .string(cause)])
        case .boardRejoined(let board): ("board.rejoined", ["board": .string(board)])
        case .engineStopped(let board, let reason):
            ("engine.stopped", ["board": .string(board), "reason": .string(reason)])
        case .engineStarted(let board): ("engine.started", ["board": .string(board)])
        case .engineReset(let board): ("engine.reset", ["board": .string(board)])
        case .log(let board, let level, let text):
            ("log", ["board": .string(board), "level": .string(level), "text": .string(text)])
        }
    }

    /// A player of `client`'s, or `unknown_id` naming the field.
    func ownedPlayer(_ request: ServiceRequest, by client: ClientConnection) throws(ServiceError) -> OwnedPlayer {
        let id = try request.int("player")
        guard let entry = players[id] else { throw ServiceError(.unknownID, "no player \(id)", field: "player") }
        guard entry.owner == client.id else {
            throw ServiceError(.unknownID, "player \(id) belongs to another client", field: "player")
        }
        return entry
    }

    /// A pattern of `client`'s, or `unknown_id` naming the field.
    func ownedPattern(_ request: ServiceRequest, by client: ClientConnection) throws(ServiceError) -> LoadedPattern {
        let id = try request.int("pattern")
        guard let entry = patterns[id], entry.owner == client.id else {
            throw ServiceError(.unknownID, "no pattern \(id) loaded by this client", field: "pattern")
        }
        return entry
    }
}
