import Foundation
import Thrum
import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// `thrum-bench latency`: the engine against the embedded simulator over an emulated line, in
/// virtual time (engine, link and board on one manual clock; 100 µs steps). What the board
/// rendered is read from its ticks (`TraceTap`), so every latency runs from the host's call to
/// the first tick that shows the change.
///
/// Every task runs on one thread (`SerialExecution`) and the clock moves only once they are all
/// suspended, so the figures do not depend on the machine's load. Environment:
/// - `THRUM_BENCH_RUNS=N`: the parameter stream N times; its figures are over all N runs, and
///   each run's are printed on stderr;
/// - `THRUM_BENCH_SCHEDULING=yields`: the old harness (a fixed 20–50 yields between clock steps,
///   on the shared thread pool), whose figures grow with the machine's load (issue 15);
/// - `THRUM_LATENCY_LINES=115200,usb`, `THRUM_LATENCY_PARTS=start,param,scheduled`: a subset;
/// - `THRUM_LATENCY_TRACE=1`: where the slowest parameter updates spent their time, on stderr.
var latencySuite: Suite {
    Suite(
        name: "latency",
        summary:
            "start, dynamic-parameter and scheduled-start latency over 115,200 baud and a USB-like line (virtual time)"
    ) {
        let environment = ProcessInfo.processInfo.environment
        let runs = max(1, Int(environment["THRUM_BENCH_RUNS"] ?? "") ?? 1)
        let serial = environment["THRUM_BENCH_SCHEDULING"] != "yields"
        return try runBlocking {
            let measure: @Sendable () async throws -> [Metric] = {
                var metrics: [Metric] = []
                let lines = environment["THRUM_LATENCY_LINES"]?.split(separator: ",").map(String.init)
                for (label, line) in [("115200", LineModel(baudRate: 115_200)), ("usb", LineModel.usb)]
                where lines?.contains(label) ?? true {
                    metrics += try await LatencyBench(label: label, line: line, runs: runs).run()
                }
                return metrics
            }
            return serial ? try await SerialExecution.run(measure) : try await measure()
        }
    }
}

