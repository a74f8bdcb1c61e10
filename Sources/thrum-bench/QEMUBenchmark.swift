import Foundation
import Subprocess
import Thrum
import ThrumQEMU
import ThrumTesting

/// `thrum-bench qemu`: the STM32F4 firmware port under qemu-system-arm (netduinoplus2); with
/// `--board microbit` the nRF51 port instead (MicrobitBenchmark.swift).
/// - instructions per 1 ms tick with 16 events sounding (`make qemu-bench`'s image under
///   `-icount shift=0`; target 1,500, goal 1,000; all ramping 2,000), its split into a cost per
///   event and a fixed one, and the same for a Cortex-M0+ image (`MCU=m0plus`; target 2,500,
///   goal 1,500; all ramping 3,500);
/// - the worst tick (instructions of a poll that rendered one tick, the port's `tick max N` lines)
///   while a pattern larger than the board's memory plays streamed, its pieces uploading, under
///   `-icount shift=0` (target: half a 1 ms tick at 84 MHz, 42,000);
/// - flash and static RAM of the QEMU image and the Nucleo-F401RE image (`arm-none-eabi-size -A`);
/// - PLAYER_START to the first RTP write: host-clock time from just before `start(atTime: 0)`
///   (the engine sends PLAYER_START) to the moment a reader polling the USART1 log every 1 ms sees
///   the first `i2c 5a 02 VV` line with VV ≠ 0; the pattern is already on the board (cached), 20
///   starts, median and worst.
var qemuSuite: Suite {
    Suite(
        name: "qemu",
        summary:
            "a port under QEMU (--board stm32f4, the default, or microbit): instructions per tick, image sizes, start-to-RTP latency"
    ) {
        if let missing = QEMUTools.missing().first { throw QEMUBoardError(missing) }
        let name = BenchOptions.current.board ?? QEMUPort.stm32f4.rawValue
        guard let port = QEMUPort(rawValue: name) else {
            throw QEMUBoardError(
                "--board \(name): must be \(QEMUPort.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        switch port {
        case .stm32f4: return try runBlocking { try await QEMUBench().run() }
        case .microbit: return try runBlocking { try await MicrobitBench().run() }
        }
    }
}

struct QEMUBench {
    func run() async throws -> [Metric] {
        var metrics: [Metric] = []
        metrics += try await tickInstructions()
        metrics += try await imageSizes()
        metrics += try await streamingWorstTick()
        metrics += try await startLatency()
        return metrics
    }

    /// `make qemu-bench`'s images, run as the Makefile runs them, their METRIC lines parsed: the
    /// Cortex-M4 port build (every file at -Os) and the Cortex-M0+ image built with the core's
    /// size-budget flags (`MCU=m0plus`), which the same board runs. 16 events steady and all
    /// ramping (attack or decay), and the split into a cost per sounding event and a fixed one.
    func tickInstructions() async throws -> [Metric] {
        let m4 = try await Self.benchFigures(
            image: QEMUFirmware.ensureImage(bench: true), prefix: "qemu_tick_instructions")
        let m0 = try await Self.benchFigures(image: Self.m0plusBenchImage(), prefix: "qemu_m0plus_tick_instructions")
        func figure(
            _ figures: [String: (max: Double, mean: Double)], _ name: String
        ) throws -> (max: Double, mean: Double) {
            guard let value = figures[name] else { throw QEMUBoardError("no METRIC line \(name) from the bench image") }
            return value
        }
        var metrics: [Metric] = []
        // Targets and goals as issue 22 states them (bench.c's budgets are the same figures).
        let cores = [("", m4, 1500.0, 2000.0, "goal_1000"), ("m0plus_", m0, 2500.0, 3500.0, "goal_1500")]
        for (label, figures, steady, ramping, goal) in cores {
            let sixteen = try figure(figures, "16_events"), ramp = try figure(figures, "16_events_ramping")
            metrics += [
                Metric(
                    name: "qemu.\(label)tick_instructions_16_events_max.\(goal)", value: sixteen.max,
                    unit: "instructions",
                    goal: .atMost(steady)),
                Metric(
                    name: "qemu.\(label)tick_instructions_16_events_mean", value: sixteen.mean, unit: "instructions",
                    goal: .atMost(steady)),
                Metric(
                    name: "qemu.\(label)tick_instructions_16_events_ramping_max", value: ramp.max, unit: "instructions",
                    goal: .atMost(ramping)),
                Metric(
                    name: "qemu.\(label)tick_instructions_per_event", value: try figure(figures, "per_event").mean,
                    unit: "instructions", goal: .none),
                Metric(
                    name: "qemu.\(label)tick_instructions_fixed", value: try figure(figures, "fixed").mean,
                    unit: "instructions", goal: .none),
            ]
        }
        return metrics
    }

    /// The bench image's METRIC lines (`METRIC <prefix>_<name> max=M mean=N ...`) by name.
    static func benchFigures(
        image: URL, prefix: String, port: QEMUPort = .stm32f4
    ) async throws -> [String: (max: Double, mean: Double)] {
        let result = try await Subprocess.run(
            .name("qemu-system-arm"), arguments: Arguments(port.benchArguments(image: image)),
            output: .string(limit: 1 << 20), error: .string(limit: 1 << 20))
        // USART1 on stdout (STM32F4), semihosting on stderr (micro:bit)
        let output = result.standardOutput + result.standardError
        var figures: [String: (max: Double, mean: Double)] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("METRIC \(prefix)_") {
            let words = line.split(separator: " ")
            guard words.count > 1, let max = field(line, "max"), let mean = field(line, "mean") else { continue }
            figures[String(words[1].dropFirst(prefix.count + 1))] = (max, mean)
        }
        if figures.isEmpty {
            throw QEMUBoardError("no METRIC line from the bench image (\(result.terminationStatus)): \(output)")
        }
        return figures
    }

    /// The Cortex-M0+ bench image (`make QEMU=1 BENCH=1 MCU=m0plus`).
    static func m0plusBenchImage() async throws -> URL {
        try await QEMUFirmware.make(
            .stm32f4, ["QEMU=1", "BENCH=1", "MCU=m0plus"], image: "build/thrum-qemu-bench-m0plus.elf")
    }

    static func field(_ line: Substring, _ name: String) -> Double? {
        line.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// Flash and static RAM of both images, as the port's Makefile counts them (RAM without the 4 KB stack).
    func imageSizes() async throws -> [Metric] {
        let qemu = try await QEMUFirmware.ensureImage()
        let nucleo = try await Self.nucleoImage()
        let (qemuFlash, qemuRAM) = try await QEMUFirmware.size(of: qemu)
        let (nucleoFlash, nucleoRAM) = try await QEMUFirmware.size(of: nucleo)
        return [
            // Sectors 0-3 hold the image (stm32f401re.ld); 96 KB of RAM less the 4 KB stack.
            Metric(name: "qemu.nucleo_f401re_flash", value: Double(nucleoFlash), unit: "bytes", goal: .atMost(65536)),
            Metric(
                name: "qemu.nucleo_f401re_static_ram", value: Double(nucleoRAM), unit: "bytes", goal: .atMost(94208)),
            Metric(name: "qemu.qemu_image_flash", value: Double(qemuFlash), unit: "bytes", goal: .none),
            Metric(name: "qemu.qemu_image_static_ram", value: Double(qemuRAM), unit: "bytes", goal: .none),
        ]
    }

    /// The Nucleo board image, brought up to date with a plain `make` in the port's folder.
    static func nucleoImage() async throws -> URL {
        try await QEMUFirmware.make(.stm32f4, [], image: "build/thrum-nucleo-f401re.elf")
    }

    /// 9 s of back-to-back 1 ms buzzes (about 35 KB of timeline against the board's 32 KB).
    static let large = HapticPattern(
        events: (0..<9000).map { index in
            let phase = Double(index % 400) / 400
            let intensity = Float(0.2 + 0.8 * (phase < 0.5 ? phase * 2 : (1 - phase) * 2))
            return .continuous(at: Double(index) * 0.001, duration: 0.001, intensity: intensity, sharpness: 0.5)
        })

    static func board(
        _ port: QEMUPort = .stm32f4, icount: Bool
    ) async throws -> (QEMUBoard, HapticEngine, ActuatorTrace) {
        let image = try await QEMUFirmware.ensureImage(port)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-bench-qemu-\(ProcessInfo.processInfo.processIdentifier)-\(port)-\(icount ? "icount" : "real").log")
        let board = try await QEMUBoard.launch(
            port: port, firmware: image, actuatorLog: log, extraArguments: icount ? ["-icount", "shift=0"] : [])
        let trace = ActuatorTrace(file: log, fromStart: true)
        let engine = try HapticEngine(device: .path(board.devicePath))
        do {
            try await engine.start()
        } catch {
            await board.terminate()
            throw error
        }
        // Clock sync's first burst and a few regular pings.
        let deadline = ContinuousClock.now + .seconds(5)
        while await engine.linkStatistics.pongsReceived < 14, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return (board, engine, trace)
    }

    /// The port's running maximum (`tick max N`, every 1,000 ticks) before and after a streamed pattern.
    func streamingWorstTick() async throws -> [Metric] {
        let (board, engine, trace) = try await Self.board(icount: true)
        defer { trace.stop() }
        let player = try await engine.makePlayer(with: Self.large)
        // A `tick max` line after the boot's, before the stream starts.
        let deadline = ContinuousClock.now + .seconds(5)
        while trace.tickMaxima.count < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let before = trace.tickMaxima.last ?? 0
        let events = engine.events
        let finished = Task {
            await events.first(within: .seconds(60)) { $0 == .playerFinished(player: player.id) } != nil
        }
        try await player.start(atTime: HapticEngine.timeImmediate)
        let done = await finished.value
        let pieces = await engine.statistics.streamedPieces
        let seen = trace.tickMaxima.count
        let more = ContinuousClock.now + .seconds(3)
        while trace.tickMaxima.count == seen, ContinuousClock.now < more {
            try await Task.sleep(for: .milliseconds(20))
        }
        let after = trace.tickMaxima.last ?? 0
        await engine.stop()
        await board.terminate()
        guard done, pieces >= 2 else {
            throw QEMUBoardError("the streamed pattern did not play to its end (finished: \(done), pieces: \(pieces))")
        }
        return [
            Metric(name: "qemu.worst_tick_instructions_idle", value: Double(before), unit: "instructions", goal: .none),
            Metric(
                name: "qemu.worst_tick_instructions_streaming_\(pieces)_pieces", value: Double(after),
                unit: "instructions", goal: .atMost(42000)),
        ]
    }

    /// PLAYER_START (cached pattern, at once) to the first non-zero RTP write in the trace.
    func startLatency(_ port: QEMUPort = .stm32f4, prefix: String = "qemu") async throws -> [Metric] {
        let (board, engine, trace) = try await Self.board(port, icount: false)
        defer { trace.stop() }
        let player = try await engine.makePlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 0.03, intensity: 1, sharpness: 0.5)]))
        try await player.start(atTime: HapticEngine.timeImmediate)  // uploads; not measured
        var latencies: [Double] = []
        for _ in 0..<21 {
            // Silent again, then a start.
            let quiet = ContinuousClock.now + .seconds(2)
            while trace.rtpWrites.last?.signedValue ?? 0 != 0, ContinuousClock.now < quiet {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await Task.sleep(for: .milliseconds(50))
            let from = trace.rtpWrites.count
            let sent = ContinuousClock.now
            try await player.start(atTime: HapticEngine.timeImmediate)
            let limit = ContinuousClock.now + .seconds(2)
            var seen: ContinuousClock.Instant?
            while seen == nil, ContinuousClock.now < limit {
                seen = trace.rtpWrites.dropFirst(from).first { $0.signedValue != 0 }?.seen
                if seen == nil { try await Task.sleep(for: .milliseconds(1)) }
            }
            guard let seen else { continue }
            let elapsed = seen - sent
            latencies.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        await engine.stop()
        await board.terminate()
        latencies = Array(latencies.dropFirst()).sorted()  // the first start after the upload is left out
        guard !latencies.isEmpty else { throw QEMUBoardError("no RTP write followed any start") }
        return [
            Metric(
                name: "\(prefix).player_start_to_first_rtp_write_median", value: latencies[latencies.count / 2],
                unit: "ms",
                goal: .atMost(10)),
            Metric(
                name: "\(prefix).player_start_to_first_rtp_write_worst_of_\(latencies.count)", value: latencies.last!,
                unit: "ms", goal: .atMost(50)),
        ]
    }
}
