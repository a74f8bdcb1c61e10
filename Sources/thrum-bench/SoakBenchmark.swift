import Foundation
import Thrum
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

/// `thrum-bench soak [--minutes N]` (default 1): for N minutes of wall time, an engine against a
/// simulated board on a pseudo-terminal, through a fault-injecting line both ways (corrupted and
/// dropped bytes, garbage bursts), does what an app does all day: plays random patterns, streams
/// dynamic parameters at 1 kHz, stores, lists and erases flash slots, and reconnects. It counts
/// operations and errors (the link must recover every injected fault, so 0), and compares the
/// process's resident memory and open descriptors after the first round of every operation (the
/// warm-up: caches and pools filled) with the end.
var soakSuite: Suite {
    Suite(
        name: "soak",
        summary: "random patterns, 1 kHz parameters, flash and reconnects for --minutes N over a faulty pty line"
    ) {
        try runBlocking { try await SoakBench(minutes: BenchOptions.current.minutes ?? 1).run() }
    }
}

final class SoakBench: @unchecked Sendable {
    let minutes: Double
    /// The line between host and board, each way: rare enough that the soak measures the engine, not
    /// a crawl, frequent enough that every minute has a few hundred faults to recover from.
    static let faults = FaultProfile(dropByte: 0.0005, corruptByte: 0.0005, garbageBurst: 0.0005)

    var operations = 0
    var errors: [String] = []
    /// Operations cut off because the engine stopped by itself meanwhile or just before (counted apart
    /// from errors).
    var cutOffByStops = 0
    /// Why the engine stopped by itself, in order.
    let stops = Locked<[String]>([])
    var worstStart = Duration.zero
    var worstStore = Duration.zero
    var worstParameter = Duration.zero

    init(minutes: Double) { self.minutes = minutes }