/// Runs async benchmark work from the synchronous suite list (the main thread may block).
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>?
    Task.detached {
        do { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try result!.get()
}

final class LatencyBench: @unchecked Sendable {
    let label: String
    let line: LineModel
    /// Clock time of board time 0 in the current set-up.
    var originSeconds = 0.0
    /// `THRUM_LATENCY_TRACE=1`: stamp the host's writes and the board's reads, and print where the
    /// slowest parameter updates spent their time.
    let tracing = ProcessInfo.processInfo.environment["THRUM_LATENCY_TRACE"] == "1"
    var hostWrites: StampLog?
    var boardReads: StampLog?

    /// How many times the parameter stream runs.
    let runs: Int

    init(label: String, line: LineModel, runs: Int = 1) {
        self.label = label
        self.line = line
        self.runs = runs
    }
    let step = Duration.microseconds(100)
    let tick = 0.001

    /// Seconds a frame of `bytes` needs on this line: its byte time, plus latency and one USB frame.
    func wireTime(bytes: Int) -> Double {
        Double(bytes) * Double(line.byteNanoseconds) / 1e9 + Double(line.latencyMicroseconds + line.frameMicroseconds)
            / 1e6
    }

    /// An engine and a board on one manual clock. Board time is clock time less `origin`, the
    /// clock's reading when the board began (the server reads the clock first thing in `run`).
    func setUp() async throws -> (ManualClock, TraceTap, HapticEngine) {
        let clock = ManualClock()
        let tap = TraceTap(capacity: 40_000)
        var board = BoardConfiguration()
        board.line = line
        let (rawHost, rawEnd) = InMemoryTransport.makePair(names: ("host", "board"))
        (hostWrites, boardReads) = tracing ? (StampLog(), StampLog()) : (nil, nil)
        let host: any ByteTransport =
            tracing ? StampingTransport(base: rawHost, clock: clock, writes: hostWrites, reads: nil) : rawHost
        let end: any ByteTransport =
            tracing ? StampingTransport(base: rawEnd, clock: clock, writes: nil, reads: boardReads) : rawEnd
        let server = try SimulatorServer(configuration: board, transport: end, tap: tap)
        let origin = Origin()
        let engine = HapticEngine(manualClock: clock, lineRate: line.baudRate) {
            (
                host,
                Task {
                    origin.seconds = clock.now.offset.secondsDouble
                    try? await server.run(on: clock)
                }
            )
        }
        try await clock.drive(step: step, yields: 50) { try await engine.start() }
        originSeconds = origin.seconds
        await clock.pass(.milliseconds(300), step: step, yields: 50)  // clock sync's first burst
        return (clock, tap, engine)
    }

    func run() async throws -> [Metric] {
        // `THRUM_LATENCY_PARTS=param` (comma-separated: start, param, scheduled) runs only those.
        let parts = ProcessInfo.processInfo.environment["THRUM_LATENCY_PARTS"]?.split(separator: ",").map(String.init)
        var metrics: [Metric] = []
        if parts?.contains("start") ?? true { metrics += try await startLatency() }
        if parts?.contains("param") ?? true { metrics += try await parameterLatencies() }
        if parts?.contains("scheduled") ?? true { metrics += try await scheduledStarts() }
        return metrics
    }

    /// The first tick at or after clock time `from` (seconds) whose intensity satisfies `test`,
    /// in clock time.
    func firstTick(_ tap: TraceTap, from: Double, where test: (Double) -> Bool) -> Double? {
        tap.ticks.lazy.map { [originSeconds] in (seconds: $0.seconds + originSeconds, intensity: $0.intensity) }
            .first { $0.seconds >= from - 1e-9 && test($0.intensity) }?.seconds
    }

    func startLatency() async throws -> [Metric] {
        let (clock, tap, engine) = try await setUp()
        let tapPattern = HapticPattern(events: [.continuous(at: 0, duration: 0.05, intensity: 1)])
        let cached = try await engine.makePlayer(with: tapPattern)
        try await clock.drive(step: step, yields: 50) {
            try await cached.start(atTime: 0)  // uploads; later starts find it on the board
        }
        await clock.pass(.milliseconds(100), step: step, yields: 50)
        var cachedLatencies: [Double] = []
        for _ in 0..<20 {
            let sent = clock.now.offset.secondsDouble
            try await clock.drive(step: step, yields: 50) { try await cached.start(atTime: 0) }
            await clock.pass(.milliseconds(80), step: step, yields: 50)
            if let first = firstTick(tap, from: sent, where: { $0 > 0 }) { cachedLatencies.append(first - sent) }
        }
        // An uncached small pattern: upload (begin, chunk, commit, each answered) and then start.
        var uncachedLatencies: [Double] = []
        for index in 0..<10 {
            let pattern = HapticPattern(events: [
                .continuous(at: 0, duration: 0.05 + Double(index) * 0.001, intensity: 1)
            ])
            let player = try await engine.makePlayer(with: pattern)
            let sent = clock.now.offset.secondsDouble
            try await clock.drive(step: step, yields: 50) { try await player.start(atTime: 0) }
            await clock.pass(.milliseconds(100), step: step, yields: 50)
            if let first = firstTick(tap, from: sent, where: { $0 > 0 }) { uncachedLatencies.append(first - sent) }
        }
        try await clock.drive(step: step, yields: 50) { await engine.stop() }
        let startBytes = Self.frameBytes(
            .playerStart(tag: 1, player: 0, handle: 0, atTime: 0, position: 0), channel: .reliable)
        let wire = wireTime(bytes: startBytes)
        // Begin, chunk and commit frames around the timeline.
        let uncachedBytes = startBytes + 3 * 20 + cached.timelineSize
        return [
            Metric(name: "latency.\(label).start_cached_wire_ms", value: wire * 1000, unit: "ms", goal: .none),
            Metric(
                name: "latency.\(label).start_cached_min_ms", value: (cachedLatencies.min() ?? .infinity) * 1000,
                unit: "ms", goal: .none),
            Metric(
                name: "latency.\(label).start_cached_max_ms", value: (cachedLatencies.max() ?? .infinity) * 1000,
                unit: "ms",
                goal: .atMost((wire + tick) * 1000)),
            Metric(
                name: "latency.\(label).start_uncached_wire_ms", value: wireTime(bytes: uncachedBytes) * 1000,
                unit: "ms", goal: .none),
            Metric(
                name: "latency.\(label).start_uncached_max_ms", value: (uncachedLatencies.max() ?? .infinity) * 1000,
                unit: "ms", goal: .none),
        ]
    }

    /// 1,000 real-time intensity updates a second for 10 s to a playing continuous player.
    func parameterLatency() async throws -> ParameterRun {
        let (clock, tap, engine) = try await setUp()
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1)]))
        try await clock.drive(step: step, yields: 50) { try await player.start(atTime: 0) }
        await clock.pass(.milliseconds(50), step: step, yields: 50)
        var sent: [(time: Double, value: Double)] = []
        var driveSteps: [Int] = []
        for index in 0..<10_000 {
            // Distinct consecutive values in Q14 steps the board renders exactly.
            let value = Float(0.2 + 0.6 * Double((index * 37) % 101) / 100)
            let time = clock.now.offset.secondsDouble
            try await clock.drive(step: step, yields: 50) {
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: value, time: 0)
                ])
            }
            sent.append((time, Double(value)))
            driveSteps.append(Int(((clock.now.offset.secondsDouble - time) / 0.0001).rounded()))
            let next = Duration.seconds(Double(index + 1) * 0.001) - (clock.now.offset - Duration.seconds(sent[0].time))
            if next > .zero { await clock.pass(next, step: step, yields: 20) }
        }
        await clock.pass(.milliseconds(50), step: step, yields: 50)
        let statistics = await engine.linkStatistics
        try await clock.drive(step: step, yields: 50) { await engine.stop() }
        let ticks = tap.ticks.map { (seconds: $0.seconds + originSeconds, intensity: $0.intensity) }
        var latencies: [Double] = []
        var firstSecond: [Double] = [], lastSecond: [Double] = []
        var cursor = 0
        for (index, update) in sent.enumerated() {
            while cursor < ticks.count && ticks[cursor].seconds < update.time - 1e-9 { cursor += 1 }
            // Until the next update was sent plus a generous horizon: newest wins, so a value
            // overtaken by the next before a tick rendered it never shows (counted apart).
            let horizon = update.time + 0.05
            var probe = cursor
            while probe < ticks.count && ticks[probe].seconds <= horizon {
                if abs(ticks[probe].intensity - update.value) < 0.0005 {
                    let latency = ticks[probe].seconds - update.time
                    latencies.append(latency)
                    if index < 1000 { firstSecond.append(latency) }
                    if index >= sent.count - 1000 { lastSecond.append(latency) }
                    break
                }
                probe += 1
            }
        }
        if tracing { traceStages(sent: sent, latencies: latencies, ticks: ticks, driveSteps: driveSteps) }
        return ParameterRun(
            latencies: latencies, firstSecond: firstSecond, lastSecond: lastSecond, updates: sent.count,
            framesSent: statistics.framesSent, retransmissions: statistics.retransmissions,
            pingsSent: statistics.pingsSent, unsettledSteps: clock.unsettledSteps)
    }

    /// One stream of parameter updates: each rendered update's latency (seconds).
    struct ParameterRun {
        var latencies: [Double]
        var firstSecond: [Double]
        var lastSecond: [Double]
        var updates: Int
        var framesSent: Int
        var retransmissions: Int
        var pingsSent: Int
        var unsettledSteps: Int
    }

    /// The nearest-rank percentile `p` (0…1) of `values`.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// The parameter stream `runs` times; p50, p99, p99.9 and max over every rendered update of
    /// every run, and the spread of the runs' p99.
    func parameterLatencies() async throws -> [Metric] {
        var results: [ParameterRun] = []
        for run in 0..<runs {
            let result = try await parameterLatency()
            results.append(result)
            if runs > 1 {
                let figures = [0.5, 0.99, 0.999, 1].map {
                    String(format: "%.2f", Self.percentile(result.latencies, $0) * 1000)
                }
                FileHandle.standardError.write(
                    Data(
                        "latency.\(label) run \(run + 1)/\(runs): param p50 \(figures[0]) p99 \(figures[1]) p99.9 \(figures[2]) max \(figures[3]) ms, rendered \(result.latencies.count)/\(result.updates), frames \(result.framesSent), pings \(result.pingsSent), retransmissions \(result.retransmissions), unsettled steps \(result.unsettledSteps)\n"
                            .utf8))
            }
        }
        let latencies = results.flatMap(\.latencies)
        let runP99s = results.map { Self.percentile($0.latencies, 0.99) }
        let growth = results.map { Self.percentile($0.lastSecond, 0.5) - Self.percentile($0.firstSecond, 0.5) }
        let frame = Self.frameBytes(.rtParam(player: 0, parameter: .intensityControl, value: 8192), channel: .realtime)
        let wire = wireTime(bytes: frame)
        func ms(_ name: String, _ seconds: Double, _ goal: Metric.Goal = .none) -> Metric {
            Metric(name: "latency.\(label).\(name)", value: seconds * 1000, unit: "ms", goal: goal)
        }
        return [
            ms("param_wire_ms", wire),
            Metric(name: "latency.\(label).param_runs", value: Double(runs), unit: "runs", goal: .none),
            ms("param_p50_ms", Self.percentile(latencies, 0.5)),
            ms("param_p99_ms", Self.percentile(latencies, 0.99), .atMost((wire + tick + 0.0005) * 1000)),
            ms("param_p99_9_ms", Self.percentile(latencies, 0.999)),
            ms("param_max_ms", latencies.max() ?? .infinity),
            ms("param_p99_run_min_ms", runP99s.min() ?? .infinity),
            ms("param_p99_run_max_ms", runP99s.max() ?? .infinity),
            Metric(
                name: "latency.\(label).param_rendered_share",
                value: Double(latencies.count) / Double(results.map(\.updates).reduce(0, +)), unit: "share", goal: .none
            ),
            ms("param_backlog_growth_ms", growth.max() ?? .infinity, .atMost(0.5)),
            Metric(
                name: "latency.\(label).param_frames_sent",
                value: Double(results.map(\.framesSent).reduce(0, +)) / Double(runs), unit: "frames", goal: .none),
            Metric(
                name: "latency.\(label).param_retransmissions",
                value: Double(results.map(\.retransmissions).reduce(0, +)), unit: "frames", goal: .none),
            Metric(
                // Under `SerialExecution` the clock must only ever have moved with every task suspended.
                name: "latency.\(label).unsettled_steps", value: Double(results.map(\.unsettledSteps).reduce(0, +)),
                unit: "steps", goal: SerialExecution.isActive ? .atMost(0) : .none),
        ]
    }

    /// Prints, for the slowest rendered updates, the time from the host's call to the transport
    /// write, from there to the board's reader, and from there to the rendered tick.
    func traceStages(
        sent: [(time: Double, value: Double)], latencies: [Double], ticks: [(seconds: Double, intensity: Double)],
        driveSteps: [Int]
    ) {
        guard let hostWrites, let boardReads else { return }
        let written = hostWrites.realtimeValues()
        let read = boardReads.realtimeValues()
        let arrivals = boardReads.lineArrivals(byteSeconds: Double(line.byteNanoseconds) / 1e9)
        func first(_ list: [(virtual: Double, value: Int16)], after: Double, value: Double) -> Double? {
            list.first { $0.virtual >= after - 1e-9 && abs(Double($0.value) / 16384 - value) < 0.0005 }?.virtual
        }
        var rows: [(latency: Double, index: Int, write: Double, read: Double, line: Double, tick: Double)] = []
        for (index, update) in sent.enumerated() {
            guard let write = first(written, after: update.time, value: update.value),
                let arrival = first(read, after: write, value: update.value),
                let tick = ticks.first(where: {
                    $0.seconds >= update.time - 1e-9 && abs($0.intensity - update.value) < 0.0005
                })?.seconds,
                tick - update.time < 0.05, let landed = first(arrivals, after: arrival, value: update.value)
            else { continue }
            rows.append(
                (tick - update.time, index, write - update.time, arrival - write, landed - arrival, tick - landed))
        }
        rows.sort { $0.latency > $1.latency }
        let frames = hostWrites.frames()
        var report =
            "latency trace: \(rows.count) rendered updates traced; drive steps >0: \(driveSteps.filter { $0 > 0 }.count), max \(driveSteps.max() ?? 0)\n"
        func ms(_ value: Double) -> String { String(format: "%6.2f", value * 1000) }
        let parts:
            [(
                String,
                ((latency: Double, index: Int, write: Double, read: Double, line: Double, tick: Double)) -> Double
            )] = [
                ("call->write", { $0.write }), ("write->board reader", { $0.read }),
                ("line (queue + wire, replayed)", { $0.line }), ("on board->rendered tick", { $0.tick }),
                ("total", { $0.latency }),
            ]
        for (name, part) in parts {
            let values = rows.map(part).sorted()
            let slow = rows.prefix(max(1, rows.count / 100)).map(part)
            report +=
                "  \(name): p50 \(ms(values[values.count / 2])) p99 \(ms(values[values.count * 99 / 100])) max \(ms(values.last!)) | mean over the slowest 1%: \(ms(slow.reduce(0, +) / Double(slow.count)))\n"
        }
        // Frames written to the transport at one virtual instant: the link paces RT_PARAM frames
        // one per line time, so several at once means the writer ran late and they reach the
        // line back to back, where each queues behind the others.
        var bursts: [(virtual: Double, realtime: Int, wallGap: Double, virtualGap: Double)] = []
        let stamps = hostWrites.all
        var previous: StampLog.Stamp?
        var index = 0
        while index < stamps.count {
            var end = index
            while end + 1 < stamps.count && abs(stamps[end + 1].virtual - stamps[index].virtual) < 1e-9 { end += 1 }
            var decoder = FrameDecoder()
            let count = stamps[index...end].flatMap { decoder.feed($0.bytes) }.filter {
                if case .frame(let frame) = $0, case .rtParam = try? MessageCodec.decode(frame) { return true }
                return false
            }.count
            if count >= 2 {
                bursts.append(
                    (
                        stamps[index].virtual, count, stamps[index].wall - (previous?.wall ?? stamps[index].wall),
                        stamps[index].virtual - (previous?.virtual ?? stamps[index].virtual)
                    ))
            }
            previous = stamps[end]
            index = end + 1
        }
        report +=
            "  bursts (≥2 RT_PARAM frames written at one virtual instant): \(bursts.count), largest \(bursts.map(\.realtime).max() ?? 0) frames\n"
        for burst in bursts.sorted(by: { $0.realtime > $1.realtime }).prefix(5) {
            report +=
                "    at \(String(format: "%.4f", burst.virtual)) s: \(burst.realtime) RT_PARAM frames; since the previous write \(ms(burst.virtualGap)) ms of virtual time, \(ms(burst.wallGap)) ms of wall time\n"
        }
        for row in rows.prefix(15) {
            let update = sent[row.index]
            let ahead = frames.filter {
                $0.virtual >= update.time - 1e-9 && $0.virtual <= update.time + row.write + 1e-9
            }
            report +=
                "  #\(row.index) at \(String(format: "%.4f", update.time)): total \(ms(row.latency)) = call->write \(ms(row.write)) + write->reader \(ms(row.read)) + line \(ms(row.line)) + on board->tick \(ms(row.tick)); drive steps \(driveSteps[row.index]); frames written meanwhile: \(ahead.map { "\($0.name)@\(ms($0.virtual - update.time))" }.joined(separator: ", "))\n"
        }
        FileHandle.standardError.write(Data(report.utf8))
    }

    /// Starts scheduled 50 ms ahead at whole milliseconds of engine time: the first rendered tick
    /// must be that very tick (the board's clock and the engine's estimate agree).
    func scheduledStarts() async throws -> [Metric] {
        let (clock, tap, engine) = try await setUp()
        let player = try await engine.makePlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 0.02, intensity: 1)]))
        var errors: [Double] = []
        for _ in 0..<50 {
            let now = await engine.currentTime
            let at = ((now + 0.05) * 1000).rounded(.up) / 1000
            try await clock.drive(step: step, yields: 50) { try await player.start(atTime: at) }
            await clock.pass(.milliseconds(90), step: step, yields: 50)
            // `at` is engine (board) time; the tick's board time is what the board did with it.
            if let first = firstTick(tap, from: at + originSeconds - 0.01, where: { $0 > 0 }) {
                errors.append(abs(first - originSeconds - at))
            }
        }
        try await clock.drive(step: step, yields: 50) { await engine.stop() }
        let sorted = errors.sorted()
        let p99 = sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * 0.99))]
        return [
            Metric(
                name: "latency.\(label).scheduled_start_error_p99_ms", value: p99 * 1000, unit: "ms", goal: .atMost(0.5)
            )
        ]
    }

    /// Bytes of one frame carrying `message` on the wire (header, payload, CRC, COBS, delimiters).
    static func frameBytes(_ message: WireMessage, channel: Channel) -> Int {
        let payload = (try? MessageCodec.encode(message)) ?? []
        let header = FrameHeader(channel: channel, epoch: 1, seq: 1, ack: 1, window: 8, type: message.type.rawValue)
        // Both delimiters: a lone frame on an idle line sends them both.
        return FrameEncoder.encode(header: header, payload: payload).count
    }
}

/// The clock's reading when the simulated board began, set from the server's task.
private final class Origin: Sendable {
    private let value = Locked(0.0)
    var seconds: Double {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
