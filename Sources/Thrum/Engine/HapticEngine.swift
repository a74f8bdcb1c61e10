import Foundation
import Logging
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
///
/// The actor is the one isolation domain; its state lives in collaborators it owns, each lower
/// than the one that uses it: `BoardSession` (device, link, capabilities), `PlayerTable` and
/// `StreamTable` (who plays where), `TimelineStore` (what the board's memory holds), `Streamer`
/// (patterns larger than that memory), `PlayerControls` (starts, stops, settings, run-time
/// controls) and `FlashStore` (slots). The engine itself keeps the lifecycle (start, stop, auto
/// shutdown, the app's handlers) in HapticEngine+Lifecycle.swift.
public actor HapticEngine {
    /// Pass as a time to mean "as soon as possible" (Core Haptics' `CHHapticTimeImmediate`).
    public static let timeImmediate: TimeInterval = 0

    public nonisolated let device: DeviceAddress
    /// The host clock the engine's link runs on (a rig's engines share one).
    package nonisolated let hostClock: any EngineClock

    let session: BoardSession
    let players: PlayerTable
    let streams: StreamTable
    let timelines: TimelineStore
    let streamer: Streamer
    let controls: PlayerControls
    let flash: FlashStore
    var audioResources = AudioResources()
    var idle = IdleShutdown()
    var handlers = EngineHandlers()
    /// Where players made without a locality play (``setLocality(_:)``).
    public internal(set) var locality = HapticLocality.all

    /// Engine and player events from now on; every access is a new subscription of its own.
    public nonisolated var events: AsyncStream<HapticEngineEvent> { emit.subscribe() }
    let emit: EventBroadcast<HapticEngineEvent>
    /// The engine's warnings, to its logger and its events.
    let log: EngineLog

    /// An engine for `device` (default: the `THRUM_DEVICE` environment variable, else `sim`).
    /// The embedded simulator keeps its flash slots in `simulatorFlashFile` (default: a file in the
    /// user's cache folder), so patterns stored with one engine are there for the next.
    ///
    /// `lineRate`: for a board behind a UART (a USB-to-serial bridge, `/dev/ttyUSB*`), its baud
    /// rate, so that real-time updates are paced to the line instead of queueing; leave it nil for
    /// USB CDC boards (`/dev/ttyACM*`) and the simulator, whose lines have no such limit.
    ///
    /// `logger`: where the engine's messages go (swift-log) — its warnings, the link's events and
    /// the board's LOG messages, each with the device in its metadata. By default they go through
    /// the app's `LoggingSystem` bootstrap under the labels of ``ThrumLogLabel``; Thrum never
    /// bootstraps swift-log itself.
    public init(
        device: DeviceAddress? = nil, simulatorFlashFile: URL? = HapticEngine.defaultSimulatorFlashFile,
        lineRate: Int? = nil,
        logger: Logger? = nil
    ) throws {
        try self.init(
            device: device ?? DeviceAddress.default, clock: SystemEngineClock(), simulator: BoardConfiguration(),
            flashFile: simulatorFlashFile, lineRate: lineRate, makeLogger: logger.map { logger in { _ in logger } })
    }

    /// `$XDG_CACHE_HOME/thrum/simulator-flash`, else `~/.cache/thrum/simulator-flash`; nil when
    /// neither folder can be made (the flash then lasts as long as the engine).
    public static var defaultSimulatorFlashFile: URL? {
        let environment = ProcessInfo.processInfo.environment
        let cache =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let folder = cache.appendingPathComponent("thrum")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
            return nil
        }
        return folder.appendingPathComponent("simulator-flash")
    }

    /// An engine for the embedded simulator with this board configuration, in real time;
    /// `logger` as for ``init(device:simulatorFlashFile:lineRate:logger:)``.
    public init(simulating configuration: BoardConfiguration, flashFile: URL? = nil, logger: Logger? = nil) {
        self.init(
            device: .simulator, clock: SystemEngineClock(), simulator: configuration, flashFile: flashFile,
            makeLogger: logger.map { logger in { _ in logger } })
    }

    /// Every engine is made here. ThrumTesting's engines on a manual clock come through it too.
    /// `open`, when given, replaces opening `device`: it returns the host's end of a transport and
    /// the task serving the board, which the engine cancels when it stops (a simulator behind a
    /// faulty or slow line). `makeLogger` makes the logger for each of ``ThrumLogLabel``'s labels
    /// (default: through swift-log's bootstrap).
    package init(
        device: DeviceAddress, clock: any EngineClock, simulator: BoardConfiguration, flashFile: URL? = nil,
        lineRate: Int? = nil,
        open: (@Sendable () throws -> (any ByteTransport, Task<Void, Never>?))? = nil,
        makeLogger: ((String) -> Logger)? = nil
    ) {
        let connector = open.map { open in
            { @Sendable in
                let (transport, task) = try open()
                return DeviceConnection(transport: transport, simulator: task)
            }
        }
        let loggers = makeLogger.map { ThrumLoggers(device: device, make: $0) } ?? ThrumLoggers(device: device)
        let session = BoardSession(
            device: device, clock: clock, simulator: simulator, flashFile: flashFile, lineRate: lineRate,
            connector: connector,
            loggers: loggers)
        let (players, streams, emit) = (PlayerTable(), StreamTable(), EventBroadcast<HapticEngineEvent>())
        let log = EngineLog(logger: loggers.engine, emit: emit)
        let timelines = TimelineStore(session: session, players: players, streams: streams)
        let streamer = Streamer(session: session, players: players, streams: streams, timelines: timelines, log: log)
        self.device = device
        self.hostClock = clock
        self.session = session
        self.players = players
        self.streams = streams
        self.emit = emit
        self.log = log
        self.timelines = timelines
        self.streamer = streamer
        self.controls = PlayerControls(
            session: session, players: players, streamer: streamer, timelines: timelines, log: log)
        self.flash = FlashStore(session: session, players: players, timelines: timelines)
    }

    deinit {
        emit.finish()
    }

    /// The board's capabilities, from its INFO; nil until the engine has started once.
    public var capabilities: BoardCapabilities? { session.capabilities }

    /// The channels the board has reported faulted since the engine started, by index: a driver chip
    /// that does not answer (`actuatorMissing`: the channel stays silent), over-current or heat. A
    /// board reports a missing driver to every host that connects, so this is complete once
    /// ``start()`` returns.
    public var channelFaults: [Int: WireFault] {
        get async { await session.link?.channelFaults ?? [:] }
    }
    public var isRunning: Bool { session.isRunning }

    /// What the engine sent the board, for tests, benchmarks and the curious.
    public var statistics: EngineStatistics {
        let counters = timelines.counters
        return EngineStatistics(
            uploads: counters.uploads, uploadedBytes: counters.uploadedBytes, cacheHits: counters.cacheHits,
            evictions: counters.evictions, streamedPieces: streamer.piecesStarted)
    }

    /// The link's counters (frames and bytes each way, retransmissions), zero before start.
    public var linkStatistics: LinkStatistics {
        get async { await session.link?.statistics ?? LinkStatistics() }
    }

    /// The board's clock now, in seconds: the time base of every `atTime:`.
    public var currentTime: TimeInterval {
        get async {
            guard let link = session.link else { return 0 }
            return await (link.boardMicroseconds ?? 0) / 1e6
        }
    }

    /// Adds a line to the engine's log and events (for layers above the engine that have no error to throw).
    package func log(_ text: String, level: WireLogLevel = .warning) {
        log(level, text)
    }
}
