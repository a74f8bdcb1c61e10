import Foundation
import Thrum
import ThrumService
import ThrumSimulator
import ThrumTransport
import ThrumWire

/// The service benchmark's latency probe: a 1 kHz stream of distinct intensity values to a player
/// holding a steady continuous event at intensity 1 on a USB-like line, and, read back from the
/// board's trace, how long each value took from the call to the first tick that rendered it. Values
/// a newer one replaced before they went (newest wins) render nowhere and are not counted.
enum RealtimeStream {
    struct Outcome: Sendable {
        var latencies: [Double]
        var sent: Int
    }

    static let count = 3_000
    static let pattern = """
        {"Version": 1.0, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 30.0,
          "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0},
                              {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]}
        """

    static func board() -> BoardConfiguration {
        var board = BoardConfiguration()
        board.line = .usb
        return board
    }

    /// Value `index` of the stream: 1,000 distinct levels at least 8 Q1.14 steps apart.
    static func value(_ index: Int) -> Float { Float(0.25 + 0.5 * Double((index * 7919) % 1000) / 1000) }

    /// Straight through the engine: `makeSend` gives the call that sends one value.
    static func measure(
        _ makeSend: @Sendable (HapticEngine, HapticAdvancedPatternPlayer) -> (@Sendable (Float) async throws -> Void)
    ) async throws -> Outcome {
        let engine = HapticEngine(simulating: board())
        try await engine.start()
        let player = try await engine.makeAdvancedPlayer(
            with: try PatternFile.load(data: Data(pattern.utf8), name: "steady"))
        try await player.start(atTime: HapticEngine.timeImmediate)
        try await Task.sleep(for: .milliseconds(200))
        let outcome = try await stream(on: engine, send: makeSend(engine, player))
        await engine.stop()
        return outcome
    }

    /// Through the service, one client on a WebSocket.
    static func measureThroughService() async throws -> Outcome {
        let engine = HapticEngine(simulating: board())
        return try await Served.run(EngineStage(engine: engine)) { port, _ in
            let result = Locked<Outcome?>(nil)
            try await ServiceBenchSocket.connect(port: port) { socket in
                let loaded = try await socket.result("pattern.load", ["text": .string(pattern)])
                let player = try await socket.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                try await socket.result("player.start", ["player": player])
                try await Task.sleep(for: .milliseconds(200))
                let outcome = try await stream(on: engine) { value in
                    try await socket.send([
                        "type": "player.parameters", "player": player,
                        "parameters": ["intensity": .number(Double(value))],
                    ])
                }
                result.withLock { $0 = outcome }
            }
            guard let outcome = result.withLock({ $0 }) else { throw BenchFailure("the stream did not run") }
            return outcome
        }
    }

    /// Sends the stream at 1 kHz, then finds each value in the board's trace.
    static func stream(on engine: HapticEngine, send: @Sendable (Float) async throws -> Void) async throws -> Outcome {
        var sends: [MonotonicInstant] = []
        var next = ContinuousClock.now
        for index in 0..<count {
            sends.append(engine.hostClock.now)
            try await send(value(index))
            next += .milliseconds(1)
            try await Task.sleep(until: next, clock: .continuous)
        }
        try await Task.sleep(for: .milliseconds(100))
        var boardSends: [Double] = []
        for instant in sends {
            guard let micros = await engine.boardMicroseconds(atHost: instant) else {
                throw BenchFailure("no clock estimate")
            }
            boardSends.append(micros)
        }
        let from = UInt32(truncatingIfNeeded: Int64(boardSends[0]))
        let trace = try await engine.readTrace(channel: 0, from: from, count: count + 200)
        guard trace.tick > 0 else { throw BenchFailure("the board kept no trace") }
        // The simulator's clock starts at 0: within the benchmark's minutes it does not wrap.
        let first = Double(trace.start)
        var latencies: [Double] = []
        for (index, sentAt) in boardSends.enumerated() {
            let wanted = Int16((Double(value(index)) * 16384).rounded())
            let firstTick = max(0, Int(((sentAt - first) / Double(trace.tick)).rounded(.up)))
            let lastTick = min(trace.samples.count, firstTick + 50)
            guard firstTick < lastTick,
                let hit = (firstTick..<lastTick).first(where: { abs(Int(trace.samples[$0]) - Int(wanted)) <= 2 })
            else { continue }
            latencies.append((first + Double(hit * trace.tick) - sentAt) / 1000)
        }
        return Outcome(latencies: latencies, sent: count)
    }
}
