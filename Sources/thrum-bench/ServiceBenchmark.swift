import Foundation
import Thrum
import ThrumService
import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// `thrum-bench service`: `thrum serve` in-process on loopback, measured as its clients see it
/// (Protocol/SERVICE.md). `THRUM_BENCH_SERVICE_SECONDS` sets the 16-client run's length (default 60).
var serviceSuite: Suite {
    Suite(
        name: "service",
        summary:
            "thrum serve on loopback: WebSocket round trip, 1 kHz real-time stream to the rendered tick against the engine's own, 16 clients at 1 kHz, a rig of 4 boards for 4 clients"
    ) {
        try runBlocking { try await ServiceBench().run() }
    }
}

struct ServiceBench {
    let stressSeconds = ProcessInfo.processInfo.environment["THRUM_BENCH_SERVICE_SECONDS"].flatMap(Double.init) ?? 60

    func run() async throws -> [Metric] {
        var metrics: [Metric] = []
        metrics += try await roundTrip()
        metrics += try await realtimeLatency()
        metrics += try await manyClients()
        metrics += try await rigClients()
        return metrics
    }

    // MARK: round trip

    /// 1,000 `time` requests one after another on one socket, 2.5 ms apart (inside the request
    /// budget of 500 a second, SERVICE.md §8).
    func roundTrip() async throws -> [Metric] {
        let samples = Locked([Double]())
        try await Served.run(EngineStage(engine: HapticEngine(simulating: BoardConfiguration()))) { port, _ in
            try await ServiceBenchSocket.connect(port: port) { socket in
                for index in 0..<1_100 {
                    let start = ContinuousClock.now
                    try await socket.result("time")
                    // The first 100 warm up the connection and the code paths.
                    if index >= 100 { samples.withLock { $0.append((ContinuousClock.now - start) / .milliseconds(1)) } }
                    try await Task.sleep(until: start + .microseconds(2500), clock: .continuous)
                }
            }
        }
        let values = samples.withLock { $0 }
        return [
            Metric(name: "service.roundtrip.p50", value: percentile(values, 0.5), unit: "ms", goal: .atMost(1)),
            Metric(name: "service.roundtrip.p99", value: percentile(values, 0.99), unit: "ms", goal: .atMost(5)),
        ]
    }

    // MARK: real-time latency

