import Foundation
import Logging
import ThrumModel
import ThrumSerial
import ThrumSimulator
import ThrumWire

/// One engine over several boards: a vest of three boards, two gloves, a controller with a board
/// per handle. Each board keeps its own link and its own clock estimate; the rig maps every one of
/// them to the host's clock, so a start, a parallel start and a loop boundary happen at the same
/// host instant on every board. Times are seconds on the host's clock (``currentTime``).
///
/// ```swift
/// let rig = try HapticRig(RigConfiguration(contentsOf: URL(fileURLWithPath: "rig.json")))
/// try await rig.start()
/// let sweep = try await rig.makePlayer(with: pattern, locality: "sleeve")
/// try await sweep.start(atTime: HapticRig.timeImmediate)
/// ```
///
/// When a board drops out, the others play on and ``events`` says which board left; the rig
/// tries it again every ``rejoinInterval`` and, when it answers, uploads its timelines again and
/// restarts its players where the others are (``RigEvent/boardRejoined(board:leftAt:answeredAt:inStepAt:)``).
public actor HapticRig {
    /// "As soon as every board can": 50 ms from now.
    public static let timeImmediate: TimeInterval = 0
    /// How far ahead an immediate start is placed, so that every board has it in time.
    public static let immediateLead: Duration = .milliseconds(50)

    public nonisolated let configuration: RigConfiguration
    let clock: any EngineClock
    private let makeEngine: @Sendable (RigConfiguration.Board, any EngineClock) throws -> HapticEngine
    var members: [RigMember]
    var map = RigChannelMap(boards: [])
    var players: [Int: RigPlayerState] = [:]
    private var nextPlayerID = 1
    private var background: [Task<Void, Never>] = []
    let emit = EventBroadcast<RigEvent>()
    /// How often a board that left is tried again.
    public var rejoinInterval: Duration = .milliseconds(250)
    /// How often each board's pattern rate is corrected (CLOCK_TRIM).
    public var disciplinePeriod: Duration = .seconds(1)

    public func setRejoinInterval(_ interval: Duration) { rejoinInterval = interval }
    public func setDisciplinePeriod(_ period: Duration) { disciplinePeriod = period }

    /// The rig's events from now on (boards leaving and rejoining, their engines' events).
    public nonisolated var events: AsyncStream<RigEvent> { emit.subscribe() }

    /// A rig of the boards `configuration` names, on the host's monotonic clock.
    public init(_ configuration: RigConfiguration, logger: Logger? = nil) {
        self.init(configuration: configuration, clock: SystemEngineClock()) { board, clock in
            try HapticRig.engine(for: board, clock: clock, logger: logger)
        }
    }

    /// Every rig is made here; tests give engines on a manual clock.
    package init(
        configuration: RigConfiguration, clock: any EngineClock,
        makeEngine: @escaping @Sendable (RigConfiguration.Board, any EngineClock) throws -> HapticEngine
    ) {
        self.configuration = configuration
        self.clock = clock
        self.makeEngine = makeEngine
        self.members = configuration.boards.map { RigMember(board: $0) }
    }

    deinit {
        for task in background { task.cancel() }
        emit.finish()
    }

    /// An engine for `board`: its device, or the USB serial port with its serial number.
    static func engine(
        for board: RigConfiguration.Board, clock: any EngineClock, logger: Logger?
    ) throws
        -> HapticEngine
    {
        let device: DeviceAddress
        switch board.address {
        case .device(let address): device = address
        case .serialNumber(let serial):
            let ports = try SerialPorts.list()
            guard let port = ports.first(where: { $0.usb?.serialNumber == serial }) else {
                throw HapticEngineError.openFailed(
                    device: "serial \(serial)",
                    cause: .init(
                        HapticEngineError.invalidRig(
                            "board '\(board.name)': no USB serial port has serial number \(serial) (ports: \(ports.map(\.description).joined(separator: "; ")))"
                        )))
            }
            device = .path(port.path)
        }
        return HapticEngine(
            device: device, clock: clock, simulator: board.simulator ?? BoardConfiguration(), flashFile: nil,
            makeLogger: logger.map { logger in { _ in logger } })
    }

    /// The host's clock now, in seconds: the time base of every `atTime:`.
    public var currentTime: TimeInterval { Double(clock.now.nanoseconds) / 1e9 }

    /// Each board: where it is, whether it is in the rig now, its channels and its clock.
    public var boards: [RigBoardStatus] {
        get async {
            var statuses: [RigBoardStatus] = []
            for member in members {
                let estimate = await member.engine?.clockEstimate
                statuses.append(
                    RigBoardStatus(
                        name: member.board.name, address: member.board.address.description,
                        isPresent: member.isPresent, capabilities: await member.engine?.capabilities,
                        channelNames: map.boards.first { $0.name == member.board.name }?.channelNames ?? [],
                        driftPPM: estimate.map { $0.drift * 1e6 }, trimPPB: member.discipline.trim,
                        clockBound: estimate.map { $0.bound }))
            }
            return statuses
        }
    }

    /// Board `index`'s engine while it is in the rig (benchmarks read its trace).
    package func engine(board index: Int) -> HapticEngine? {
        members.indices.contains(index) && members[index].isPresent ? members[index].engine : nil
    }

    /// The locality the rig file names `name`, else `name` read as channels (`sleeve`, `left,right`).
    public func locality(named name: String) throws -> HapticLocality {
        try configuration.localities[name] ?? HapticLocality(parsing: name)
    }

    // MARK: starting and stopping

    /// Opens every board, shakes hands, and waits for each clock estimate. Throws, naming every
    /// board that did not start, when one does not (the rig needs all of them to begin with).
    public func start() async throws {
        var failures: [String] = []
        for index in members.indices where !members[index].isPresent {
            do { try await join(index) } catch { failures.append("\(members[index].board.name): \(error)") }
        }
        guard failures.isEmpty else {
            await stop()
            throw HapticEngineError.invalidRig(
                "\(failures.count) of \(members.count) boards did not start: \(failures.joined(separator: "; "))")
        }
        rebuildMap()
        if background.isEmpty { background.append(Task { [weak self] in await self?.discipline() }) }
    }

    /// Stops every board's engine; players stop.
    public func stop() async {
        for task in background { task.cancel() }
        background.removeAll()
        for index in members.indices {
            members[index].watcher?.cancel()
            members[index].rejoin?.cancel()
            await members[index].engine?.stop()
            members[index].engine = nil
            members[index].isPresent = false
            members[index].lastDrift = nil  // a later start may find other boards at these addresses
        }
    }

    /// Makes and starts member `index`'s engine, and watches it for the board leaving.
    func join(_ index: Int) async throws {
        let engine = try makeEngine(members[index].board, clock)
        var estimator = Self.estimator
        var pings = ClockSyncPolicy()
        // A board that rejoins has the crystal it had: its drift holds the young estimate's fit,
        // which over the warm-up alone is tens of ppm off and would put its next starts out of step.
        // With the drift known, more pings in the warm-up give a steadier offset. An RC oscillator
        // (a drift beyond a crystal's) moves with temperature while the board is away: its old drift
        // is a loose prior only.
        if let drift = members[index].lastDrift {
            let uncertainty =
                abs(drift) > ClockDiscipline.crystalDrift ? Self.oscillatorDriftUncertainty : Self.knownDriftUncertainty
            estimator.driftPrior = .init(drift: drift, uncertainty: uncertainty)
            pings.burstCount = Int(Self.clockWarmUp / pings.burstInterval)
        }
        await engine.setClockSynchronisation(estimator, pings: pings)
        do {
            try await engine.start()
            try await waitForClock(engine)
        } catch {
            await engine.stop()
            throw error
        }
        members[index].engine = engine
        members[index].channels = await engine.channels
        if await !engine.speaksChannels {
            await engine.log(
                "board '\(members[index].board.name)' runs message set 1.1: no clock trim (its loops drift with its crystal against the other boards') and no channel sets (it plays every channel)"
            )
        }
        members[index].isPresent = true
        members[index].discipline.reset()
        let events = engine.events
        members[index].watcher?.cancel()
        members[index].watcher = Task { [weak self] in
            for await event in events {
                await self?.emit.yield(.engine(board: self?.configuration.boards[index].name ?? "", event))
                if case .playerFinished(let boardPlayer) = event {
                    await self?.boardPlayerFinished(boardPlayer, on: index)
                }
                if case .stopped(.deviceLost(let cause)) = event {
                    await self?.left(index, engine: engine, cause: cause)
                    return
                }
            }
        }
    }

    /// A rig's boards are compared with each other for as long as it runs: each clock estimate
    /// fits two minutes of pings (at 10 a second) instead of six seconds, which steadies its drift
    /// and lets the fastest, most symmetric exchanges decide its offset.
    static var estimator: ClockSyncEstimator.Configuration {
        var configuration = ClockSyncEstimator.Configuration()
        configuration.history = 1200
        return configuration
    }

    /// Waits (on the rig's clock) until the board's clock estimate has ``clockWarmUp`` of pings
    /// behind it: enough for its drift and for a fast, symmetric exchange to have set its offset.
    /// Fails when the board answers no ping within 2 s.
    private func waitForClock(_ engine: HapticEngine) async throws {
        let started = clock.now
        let deadline = started + .seconds(2)
        while await engine.clockEstimate == nil {
            guard clock.now < deadline else {
                throw HapticEngineError.link("no clock synchronisation with \(engine.device) within 2 s")
            }
            try await clock.sleep(until: clock.now + .milliseconds(10))
        }
        try await clock.sleep(until: started + Self.clockWarmUp)
    }

    /// How long a board's clock is synchronised before the rig plays on it (at start and rejoin).
    public static let clockWarmUp: Duration = .milliseconds(1500)
    /// How well a board's drift is known from its earlier estimate (two minutes of pings fit it
    /// within about a ppm).
    static let knownDriftUncertainty = 1e-6
    /// The same for a board on an RC oscillator: hundreds of ppm in a few degrees (a board 300 ppm
    /// faster when it came back was 0.6 ms out of step with the crystal's ±1 ppm).
    static let oscillatorDriftUncertainty = 1e-3

    /// The channel map from the rig file's names, else the boards' own.
    func rebuildMap() {
        map = RigChannelMap(
            boards: members.map { member in
                let count = member.channels?.count ?? member.board.channelNames?.count ?? 0
                let names = (0..<count).map { index -> String? in
                    if let given = member.board.channelNames, given.indices.contains(index) { return given[index] }
                    return member.channels?.names[index]
                }
                return RigChannelMap.Board(name: member.board.name, channelNames: names)
            })
    }

    // MARK: players

    /// A player for `pattern` on `locality` (default: every channel of every board).
    public func makePlayer(with pattern: HapticPattern, locality: HapticLocality = .all) async throws -> RigPlayer {
        guard !map.boards.isEmpty else {  // the map is built when the rig starts
            throw HapticEngineError.engineNotRunning("start the rig first")
        }
        let (parts, count) = try map.parts(of: locality)
        let id = nextPlayerID
        nextPlayerID += 1
        var state = RigPlayerState(pattern: pattern, locality: locality, parts: parts, count: count)
        for part in parts where members[part.board].isPresent {
            state.boardPlayers[part.board] = try await makePart(part, pattern: pattern, on: part.board)
        }
        players[id] = state
        return RigPlayer(rig: self, id: id)
    }

    func makePart(
        _ part: RigChannelMap.Part, pattern: HapticPattern, on board: Int
    ) async throws
        -> HapticAdvancedPatternPlayer
    {
        guard let engine = members[board].engine else {
            throw HapticEngineError.engineNotRunning("board '\(members[board].board.name)' is not in the rig now")
        }
        return try await engine.makeAdvancedPlayer(with: pattern, locality: part.locality)
    }

    /// Starts `group` together at host time `time` (``timeImmediate``: 50 ms from now), each on
    /// its own locality: on every board, every part's first tick at that one host instant.
    public func startTogether(_ group: [RigPlayer], atTime time: TimeInterval) async throws {
        let at = try hostInstant(time)
        for player in group { players[player.id]?.started(at: at) }
        let states = group.compactMap { players[$0.id] }
        var boardTimes: [Int: Double] = [:]
        for index in members.indices where members[index].isPresent {
            guard let engine = members[index].engine, states.contains(where: { $0.boardPlayers[index] != nil }),
                let boardTime = await engine.boardMicroseconds(atHost: at)
            else { continue }
            boardTimes[index] = boardTime
            let drift = await engine.clockEstimate?.drift
            if let trim = anchorIfFirst(index, board: boardTime, host: at, drift: drift) {
                try? await engine.setClockTrim(partsPerBillion: trim)  // before the start: the link keeps the order
            }
        }
        try await eachBoard { [boardTimes] board, engine in
            let parts = states.compactMap { $0.boardPlayers[board] }
            guard !parts.isEmpty, let boardTime = boardTimes[board] else { return }
            try await engine.startTogether(parts, atTime: max(boardTime, 1) / 1e6)
        }
    }

    /// The first start the rig gives a board (since it joined) anchors its clock discipline; a board
    /// with no trim yet gets the one that cancels its `drift` with it (returned, to send before the
    /// start) instead of at the next reading, up to a discipline period later.
    func anchorIfFirst(_ index: Int, board: Double, host: MonotonicInstant, drift: Double?) -> Int32? {
        guard !members[index].discipline.isAnchored else { return nil }
        members[index].discipline.anchor(board: board, host: host.microseconds)
        return drift.flatMap { members[index].discipline.trimAtAnchor(drift: $0) }
    }

    /// The host instant for rig time `time` (0: immediately, ``immediateLead`` ahead).
    func hostInstant(_ time: TimeInterval) throws(HapticEngineError) -> MonotonicInstant {
        guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
        if time == 0 { return clock.now + Self.immediateLead }
        return MonotonicInstant(nanoseconds: UInt64((time * 1e9).rounded()))
    }

    /// Runs `body` for every board in the rig now, at once; the first error is thrown after all ran.
    func eachBoard(_ body: @escaping @Sendable (Int, HapticEngine) async throws -> Void) async throws {
        let present = members.indices.compactMap { index in members[index].engine.map { (index, $0) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, engine) in present where members[index].isPresent {
                group.addTask { try await body(index, engine) }
            }
            var first: (any Error)?
            while let result = await group.nextResult() {
                if case .failure(let error) = result, first == nil { first = error }
            }
            if let first { throw first }
        }
    }

    /// Every `period`, each board's clock reading against the host's goes through its discipline,
    /// and a changed trim goes to the board.
    private func discipline() async {
        while !Task.isCancelled {
            do { try await clock.sleep(until: clock.now + disciplinePeriod) } catch { return }
            await disciplineStep()
        }
    }

    func disciplineStep() async {
        let now = clock.now
        for index in members.indices where members[index].isPresent {
            guard let engine = members[index].engine, await engine.speaksChannels,
                let board = await engine.boardMicroseconds(atHost: now), let estimate = await engine.clockEstimate
            else { continue }
            members[index].lastDrift = estimate.drift
            guard
                let trim = members[index].discipline.update(host: now.microseconds, board: board, drift: estimate.drift)
            else { continue }
            try? await engine.setClockTrim(partsPerBillion: trim)  // a board that left is the watcher's
        }
    }
}

