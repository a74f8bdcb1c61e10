import Foundation
import Thrum
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// `thrum-bench rig [--minutes N]`: four simulated boards on pseudo-terminals, their crystals at
/// −100, −30, +40 and +100 ppm and their lines USB-like (1 ms frames, 1 ms latency, up to 250 µs of
/// jitter a delivery), played as one
/// rig for N minutes (default 10).
///
/// What each board rendered is read back through TRACE_READ and put on the host's time line by
/// ground truth: the simulator knows when its board time 0 was and how fast its crystal runs. An
/// instant is where a linear attack ramp extrapolates to zero, so it is found to microseconds,
/// not to the 1 ms tick.
/// - Start skew: every 5 s, a probe pattern is started on every board at one host instant; the
///   spread of its four starts (target 0.5 ms; the goal, 0.25 ms, is read off its p99).
/// - Drift: a 2 s loop plays on every board for the whole run without a restart; the spread of
///   its loop boundaries, at the end.
/// - Rejoin: halfway, one board is unplugged (its pty closed) for 2 s and plugged in again at
///   the same path; the time from plugging in to playing in step again.
var rigSuite: Suite {
    Suite(
        name: "rig",
        summary:
            "4 drifting simulated boards on ptys as one rig for --minutes N (default 10): start skew, drift, rejoin"
    ) {
        try runBlocking { try await RigBench(minutes: BenchOptions.current.minutes ?? 10).run() }
    }
}

struct RigBench {
    var minutes: Double
    static let ppm: [Double] = [-100, -30, 40, 100]
    /// Its linear attack says when each pass or start began (``RampProbe``).
    static let ramp = RampProbe.pattern(duration: 0.5)
    static let loopLength = 2.0

    func run() async throws -> [Metric] {
        let boards = try (0..<Self.ppm.count).map { try SimulatedRigBoard(index: $0, ppm: Self.ppm[$0]) }
        defer { for board in boards { board.unplug() } }
        let configuration = try RigConfiguration(
            boards: boards.map { RigConfiguration.Board(name: $0.name, address: .device(.path($0.link))) })
        let rig = HapticRig(configuration)
        let events = rig.events
        try await rig.start()
        defer { Task { await rig.stop() } }
        let hostOrigin = ContinuousClock.now - .nanoseconds(Int64(await rig.currentTime * 1e9))
        let loop = try await rig.makePlayer(with: Self.ramp, locality: HapticLocality(parsing: "b0.0,b1.0,b2.0,b3.0"))
        try await loop.setLoop(enabled: true, loopEnd: Self.loopLength)
        let probe = try await rig.makePlayer(with: Self.ramp, locality: HapticLocality(parsing: "b0.1,b1.1,b2.1,b3.1"))
        let loopStart = await rig.currentTime + 0.2
        try await loop.start(atTime: loopStart)

        let end = loopStart + minutes * 60
        var startSkews: [Double] = []
        var probeTimes: [Double] = []
        var loopSkews: [(time: Double, skew: Double)] = []
        var rejoin: Double?
        var unplugged = false
        var nextProbe = loopStart + 1
        let log = { (text: String) in FileHandle.standardError.write(Data("rig: \(text)\n".utf8)) }
        while await rig.currentTime < end {
            // A probe start, read back once it has rendered its ramp.
            let at = nextProbe
            try await probe.start(atTime: at)
            try await sleep(until: at + 0.1, rig: rig)
            if let skew = try await spread(of: at, channel: 1, boards: boards, rig: rig, hostOrigin: hostOrigin) {
                startSkews.append(skew)
                probeTimes.append(at)
            }
            // The loop boundary just before the probe.
            let boundary = loopStart + ((at - loopStart) / Self.loopLength).rounded(.down) * Self.loopLength
            if boundary > loopStart,
                let skew = try await spread(of: boundary, channel: 0, boards: boards, rig: rig, hostOrigin: hostOrigin)
            {
                loopSkews.append((boundary - loopStart, skew))
            }
            if !unplugged, at - loopStart > minutes * 30 {
                unplugged = true
                rejoin = try await unplugAndRejoin(boards[2], rig: rig, events: events)
                log(String(format: "board b2 rejoined in %.3f s", rejoin ?? -1))
            }
            if startSkews.count % 12 == 0 {
                log(
                    String(
                        format: "%.0f s: %d probes, start skew now %.3f ms, loop skew %.3f ms", at - loopStart,
                        startSkews.count, (startSkews.last ?? 0) * 1000, (loopSkews.last?.skew ?? 0) * 1000))
            }
            nextProbe += 5
        }
        // The clock estimates settle over their first minute (their history grows to two): the
        // figure with its target is the skew after that, the whole run's beside it.
        let settled = zip(probeTimes, startSkews).filter { $0.0 - loopStart >= 60 }.map(\.1)
        var metrics = [
            Metric(
                name: "rig.start_skew_p99", value: percentile(settled, 0.99) * 1000, unit: "ms", goal: .atMost(0.5)),
            Metric(name: "rig.start_skew_p50", value: percentile(settled, 0.5) * 1000, unit: "ms", goal: .none),
            Metric(name: "rig.start_skew_max", value: (settled.max() ?? .infinity) * 1000, unit: "ms", goal: .none),
            Metric(
                name: "rig.start_skew_p99_first_minute",
                value: percentile(Array(zip(probeTimes, startSkews).filter { $0.0 - loopStart < 60 }.map(\.1)), 0.99)
                    * 1000, unit: "ms", goal: .none),
            Metric(
                name: "rig.probes_after_first_minute", value: Double(settled.count), unit: "starts", goal: .atLeast(1)),
        ]
        if let last = loopSkews.last {
            metrics.append(
                Metric(name: "rig.loop_skew_at_end", value: last.skew * 1000, unit: "ms", goal: .atMost(0.5)))
            metrics.append(
                Metric(name: "rig.loop_end_after", value: last.time / 60, unit: "min", goal: .atLeast(minutes * 0.9)))
            metrics.append(
                Metric(name: "rig.loop_skew_max", value: loopSkews.map(\.skew).max()! * 1000, unit: "ms", goal: .none))
        }
        metrics.append(Metric(name: "rig.rejoin", value: rejoin ?? .infinity, unit: "s", goal: .atMost(3)))
        for (index, status) in await rig.boards.enumerated() {
            metrics.append(
                Metric(
                    name: "rig.b\(index).measured_drift", value: status.driftPPM ?? .nan, unit: "ppm",
                    goal: .none))
        }
        return metrics
    }