    func run() async throws -> [Metric] {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        var board = BoardConfiguration()
        board.line = .usb
        let server = try SimulatorServer(configuration: board, transport: terminal.controller)
        let serving = Task { try? await server.run() }
        defer { serving.cancel() }
        // The line of the current connection, and the faults of the lines before it (a list of
        // every line would itself grow over a long run).
        let lines = Locked<(current: FaultInjectingTransport<ContinuousClock>?, earlierFaults: Int)>((nil, 0))
        let seeds = Locked<UInt64>(0)
        let engine = HapticEngine(
            device: .path(terminal.devicePath), clock: SystemEngineClock(), simulator: board,
            open: {
                let line = try TermiosTransport.open(path: terminal.devicePath)
                let seed = seeds.withLock { seed -> UInt64 in
                    seed += 1
                    return seed
                }
                let faulty = try FaultInjectingTransport(
                    wrapping: line, outbound: Self.faults, inbound: Self.faults, seed: seed, clock: ContinuousClock())
                lines.withLock { lines in
                    lines.earlierFaults += lines.current.map(Self.faults(on:)) ?? 0
                    lines.current = faulty
                }
                return (faulty, nil)
            })
        let stops = self.stops
        await engine.setStoppedHandler { reason in stops.withLock { $0.append("\(reason)") } }
        try await engine.start()
        var rng = SeededGenerator(seed: 2026)
        let deadline = ContinuousClock.now + .seconds(minutes * 60)
        var warmedUp: (memory: Int, descriptors: Int)?
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            // What an app's stopped handler does: start again (the reasons are counted below).
            if !(await engine.isRunning) { await attempt("restart") { try await engine.start() } }
            await attempt("play") { try await self.playRandom(engine, using: &rng) }
            await attempt("parameters") { try await self.streamParameters(engine, for: .milliseconds(200)) }
            await attempt("flash") { try await self.flash(engine, slot: round % 4, using: &rng) }
            if round % 10 == 0 {
                await attempt("reconnect") {
                    await engine.stop()
                    try await engine.start()
                }
            }
            if warmedUp == nil && round == 10 {
                warmedUp = (Self.residentBytes(), Self.openDescriptors())
            }
        }
        let end = (memory: Self.residentBytes(), descriptors: Self.openDescriptors())
        await engine.stop()
        let start = warmedUp ?? end
        let injected = lines.withLock { $0.earlierFaults + ($0.current.map(Self.faults(on:)) ?? 0) }
        let stopReasons = stops.withLock { $0 }
        for error in errors.prefix(5) { print("# soak error: \(error)") }
        for (reason, count) in Dictionary(grouping: stopReasons, by: { $0 }).mapValues(\.count) {
            print("# soak: the engine stopped by itself \(count) times: \(reason)")
        }
        func ms(_ duration: Duration) -> Double {
            Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
        }
        return [
            Metric(name: "soak.minutes", value: minutes, unit: "min", goal: .none),
            Metric(name: "soak.operations", value: Double(operations), unit: "count", goal: .atLeast(1)),
            Metric(name: "soak.injected_faults", value: Double(injected), unit: "count", goal: .none),
            Metric(name: "soak.engine_stops", value: Double(stopReasons.count), unit: "count", goal: .none),
            Metric(name: "soak.operations_cut_off_by_stops", value: Double(cutOffByStops), unit: "count", goal: .none),
            Metric(name: "soak.errors", value: Double(errors.count), unit: "count", goal: .atMost(0)),
            Metric(name: "soak.rss_start_mb", value: Double(start.memory) / 1e6, unit: "MB", goal: .none),
            Metric(name: "soak.rss_end_mb", value: Double(end.memory) / 1e6, unit: "MB", goal: .none),
            Metric(
                name: "soak.rss_growth", value: Double(end.memory) / Double(max(1, start.memory)) - 1, unit: "share",
                goal: .atMost(0.05)),
            Metric(name: "soak.fds_start", value: Double(start.descriptors), unit: "count", goal: .none),
            Metric(
                name: "soak.fds_end", value: Double(end.descriptors), unit: "count",
                goal: .atMost(Double(start.descriptors))),
            Metric(name: "soak.worst_start_ms", value: ms(worstStart), unit: "ms", goal: .none),
            Metric(name: "soak.worst_flash_store_ms", value: ms(worstStore), unit: "ms", goal: .none),
            Metric(name: "soak.worst_parameter_send_ms", value: ms(worstParameter), unit: "ms", goal: .none),
        ]
    }

    /// Runs one operation, counting it, and its error if it throws.
    func attempt(_ what: String, _ body: () async throws -> Void) async {
        operations += 1
        let stopsBefore = stops.withLock { $0.count }
        do {
            try await body()
        } catch {
            // Cut off by a stop: one that came meanwhile, or one not yet restarted from (the
            // operation found the engine stopped).
            let stopped = (error as? HapticEngineError).map { if case .engineNotRunning = $0 { true } else { false } }
            if stops.withLock({ $0.count }) > stopsBefore || stopped == true {
                cutOffByStops += 1
            } else {
                errors.append("\(what): \(error)")
            }
        }
    }

    /// A random pattern, played from its start; stopped after 100 ms if still playing.
    func playRandom(_ engine: HapticEngine, using rng: inout SeededGenerator) async throws {
        let player = try await engine.makePlayer(with: HapticPattern.random(.short, using: &rng))
        let started = ContinuousClock.now
        try await player.start(atTime: HapticEngine.timeImmediate)
        worstStart = max(worstStart, ContinuousClock.now - started)
        try await Task.sleep(for: .milliseconds(100))
        try await player.stop(atTime: HapticEngine.timeImmediate)
    }

    /// A continuous event whose intensity follows 1,000 updates a second.
    func streamParameters(_ engine: HapticEngine, for length: Duration) async throws {
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1)]))
        try await player.start(atTime: HapticEngine.timeImmediate)
        let end = ContinuousClock.now + length
        var index = 0
        while ContinuousClock.now < end {
            index += 1
            let value = Float(0.2 + 0.6 * Double((index * 37) % 101) / 100)
            let sent = ContinuousClock.now
            try await player.sendRealtimeParameters([DynamicParameter(.hapticIntensityControl, value: value, time: 0)])
            worstParameter = max(worstParameter, ContinuousClock.now - sent)
            try await Task.sleep(until: sent + .milliseconds(1))
        }
        try await player.stop(atTime: HapticEngine.timeImmediate)
    }

    /// Stores a random pattern in `slot`, checks the board lists it, then erases it.
    func flash(_ engine: HapticEngine, slot: Int, using rng: inout SeededGenerator) async throws {
        let started = ContinuousClock.now
        try await engine.storeInFlash(HapticPattern.random(.short, using: &rng), slot: slot)
        worstStore = max(worstStore, ContinuousClock.now - started)
        guard try await engine.flashSlots().first(where: { $0.index == slot })?.isUsed == true else {
            throw SoakFailure(description: "slot \(slot) is not listed as used after storing it")
        }
        try await engine.eraseFlash(slot: slot)
    }

    /// Bytes and chunks the line dropped, corrupted or made up, both ways.
    static func faults(on line: FaultInjectingTransport<ContinuousClock>) -> Int {
        [line.outboundStatistics, line.inboundStatistics].reduce(0) {
            $0 + $1.chunksDropped + $1.bytesDropped + $1.bytesCorrupted + $1.chunksDuplicated + $1.garbageBursts
        }
    }

    /// This process's resident memory (`/proc/self/statm`, second field, in pages).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// Descriptors this process has open (`/proc/self/fd`).
    static func openDescriptors() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }
}

struct SoakFailure: Error, CustomStringConvertible {
    var description: String
}