    /// A 1 kHz intensity stream for 3 s on a USB-like line (1 ms frames, 1 ms latency), from the
    /// call to the first tick the board rendered the value at (read back with TRACE_READ): once
    /// straight through the engine, once through the service.
    func realtimeLatency() async throws -> [Metric] {
        let direct = try await RealtimeStream.measure { engine, player in
            { value in
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: value, time: 0)
                ])
            }
        }
        let served = try await RealtimeStream.measureThroughService()
        let directP99 = percentile(direct.latencies, 0.99)
        return [
            Metric(
                name: "service.realtime.engine.p50", value: percentile(direct.latencies, 0.5), unit: "ms", goal: .none),
            Metric(name: "service.realtime.engine.p99", value: directP99, unit: "ms", goal: .none),
            Metric(
                name: "service.realtime.served.p50", value: percentile(served.latencies, 0.5), unit: "ms", goal: .none),
            Metric(
                name: "service.realtime.served.p99", value: percentile(served.latencies, 0.99), unit: "ms",
                goal: .atMost(directP99 + 1)),
            Metric(
                name: "service.realtime.served.rendered", value: Double(served.latencies.count) / Double(served.sent),
                unit: "fraction", goal: .atLeast(0.5)),
        ]
    }

    // MARK: sixteen clients

    /// 16 clients, each streaming real-time intensity at 1 kHz to its own player and timing a
    /// `time` request every 100 ms: errors, resident memory and round trips, early against late.
    func manyClients() async throws -> [Metric] {
        let clients = 16
        let seconds = stressSeconds
        let warmUp = min(10, seconds / 3)
        let (sent, errors, early, late, memory) = try await Served.run(
            EngineStage(engine: HapticEngine(simulating: BoardConfiguration()))
        ) { port, _ in
            let sent = Locked(0)
            let errors = Locked(0)
            let roundTrips = Locked([(at: Double, ms: Double)]())
            let begin = ContinuousClock.now
            let memoryAfterWarmUp = Locked(0)
            let swish = try String(contentsOf: Repository.url("Examples/swish.ahap"), encoding: .utf8)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        try await ServiceBenchSocket.connect(port: port) { socket in
                            let pattern = try await socket.result("pattern.load", ["text": .string(swish)])["pattern"]!
                            let player = try await socket.result("player.create", ["pattern": pattern])["player"]!
                            try await socket.result("player.start", ["player": player])
                            var next = ContinuousClock.now
                            var step = 0
                            while ContinuousClock.now - begin < .seconds(seconds) {
                                let value = 0.2 + 0.6 * Double(step % 97) / 96
                                try await socket.send([
                                    "type": "player.parameters", "player": player,
                                    "parameters": ["intensity": .number(value)],
                                ])
                                sent.withLock { $0 += 1 }
                                if step % 100 == 0 {
                                    let start = ContinuousClock.now
                                    try await socket.result("time")
                                    let at = (start - begin) / .seconds(1)
                                    roundTrips.withLock {
                                        $0.append((at, (ContinuousClock.now - start) / .milliseconds(1)))
                                    }
                                }
                                step += 1
                                next += .milliseconds(1)
                                try await Task.sleep(until: next, clock: .continuous)
                            }
                            errors.withLock { $0 += socket.errors.withLock { $0 } }
                        }
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(warmUp))
                    memoryAfterWarmUp.withLock { $0 = SoakBench.residentBytes() }
                }
                try await group.waitForAll()
            }
            let trips = roundTrips.withLock { $0 }
            let early = trips.filter { $0.at >= warmUp && $0.at < warmUp + 10 }.map(\.ms)
            let late = trips.filter { $0.at >= seconds - 10 }.map(\.ms)
            let growth = Double(SoakBench.residentBytes() - memoryAfterWarmUp.withLock { $0 }) / 1_048_576
            return (sent.withLock { $0 }, errors.withLock { $0 }, early, late, growth)
        }
        let rate = Double(sent) / Double(clients) / seconds
        return [
            Metric(name: "service.clients16.errors", value: Double(errors), unit: "count", goal: .atMost(0)),
            Metric(name: "service.clients16.rate", value: rate, unit: "updates/s/client", goal: .atLeast(800)),
            Metric(name: "service.clients16.memory_growth", value: memory, unit: "MiB", goal: .atMost(16)),
            Metric(
                name: "service.clients16.roundtrip.p99.early", value: percentile(early, 0.99), unit: "ms", goal: .none),
            Metric(
                name: "service.clients16.roundtrip.p99.late", value: percentile(late, 0.99), unit: "ms",
                goal: .atMost(max(2 * percentile(early, 0.99), 5))),
        ]
    }

    // MARK: a rig

    /// Four simulated boards as one rig, one client a board: each plays nom-nom on its board's
    /// channel, all started at one service time, then streams the pan for 2 s.
    func rigClients() async throws -> [Metric] {
        let names = ["a", "b", "c", "d"]
        let boards = names.map { name in
            var board = BoardConfiguration()
            board.line = .usb
            return RigConfiguration.Board(
                name: name, address: .device(.simulator), channelNames: [name], simulator: board)
        }
        let rig = HapticRig(try RigConfiguration(boards: boards))
        let errors = Locked(0)
        let started = try await Served.run(RigStage(rig: rig)) { port, _ in
            let nom = try String(contentsOf: Repository.url("Examples/nom-nom.ahap"), encoding: .utf8)
            let replies = Locked([Double]())
            try await ServiceBenchSocket.connect(port: port) { timer in
                let at = try await timer.result("time")["now"]!.doubleValue! + 0.3
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for name in names {
                        group.addTask {
                            try await ServiceBenchSocket.connect(port: port) { socket in
                                let pattern = try await socket.result("pattern.load", ["text": .string(nom)])[
                                    "pattern"]!
                                let player = try await socket.result(
                                    "player.create", ["pattern": pattern, "locality": .string(name)])["player"]!
                                try await socket.result("player.start", ["player": player, "at": .number(at)])
                                replies.withLock { $0.append(at) }
                                for step in 0..<2_000 {
                                    try await socket.send([
                                        "type": "player.pan", "player": player, "position": .number(Double(step % 2)),
                                    ])
                                    try await Task.sleep(for: .milliseconds(1))
                                }
                                errors.withLock { $0 += socket.errors.withLock { $0 } }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            return Double(replies.withLock { $0.count })
        }
        return [
            Metric(name: "service.rig4.clients_started", value: started, unit: "count", goal: .atLeast(4)),
            Metric(name: "service.rig4.errors", value: Double(errors.withLock { $0 }), unit: "count", goal: .atMost(0)),
        ]
    }

    func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
}

/// A service on `stage`, in-process on a free loopback port, for the length of `body`.
enum Served {
    static func run<T: Sendable>(
        _ stage: any ServiceStage, _ body: @escaping @Sendable (Int, ServiceHub) async throws -> T
    ) async throws -> T {
        let hub = ServiceHub(stage: stage)
        let server = ThrumServer(hub: hub, configuration: ServiceConfiguration(port: 0))
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await server.run(stopOnSignals: false) { url in port.yield(url.port ?? 0) } }
        Task {
            _ = await serving.result
            port.finish()  // a service that failed to start ends the wait below
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw BenchFailure("the service did not start") }
        do {
            let value = try await body(bound, hub)
            serving.cancel()
            _ = await serving.result
            return value
        } catch {
            serving.cancel()
            _ = await serving.result
            throw error
        }
    }
}