    private func sleep(until time: Double, rig: HapticRig) async throws {
        let now = await rig.currentTime
        if time > now { try await Task.sleep(for: .milliseconds(Int64((time - now) * 1000))) }
    }

    /// The spread (max − min, seconds) of the instants at which the boards' ramps on `channel`
    /// started near host time `time`; nil when a board rendered none there (one that is away).
    private func spread(
        of time: Double, channel: Int, boards: [SimulatedRigBoard], rig: HapticRig, hostOrigin: ContinuousClock.Instant
    ) async throws -> Double? {
        var starts: [Double] = []
        for (index, board) in boards.enumerated() {
            guard let engine = await rig.engine(board: index),
                let start = try await board.rampStart(
                    near: time, channel: channel, engine: engine, hostOrigin: hostOrigin)
            else { return nil }
            starts.append(start)
        }
        if ProcessInfo.processInfo.environment["THRUM_BENCH_RIG_DETAIL"] != nil {
            let base = starts.min()!
            let detail = starts.map { String(format: "%+.3f", ($0 - base) * 1000) }.joined(separator: " ")
            FileHandle.standardError.write(Data("rig: channel \(channel) at \(time): \(detail) ms\n".utf8))
        }
        return starts.max()! - starts.min()!
    }

    /// Closes board `board`'s pty, waits 2 s, serves a fresh board (a reboot) at the same path,
    /// and times the rig from plugging in to playing in step.
    private func unplugAndRejoin(
        _ board: SimulatedRigBoard, rig: HapticRig, events: AsyncStream<RigEvent>
    ) async throws -> Double? {
        board.unplug()
        try await Task.sleep(for: .seconds(2))
        let pluggedAt = await rig.currentTime
        try board.plug()
        let deadline = ContinuousClock.now + .seconds(20)
        for await event in events {
            if case .boardRejoined(let name, _, _, let inStep) = event, name == board.name { return inStep - pluggedAt }
            if ContinuousClock.now > deadline { return nil }
        }
        return nil
    }

    private func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
    }
}

/// One simulated board of the rig benchmark: a pty served in this process, reached through a
/// symbolic link (as udev's `/dev/thrum-*` names would), so it can be unplugged and plugged in
/// again at the same path.
final class SimulatedRigBoard: @unchecked Sendable {
    let name: String
    let link: String
    let configuration: BoardConfiguration
    private var terminal: PseudoTerminal?
    private var task: Task<Void, Never>?
    private(set) var server: SimulatorServer?

    init(index: Int, ppm: Double) throws {
        name = "b\(index)"
        link = NSTemporaryDirectory() + "thrum-rig-\(getpid())-\(name)"
        var configuration = BoardConfiguration()
        configuration.serial = "RIG-\(index)"
        configuration.channels = [.lra(), .lra()]
        configuration.clockPPM = ppm
        configuration.line = .usb
        configuration.line.jitterMicroseconds = 250
        configuration.line.jitterSeed = UInt64(index + 1)
        configuration.keepAliveMilliseconds = 1000
        self.configuration = configuration
        try plug()
    }

    /// Boots a fresh board on a new pty and points the link at it.
    func plug() throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        let server = try SimulatorServer(configuration: configuration, transport: terminal.controller)
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.devicePath)
        self.terminal = terminal
        self.server = server
        task = Task.detached { try? await server.run() }
        while server.origin.withLock({ $0 }) == nil { usleep(1000) }
    }

    /// The board goes away: its server stops and its pty closes.
    func unplug() {
        task?.cancel()
        task = nil
        if let controller = terminal?.controller {
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                await controller.close()
                done.signal()
            }
            done.wait()
        }
        terminal = nil
    }

    /// The host instant (seconds on the rig's clock) at which this board's ramp on `channel`
    /// starting near host time `time` began: each rising tick's time less its level times the
    /// attack, averaged. Ground truth: the server's origin and crystal.
    func rampStart(
        near time: Double, channel: Int, engine: HapticEngine, hostOrigin: ContinuousClock.Instant
    ) async throws -> Double? {
        guard let origin = server?.origin.withLock({ $0 }) as? ContinuousClock.Instant else { return nil }
        let scale = 1 + configuration.clockPPM / 1e6
        let hostToBoard = { (host: Double) -> Double in
            let sinceOrigin = (hostOrigin - origin).secondsDouble + host
            return sinceOrigin * scale * 1e6
        }
        let from = UInt32(max(0, hostToBoard(time - 0.01)))
        let trace = try await engine.readTrace(channel: channel, from: from, count: 60)
        guard let board = RampProbe.start(in: trace) else { return nil }
        return board / scale / 1e6 - (hostOrigin - origin).secondsDouble
    }
}
