import Foundation
import ThrumSimulator
import ThrumTransport
import ThrumWire

/// The engine's hold on its board: the opened device, the link over it, the board's capabilities
/// and whether the board's engine runs. It opens and closes; what plays is the layers above.
final class BoardSession {
    let device: DeviceAddress
    let clock: any EngineClock
    private let simulatorConfiguration: BoardConfiguration
    private let simulatorFlashFile: URL?
    /// Replaces opening `device` (tests: a simulator behind a fault-injecting transport).
    private let connector: (@Sendable () throws -> DeviceConnection)?
    /// The line's rate in bits per second when it is a UART (real-time updates are paced to it).
    private let lineRate: Int?
    /// The link's and the board's loggers go to each link this session opens.
    let loggers: ThrumLoggers

    private var connection: DeviceConnection?
    private(set) var link: BoardLink?
    private var linkEvents: Task<Void, Never>?
    /// The board's capabilities, from its INFO; nil until the engine has started once.
    var capabilities: BoardCapabilities?
    /// The board's channels: names and whether it plays a player on some of them only; nil until
    /// the engine has started once.
    var channels: BoardChannels?
    var isRunning = false {
        didSet { if isRunning, !oldValue { runsBegun += 1 } }
    }
    /// How many runs have begun: a run lasts from a start to the stop that ends it.
    private(set) var runsBegun = 0
    /// While a start is under way, the calls to start that wait for it; nil otherwise.
    var startWaiters: [CheckedContinuation<Void, Never>]?
    /// The clock estimator and pings of the links this session opens (a rig's boards keep a longer
    /// history; one that rejoins pings densely while it warms up).
    var estimator = ClockSyncEstimator.Configuration()
    var clockSync = ClockSyncPolicy()
    /// Why the engine stopped, when the board went away: later calls say so until the next start.
    var lostTo: HapticEngineError?

    init(
        device: DeviceAddress, clock: any EngineClock, simulator: BoardConfiguration, flashFile: URL?, lineRate: Int?,
        connector: (@Sendable () throws -> DeviceConnection)?, loggers: ThrumLoggers
    ) {
        self.loggers = loggers
        self.device = device
        self.clock = clock
        self.simulatorConfiguration = simulator
        self.simulatorFlashFile = flashFile
        self.lineRate = lineRate
        self.connector = connector
    }

    deinit {
        connection?.simulator?.cancel()
        linkEvents?.cancel()
    }

    /// The link, opening the device the first time; `listen` starts the task that handles the
    /// new link's notifications.
    func openLink(listen: (BoardLink) -> Task<Void, Never>) throws -> BoardLink {
        if let link { return link }
        let connection =
            try connector?()
            ?? DeviceConnection.open(
                device, simulator: simulatorConfiguration, flashFile: simulatorFlashFile, clock: clock)
        var configuration = LinkConfiguration(role: .host)
        configuration.estimator = estimator
        configuration.clockSync = clockSync
        // A fresh nonce per engine: a board that still holds an earlier host's session must see
        // this HELLO as a new session, not a repeat (tests on a manual clock keep the fixed seed).
        if !clock.isManual { configuration.nonceSeed = UInt64.random(in: 1...UInt64.max) }
        let link = BoardLink(
            transport: connection.transport, clock: clock, configuration: configuration, lineRate: lineRate,
            loggers: loggers)
        self.connection = connection
        self.link = link
        linkEvents = listen(link)
        return link
    }

    /// Forgets the link and the device (the caller closes them); returns the device connection.
    func detach() -> DeviceConnection? {
        let connection = self.connection
        self.connection = nil
        link = nil
        return connection
    }

    func runningLink() throws(HapticEngineError) -> BoardLink {
        guard isRunning, let link else {
            if let lostTo { throw lostTo }
            throw HapticEngineError.engineNotRunning("call start() first")
        }
        return link
    }

    /// Asks the board to put its drivers in standby, waiting at most a second for it to confirm:
    /// a board that went away silently must not hold anyone up until the link gives up on it.
    nonisolated(nonsending) func standby(_ link: BoardLink) async {
        let clock = clock
        let deadline = clock.now + .seconds(1)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await link.command { .engineStop(tag: $0) } }
            group.addTask { try? await clock.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
    }

    /// The board's clock now, in whole microseconds (0 before clock synchronisation).
    nonisolated(nonsending) func boardNow() async -> UInt32 {
        let micros = await link?.boardMicroseconds ?? 0
        return UInt32(truncatingIfNeeded: Int64(micros.rounded()))
    }

    /// The board time for an engine time: 0 (immediate) stays 0, the board's "now".
    static func boardTime(_ time: TimeInterval) throws(HapticEngineError) -> UInt32 {
        guard time.isFinite, time >= 0 else { throw HapticEngineError.invalidTime(time) }
        if time == 0 { return 0 }
        let micros = UInt32(truncatingIfNeeded: UInt64((time * 1e6).rounded()))
        return micros == 0 ? 1 : micros
    }
}