/// One board of a rig and what the rig knows of it.
struct RigMember: Sendable {
    var board: RigConfiguration.Board
    var engine: HapticEngine?
    var isPresent = false
    var discipline = ClockDiscipline()
    var watcher: Task<Void, Never>?
    var rejoin: Task<Void, Never>?
    var leftAt: MonotonicInstant?
    /// The drift its clock estimate last had: a board that rejoins has the same crystal.
    var lastDrift: Double?
    /// The board's channels as its engine read them when it last joined.
    var channels: BoardChannels?

    init(board: RigConfiguration.Board) { self.board = board }
}

/// What the rig reports.
public enum RigEvent: Sendable, Equatable {
    /// A board dropped out (unplugged, not answering); the others play on.
    case boardLeft(board: String, cause: HapticEngineError)
    /// A board that left answers again and plays in step with the others. Host times (the rig's
    /// ``HapticRig/currentTime``): when it left, when it answered again, and the instant from
    /// which it plays in step (its players restarted where the others are).
    case boardRejoined(board: String, leftAt: TimeInterval, answeredAt: TimeInterval, inStepAt: TimeInterval)
    /// A rig player's pattern ended (or it was stopped) on every board it plays on: the rig's own
    /// number for it (``RigPlayer/id``). Each board's own ``HapticEngineEvent/playerFinished(player:)``
    /// also comes, under ``engine(board:_:)``, with that board's number for its part.
    case playerFinished(player: Int)
    /// An event of one board's engine.
    case engine(board: String, HapticEngineEvent)
}

/// One board of a rig, as ``HapticRig/boards`` reports it.
public struct RigBoardStatus: Sendable, Equatable {
    public var name: String
    /// Its device or serial number, as the rig file gives it.
    public var address: String
    public var isPresent: Bool
    public var capabilities: BoardCapabilities?
    /// The rig's name for each channel.
    public var channelNames: [String?]
    /// How fast the board's crystal runs against the host's, in parts per million.
    public var driftPPM: Double?
    /// The pattern-rate trim the rig gave it (parts per billion).
    public var trimPPB: Int32
    /// The clock estimate's worst-case error (µs).
    public var clockBound: Double?
}
