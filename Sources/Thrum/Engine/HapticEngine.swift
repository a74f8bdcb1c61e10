import Foundation
import ThrumModel
import ThrumSimulator
import ThrumTimeline
import ThrumTransport
import ThrumWire

/// A connection to one haptic board, in the manner of Core Haptics' `CHHapticEngine`: start it,
/// make players for patterns, and play them. Times are seconds on the board's clock
/// (``currentTime``), which the engine keeps in step with the host by clock synchronisation.
///
/// ```swift
/// let engine = try HapticEngine()                  // THRUM_DEVICE, else the embedded simulator
/// try await engine.start()
/// let player = try await engine.makePlayer(with: pattern)
/// try await player.start(atTime: HapticEngine.timeImmediate)
/// ```
public actor HapticEngine {
    /// Pass as a time to mean "as soon as possible" (Core Haptics' `CHHapticTimeImmediate`).
    public static let timeImmediate: TimeInterval = 0

    public let device: DeviceAddress
    private let clock: any EngineClock
    private let simulatorConfiguration: BoardConfiguration
    /// Replaces opening `device` (tests: a simulator behind a fault-injecting transport).
    private let connector: (@Sendable () throws -> DeviceConnection)?
    private let simulatorFlashFile: URL?
    /// The line's rate in bits per second when it is a UART (real-time updates are paced to it).
    private let lineRate: Int?

    private var connection: DeviceConnection?
    private(set) var link: BoardLink?
    private var linkEvents: Task<Void, Never>?
    /// The board's capabilities, from its INFO; nil until the engine has started once.
    public private(set) var capabilities: BoardCapabilities?
    public private(set) var isRunning = false

    var cache = TimelineCache()
    var audioResources = AudioResources()
    var players = PlayerTable()
    /// Players whose pattern is larger than the board's memory, playing piece by piece.
    var streams: [Int: StreamedPlayback] = [:]
    var streamGeneration = 0
    /// What the engine sent the board, for tests, benchmarks and the curious.
    public internal(set) var statistics = EngineStatistics()

    /// Whether the engine puts the board's drivers in standby after ``autoShutdownDelay`` with
    /// no player playing, and stops with ``StoppedReason/idleTimeout``; the next ``start()``
    /// wakes them (Core Haptics' `isAutoShutdownEnabled`).
    public private(set) var isAutoShutdownEnabled = false
    public private(set) var autoShutdownDelay: Duration = .seconds(2)
    private var idleGeneration = 0

    /// Called when the engine stops for a reason other than ``stop()``.
    public var stoppedHandler: (@Sendable (StoppedReason) -> Void)?
    /// Called when the board rebooted; restart the engine from it (players keep working).
    public var resetHandler: (@Sendable () -> Void)?
    private var finishedHandler: (@Sendable ((any Error)?) -> FinishedAction)?

    /// Engine and player events from now on; every access is a new subscription of its own.
    public nonisolated var events: AsyncStream<HapticEngineEvent> { emit.subscribe() }
    let emit = EventBroadcast<HapticEngineEvent>()

    /// An engine for `device` (default: the `THRUM_DEVICE` environment variable, else `sim`).
    /// The embedded simulator keeps its flash slots in `simulatorFlashFile` (default: a file in the
    /// user's cache folder), so patterns stored with one engine are there for the next.
    ///
    /// `lineRate`: for a board behind a UART (a USB-to-serial bridge, `/dev/ttyUSB*`), its baud
    /// rate, so that real-time updates are paced to the line instead of queueing; leave it nil for
    /// USB CDC boards (`/dev/ttyACM*`) and the simulator, whose lines have no such limit.
    public init(device: DeviceAddress? = nil, simulatorFlashFile: URL? = HapticEngine.defaultSimulatorFlashFile, lineRate: Int? = nil) throws {
        try self.init(
            device: device ?? DeviceAddress.default, clock: SystemEngineClock(), simulator: BoardConfiguration(),
            flashFile: simulatorFlashFile, lineRate: lineRate)
    }

    /// `$XDG_CACHE_HOME/thrum/simulator-flash`, else `~/.cache/thrum/simulator-flash`; nil when
    /// neither folder can be made (the flash then lasts as long as the engine).
    public static var defaultSimulatorFlashFile: URL? {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let folder = cache.appendingPathComponent("thrum")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        return folder.appendingPathComponent("simulator-flash")
    }

    /// An engine for the embedded simulator with this board configuration, in real time.
    public init(simulating configuration: BoardConfiguration, flashFile: URL? = nil) {
        self.init(device: .simulator, clock: SystemEngineClock(), simulator: configuration, flashFile: flashFile)
    }

    /// Every engine is made here. ThrumTesting's engines on a manual clock come through it too.
    /// `open`, when given, replaces opening `device`: it returns the host's end of a transport and
    /// the task serving the board, which the engine cancels when it stops (a simulator behind a
    /// faulty or slow line).
    package init(
        device: DeviceAddress, clock: any EngineClock, simulator: BoardConfiguration, flashFile: URL? = nil, lineRate: Int? = nil,
        open: (@Sendable () throws -> (any ByteTransport, Task<Void, Never>?))? = nil
    ) {
        if let open {
            self.connector = {
                let (transport, task) = try open()
                return DeviceConnection(transport: transport, simulator: task)
            }
        } else {
            self.connector = nil
        }
        self.lineRate = lineRate
        self.simulatorFlashFile = flashFile
        self.device = device
        self.clock = clock
        self.simulatorConfiguration = simulator
    }

    deinit {
        connection?.simulator?.cancel()
        linkEvents?.cancel()
        emit.finish()
    }

    // MARK: starting and stopping

    /// Opens the device (once), shakes hands with the board and wakes its drivers.
    public func start() async throws {
        if isRunning { return }
        let link = try openLink()
        let capabilities = try await link.connect()
        self.capabilities = capabilities
        players.resize(to: capabilities.players)
        try await link.command { .engineStart(tag: $0) }
        isRunning = true
        emit.yield(.started)
        noteActivity()
    }

    /// Stops every player, puts the drivers in standby and closes the device.
    public func stop() async {
        guard let link else { return }
        if isRunning { await standby(link) }
        await shutDown(link: link, reason: nil)
    }

    /// Stops as ``stop()`` does, then tells the stopped handler and the events why (Core Haptics'
    /// layer: a finished handler that answered `.stopEngine` on its own queue).
    package func stop(reporting reason: StoppedReason) async {
        guard let link else { return }
        if isRunning { await standby(link) }
        await shutDown(link: link, reason: reason)
    }

    /// Asks the board to put its drivers in standby, waiting at most a second for it to confirm:
    /// a board that went away silently must not hold anyone up until the link gives up on it.
    private func standby(_ link: BoardLink) async {
        let clock = clock
        let deadline = clock.now + .seconds(1)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await link.command { .engineStop(tag: $0) } }
            group.addTask { try? await clock.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Tells the events' subscribers and the stopped handler why the engine stopped by itself.
    private func reportStopped(_ reason: StoppedReason) {
        emit.yield(.stopped(reason))
        stoppedHandler?(reason)
    }

    /// Calls `handler` once every player has finished; its answer says whether the engine stops.
    public func notifyWhenPlayersFinished(_ handler: @escaping @Sendable ((any Error)?) -> FinishedAction) {
        finishedHandler = handler
    }

    /// Core Haptics' form: when the engine is stopped or no player plays, `handler` is called at
    /// once (as Apple documents); otherwise once every player has finished.
    package func notifyWhenPlayersFinishedOrNow(_ handler: @escaping @Sendable ((any Error)?) -> FinishedAction) {
        if !isRunning || nothingPlaying {
            finishedHandler = nil
            if handler(nil) == .stopEngine, isRunning {
                Task { [weak self] in await self?.stop(reporting: .notifyWhenFinished) }
            }
        } else {
            finishedHandler = handler
        }
    }

    /// Adds a line to the engine's events (for layers above the engine that have no error to throw).
    package func log(_ text: String, level: WireLogLevel = .warning) {
        emit.yield(.log(level: level, text: text))
    }

    public func setAutoShutdown(enabled: Bool, after delay: Duration = .seconds(2)) {
        isAutoShutdownEnabled = enabled
        autoShutdownDelay = delay
        noteActivity()
    }

    /// Something played or stopped: restart the idle countdown if nothing plays now.
    func noteActivity() {
        idleGeneration += 1
        guard isAutoShutdownEnabled, isRunning, nothingPlaying, let link else { return }
        let generation = idleGeneration
        let deadline = clock.now + autoShutdownDelay
        let clock = clock
        Task { [weak self] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.idleTimedOut(generation: generation, link: link)
        }
    }

    /// No board player busy and no streamed pattern between pieces.
    var nothingPlaying: Bool { players.activeCount == 0 && streams.isEmpty }

    private func idleTimedOut(generation: Int, link source: BoardLink) async {
        guard generation == idleGeneration, isRunning, nothingPlaying, source === link else { return }
        isRunning = false
        await standby(source)
        reportStopped(.idleTimeout)
    }

    public func setStoppedHandler(_ handler: (@Sendable (StoppedReason) -> Void)?) { stoppedHandler = handler }
    public func setResetHandler(_ handler: (@Sendable () -> Void)?) { resetHandler = handler }

    /// The link's counters (frames and bytes each way, retransmissions), zero before start.
    public var linkStatistics: LinkStatistics {
        get async { await link?.statistics ?? LinkStatistics() }
    }

    /// The board's clock now, in seconds: the time base of every `atTime:`.
    public var currentTime: TimeInterval {
        get async {
            guard let link else { return 0 }
            return await (link.boardMicroseconds ?? 0) / 1e6
        }
    }

    // MARK: players

    /// A player for `pattern`; compiling happens here, so a bad pattern fails now, not at start.
    public func makePlayer(with pattern: HapticPattern) throws -> HapticPatternPlayer {
        HapticPatternPlayer(engine: self, id: players.register(), timeline: try Self.compile(audioResources.resolve(pattern)))
    }

    /// A player with pause, resume, seek, loops and rate.
    public func makeAdvancedPlayer(with pattern: HapticPattern) throws -> HapticAdvancedPatternPlayer {
        HapticAdvancedPatternPlayer(engine: self, id: players.register(), timeline: try Self.compile(audioResources.resolve(pattern)))
    }

    /// Registers an audio file for `AudioCustom` events to name (`AudioWaveform.resourceID`);
    /// returns its ID. The board plays such an event on its audio lane for the event's duration,
    /// or, when the pattern gives none, for the file's length (WAV files; SEMANTICS.md §6.2). A
    /// board without an audio output skips audio events and the engine says so.
    ///
    /// `useVolumeEnvelope` and `loopEnabled` are what the events that play it say for
    /// `EventWaveformUseVolumeEnvelope` and `EventWaveformLoopEnabled` (Core Haptics' options).
    public func registerAudioResource(_ url: URL, useVolumeEnvelope: Bool = true, loopEnabled: Bool = false) throws -> Int {
        try audioResources.register(url, useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
    }

    public func unregisterAudioResource(_ id: Int) throws {
        try audioResources.unregister(id)
    }

    /// Plays an AHAP or `.haptic` file at once.
    public func playPattern(from url: URL) async throws {
        let pattern: HapticPattern
        do { pattern = try PatternFile.load(contentsOf: url) } catch {
            throw HapticEngineError.invalidPattern("\(url.path): \(error)")
        }
        try await makePlayer(with: pattern).start(atTime: Self.timeImmediate)
    }

    /// Plays AHAP or `.haptic` data at once.
    public func playPattern(from data: Data) async throws {
        let pattern: HapticPattern
        do { pattern = try PatternFile.load(data: data, name: "data") } catch {
            throw HapticEngineError.invalidPattern("\(error)")
        }
        try await makePlayer(with: pattern).start(atTime: Self.timeImmediate)
    }

    static func compile(_ pattern: HapticPattern) throws -> CompiledTimeline {
        do {
            return CompiledTimeline(
                bytes: try TimelineCompiler.compile(pattern),
                audioEvents: pattern.events.count { $0.type.isAudio },
                resources: Array(Set(pattern.events.compactMap { $0.type == .audioCustom ? $0.waveform?.resourceID : nil })).sorted())
        } catch {
            throw HapticEngineError.invalidPattern("\(error)")
        }
    }

    // MARK: the link

    func runningLink() throws -> BoardLink {
        guard isRunning, let link else {
            throw HapticEngineError.engineNotRunning("call start() first")
        }
        return link
    }

    private func openLink() throws -> BoardLink {
        if let link { return link }
        let connection = try connector?() ?? DeviceConnection.open(
            device, simulator: simulatorConfiguration, flashFile: simulatorFlashFile, clock: clock)
        var configuration = LinkConfiguration(role: .host)
        // A fresh nonce per engine: a board that still holds an earlier host's session must see
        // this HELLO as a new session, not a repeat (tests on a manual clock keep the fixed seed).
        if !clock.isManual { configuration.nonceSeed = UInt64.random(in: 1...UInt64.max) }
        let link = BoardLink(transport: connection.transport, clock: clock, configuration: configuration, lineRate: lineRate)
        self.connection = connection
        self.link = link
        linkEvents = Task { [weak self] in
            for await event in link.notifications {
                await self?.handle(event, from: link)
            }
        }
        return link
    }

    private func handle(_ event: BoardLinkEvent, from source: BoardLink) async {
        guard source === link else { return }
        switch event {
        case .playerFinished(let boardPlayer, _):
            playerFinished(boardPlayer: Int(boardPlayer))
        case .late(_, let lateBy):
            emit.yield(.late(seconds: Double(lateBy) / 1e6))
        case .fault(let fault, let channel):
            emit.yield(.fault(fault, channel: channel))
        case .engineStopped(let reason):
            guard isRunning else { return }
            isRunning = false
            let stopped: StoppedReason = switch reason {
            case .fault: .boardFault
            case .keepaliveLapsed: .keepAliveLapsed
            case .idleStandby: .idleTimeout
            default: .systemError
            }
            players.finishAll()
            forgetStreams()
            reportStopped(stopped)
        case .log(let level, let text):
            emit.yield(.log(level: level, text: text))
        case .reset:
            // The board lost its timelines and players; players re-upload on their next start.
            cache.removeAll()
            players.finishAll()
            players.forgetBoardStates()
            forgetStreams()
            isRunning = false
            emit.yield(.reset)
            resetHandler?()
        case .down(let error):
            await shutDown(link: source, reason: .deviceLost(error))
        }
    }

    private func shutDown(link source: BoardLink, reason: StoppedReason?) async {
        guard source === link else { return }
        let wasRunning = isRunning
        isRunning = false
        link = nil
        cache.removeAll()
        players.finishAll()
        forgetStreams()
        let connection = self.connection
        self.connection = nil
        await source.close()
        connection?.simulator?.cancel()
        if let reason, wasRunning { reportStopped(reason) }
    }

    func playerFinished(boardPlayer: Int) {
        if streamPieceFinished(boardPlayer: boardPlayer) { return }
        guard let id = players.finished(boardPlayer: boardPlayer) else { return }
        emit.yield(.playerFinished(player: id))
        players.completion(of: id)?(nil)
        noteActivity()
        if nothingPlaying, let handler = finishedHandler {
            finishedHandler = nil
            if handler(nil) == .stopEngine {
                Task { [weak self] in await self?.stop(reporting: .notifyWhenFinished) }
            }
        }
    }

    /// Makes sure the board holds `timeline`; returns its handle. Frees the least recently used
    /// timelines (not playing) when the board is out of memory.
    /// `keeping`: handles this load must not free (the waveform objects the timeline plays).
    func load(
        _ timeline: CompiledTimeline, keeping: Set<UInt8> = [], progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> UInt8 {
        try await load(bytes: timeline.bytes, plays: timeline.resources, keeping: keeping, progress: progress)
    }

    /// Makes sure the board holds `bytes` (a timeline playing the sounds `plays`, or the waveform
    /// object of `sound`); returns the handle.
    func load(
        bytes: [UInt8], plays: [Int] = [], sound: Int? = nil, keeping: Set<UInt8> = [],
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> UInt8 {
        let link = try runningLink()
        if let handle = cache.use(bytes) {
            statistics.cacheHits += 1
            return handle
        }
        if let capabilities, bytes.count > capabilities.timelineMemory {
            throw HapticEngineError.outOfTimelineMemory(needed: bytes.count, available: capabilities.timelineMemory)
        }
        while true {
            do {
                let handle = try await link.upload(bytes, progress: progress)
                statistics.uploads += 1
                statistics.uploadedBytes += bytes.count
                cache.insert(bytes, handle: handle, plays: plays, sound: sound)
                return handle
            } catch HapticEngineError.board(.noMemory?, _) {
                // The sounds playing timelines play stay; worked out before the eviction, which
                // holds the cache exclusively.
                let sounding = cache.soundHandles(playedBy: players.isPlaying(handle:))
                let busy = { (handle: UInt8) in
                    keeping.contains(handle) || sounding.contains(handle) || self.players.isPlaying(handle: handle)
                        || self.streamsHold(handle)
                }
                guard let victim = cache.evictLeastRecentlyUsed(except: busy) else {
                    throw HapticEngineError.outOfTimelineMemory(
                        needed: bytes.count, available: (capabilities?.timelineMemory ?? 0) - cache.bytesHeld)
                }
                try await link.command { .timelineFree(tag: $0, handle: victim.handle) }
                statistics.evictions += 1
            }
        }
    }

    /// The board time for an engine time: 0 (immediate) stays 0, the board's "now".
    static func boardTime(_ time: TimeInterval) throws -> UInt32 {
        guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
        if time == 0 { return 0 }
        let micros = UInt32(truncatingIfNeeded: UInt64((time * 1e6).rounded()))
        return micros == 0 ? 1 : micros
    }
}

/// Counts of what the engine did on the board.
public struct EngineStatistics: Sendable, Equatable {
    /// Timelines uploaded, and their bytes.
    public var uploads = 0
    public var uploadedBytes = 0
    /// Starts that found their timeline already on the board.
    public var cacheHits = 0
    /// Timelines freed to make room for another.
    public var evictions = 0
    /// Pieces of patterns larger than the board's memory, scheduled one after another.
    public var streamedPieces = 0
}

/// What `notifyWhenPlayersFinished`'s handler answers.
public enum FinishedAction: Sendable {
    case stopEngine
    case leaveEngineRunning
}

/// Why the engine stopped by itself.
public enum StoppedReason: Sendable, Equatable {
    /// The drivers went to standby after the engine was idle (auto shutdown).
    case idleTimeout
    /// `notifyWhenPlayersFinished`'s handler asked to stop.
    case notifyWhenFinished
    /// The board reported a fault (over-temperature, over-current, actuator missing).
    case boardFault
    /// The board stopped output because the host's keep-alive lapsed.
    case keepAliveLapsed
    /// The line to the board was lost.
    case deviceLost(HapticEngineError)
    case systemError
}

/// Engine and player events, also delivered to the handlers.
public enum HapticEngineEvent: Sendable, Equatable {
    case started
    case stopped(StoppedReason)
    /// The board rebooted.
    case reset
    /// A player's pattern ended.
    case playerFinished(player: Int)
    /// A command arrived after its time; it ran at once.
    case late(seconds: Double)
    /// The board reported a fault on a channel (255: the whole board).
    case fault(WireFault, channel: UInt8)
    case log(level: WireLogLevel, text: String)
}

/// A compiled pattern: the timeline bytes the board plays.
struct CompiledTimeline: Sendable {
    var bytes: [UInt8]
    /// `AudioContinuous` and `AudioCustom` events: a board without audio output skips them.
    var audioEvents = 0
    /// The registered audio resources its `AudioCustom` events play (their samples go to a board
    /// that plays samples before the timeline starts).
    var resources: [Int] = []
    /// The pieces it was cut into for streaming, kept with the player that owns it.
    let pieces = PieceCache()
}

/// A timeline's pieces for one board memory size: cut once, not at every start of its player.
final class PieceCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cut: (memory: Int, pieces: [TimelineSegment])?

    func pieces(memory: Int, cutting: () throws -> [TimelineSegment]) rethrows -> [TimelineSegment] {
        if let cut = lock.withLock({ cut }), cut.memory == memory { return cut.pieces }
        let pieces = try cutting()
        lock.withLock { cut = (memory, pieces) }
        return pieces
    }
}
