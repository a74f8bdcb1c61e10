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
var latencySuite: Suite {
    Suite(
        name: "latency",
        summary:
            "start, dynamic-parameter and scheduled-start latency over 115,200 baud and a USB-like line (virtual time)"
    ) {
        try runBlocking {
            var metrics: [Metric] = []
            for (label, line) in [("115200", LineModel(baudRate: 115_200)), ("usb", LineModel.usb)] {
                metrics += try await LatencyBench(label: label, line: line).run()
            }
            return metrics
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

    init(label: String, line: LineModel) {
        self.label = label
        self.line = line
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
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
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
        try await startLatency() + parameterLatency() + scheduledStarts()
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
    func parameterLatency() async throws -> [Metric] {
        let (clock, tap, engine) = try await setUp()
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1)]))
        try await clock.drive(step: step, yields: 50) { try await player.start(atTime: 0) }
        await clock.pass(.milliseconds(50), step: step, yields: 50)
        var sent: [(time: Double, value: Double)] = []
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
        let frame = Self.frameBytes(.rtParam(player: 0, parameter: .intensityControl, value: 8192), channel: .realtime)
        let wire = wireTime(bytes: frame)
        func percentile(_ values: [Double], _ p: Double) -> Double {
            guard !values.isEmpty else { return .infinity }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        return [
            Metric(name: "latency.\(label).param_wire_ms", value: wire * 1000, unit: "ms", goal: .none),
            Metric(
                name: "latency.\(label).param_p50_ms", value: percentile(latencies, 0.5) * 1000, unit: "ms", goal: .none
            ),
            Metric(
                name: "latency.\(label).param_p99_ms", value: percentile(latencies, 0.99) * 1000, unit: "ms",
                goal: .atMost((wire + tick + 0.0005) * 1000)),
            Metric(
                name: "latency.\(label).param_rendered_share", value: Double(latencies.count) / Double(sent.count),
                unit: "share", goal: .none),
            Metric(
                name: "latency.\(label).param_backlog_growth_ms",
                value: (percentile(lastSecond, 0.5) - percentile(firstSecond, 0.5)) * 1000,
                unit: "ms", goal: .atMost(0.5)),
            Metric(
                name: "latency.\(label).param_frames_sent", value: Double(statistics.framesSent), unit: "frames",
                goal: .none),
        ]
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
