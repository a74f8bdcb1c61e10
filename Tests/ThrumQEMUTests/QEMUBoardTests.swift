import Foundation
import Testing
import ThrumModel
import ThrumQEMU
import ThrumSimulator
import ThrumTesting
import ThrumTimeline
import ThrumTransport

@testable import Thrum

/// The engine against the firmware ports under QEMU, each test on every port it applies to
/// (``QEMUPort``): the STM32F4 port on netduinoplus2 (its start-up, USART2 interrupt and polled TX,
/// SysTick and TIM5 clock, the RAM-backed slot flash and the software watchdog) and the nRF51 port,
/// the 16 KB budget build, on QEMU's micro:bit (UART0 with flow control, TIMER0, the NVMC's flash
/// slots); on both the DRV2605L driver, its register writes traced (USART1, semihosting) and read
/// back here with host timestamps. One QEMU per port for the suite; one engine per test.
///
/// Times: QEMU's virtual clock follows the host's (no -icount), so board times map to host times by
/// the engine's clock sync. A trace line is stamped when the reader (polling the log every 1 ms)
/// sees it: each timing check allows `timing` (25 ms) for that, QEMU's scheduling and the sync.
@Suite(
    "QEMU boards (the STM32F4 and micro:bit ports under qemu-system-arm)", .serialized, .enabled(if: QEMUHarness.runs))
struct QEMUBoardTests {
    /// What each port's QEMU image is configured with (its board.c).
    struct Expected {
        var firmware: String
        var timelineMemory: Int
        var flashSlots: Int
        /// The channel pan is compiled in (the budget build leaves it out).
        var pans: Bool
    }

    static func expected(_ port: QEMUPort) -> Expected {
        switch port {
        case .stm32f4: Expected(firmware: "stm32f4", timelineMemory: 32768, flashSlots: 2, pans: true)
        case .microbit: Expected(firmware: "nrf51", timelineMemory: 8192, flashSlots: 3, pans: false)
        }
    }

    static let ports = QEMUPort.allCases

    /// Allowed error of a time read from the trace against the time the timeline says.
    static let timing = 0.025

    static let examples =
        ((try? FileManager.default.contentsOfDirectory(atPath: Repository.url("Examples").path)) ?? [])
        .filter { $0.hasSuffix(".ahap") }.sorted()

    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.5)])
    static func hold(_ seconds: Double) -> HapticPattern {
        HapticPattern(events: [.continuous(at: 0, duration: seconds, intensity: 1, sharpness: 0.5)])
    }

    /// An engine started on the port's shared board (the STM32F4's four-channel mux board with `mux`),
    /// its line, and a trace reader from now on.
    static func connect(
        _ port: QEMUPort = .stm32f4, mux: Bool = false
    ) async throws -> (QEMUBoard, HapticEngine, TappedLine, ActuatorTrace) {
        let board = try await QEMUHarness.board(port, channels: mux ? .mux(4) : .single)
        let (engine, line) = await QEMUHarness.engine(board)
        let trace = ActuatorTrace(file: board.actuatorLog)
        try await QEMUHarness.within(.seconds(15), "engine start on \(board.devicePath)") { try await engine.start() }
        // Clock sync settles over its first pings (a burst of 8, then every 100 ms): right after the
        // handshake its estimate was seen off by more than a second on this board.
        let settled = await QEMUHarness.poll(.seconds(5)) { await engine.linkStatistics.pongsReceived >= 14 }
        let pongs = await engine.linkStatistics.pongsReceived
        #expect(settled, "clock sync: \(pongs) PONGs in 5 s")
        return (board, engine, line, trace)
    }

    /// Starts `player` `lead` seconds from now on the board's clock; the host instant that start
    /// maps to (by the engine's clock sync).
    static func scheduleStart(
        _ player: HapticPatternPlayer, on engine: HapticEngine, lead: Double = 0.25
    ) async throws -> ContinuousClock.Instant {
        let before = ContinuousClock.now
        let boardNow = await engine.currentTime
        let after = ContinuousClock.now
        let hostNow = before + (after - before) / 2
        try await player.start(atTime: boardNow + lead)
        return hostNow + .seconds(lead)
    }

    /// The engine's clock estimate in words, for a timing check's message: a board clock that runs off
    /// shows in the drift, a delay on one direction of the line in the bound.
    static func clockWords(_ engine: HapticEngine) async -> String {
        guard let estimate = await engine.clockEstimate else { return "no clock estimate" }
        return String(format: "clock drift %+.0f ppm, within %.2f ms", estimate.drift * 1e6, estimate.bound / 1000)
    }

    /// The RTP level (signed, -127…127) the trace shows at `instant`: the last write seen before it.
    static func level(_ writes: [ActuatorTrace.RegisterWrite], at instant: ContinuousClock.Instant) -> Int {
        writes.last { $0.seen <= instant }?.signedValue ?? 0
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("info: the port's capabilities reach the engine", arguments: ports)
    func info(_ port: QEMUPort) async throws {
        let (_, engine, _, _) = try await Self.connect(port)
        let expected = Self.expected(port)
        let capabilities = try #require(await engine.capabilities)
        #expect(capabilities.boardName == port.boardName)
        #expect(capabilities.firmware.contains(expected.firmware))
        #expect(capabilities.serialNumber == "qemu-0001")
        #expect(capabilities.tickRate == 1000)
        #expect(capabilities.timelineMemory == expected.timelineMemory)
        #expect(capabilities.flashSlots == expected.flashSlots)
        #expect(capabilities.keepAlive == .milliseconds(500))
        #expect(capabilities.channels.count == 1)
        await engine.stop()
    }

    /// Each example (its first 1.5 s for the long ones): RTP writes follow the firmware rendering of
    /// its timeline in time. Where the rendered intensity holds steady for ±15 ms the traced level is
    /// 0 where it is 0 and not 0 where it is above 0.05, the first non-zero write comes within
    /// `timing` of the first sounding tick, and where there are enough steady points the traced level
    /// correlates with the intensity (Pearson r ≥ 0.9).
    @Test(
        "each example plays: RTP writes follow the rendered intensity at the timeline's times", arguments: ports,
        examples)
    func example(_ port: QEMUPort, _ name: String) async throws {
        let pattern = try PatternFile.load(contentsOf: Repository.url("Examples/" + name))
        let window = min(pattern.duration, 1.5)
        let timeline = try TimelineCompiler.compile(pattern)
        let expected = try FirmwareRendering.render(timeline: timeline, seconds: window + 0.2).intensity
        let (_, engine, _, trace) = try await Self.connect(port)
        let events = engine.events
        let player = try await engine.makePlayer(with: pattern)
        let start = try await Self.scheduleStart(player, on: engine)
        if pattern.duration <= window {
            let finished = await events.first(within: .seconds(window + 10)) {
                if case .playerFinished(let id) = $0 { return id == player.id }
                return false
            }
            #expect(finished != nil, "\(name): no playerFinished")
        } else {
            _ = await QEMUHarness.poll(.seconds(window + 10)) { ContinuousClock.now > start + .seconds(window) }
            try await player.stop(atTime: 0)
        }
        // The level returns to 0 once the pattern ends.
        #expect(await QEMUHarness.poll(.seconds(2)) { Self.level(trace.rtpWrites, at: .now) == 0 })
        let link = await engine.linkStatistics
        #expect(link.retransmissions == 0, "\(name): \(link)")
        let clock = await Self.clockWords(engine)
        await engine.stop()
        let writes = trace.rtpWrites

        let ticks = min(expected.count, Int((pattern.duration <= window ? window + 0.15 : window) * 1000))
        if let first = expected.prefix(ticks).firstIndex(where: { $0 > 0.001 }) {
            let firstWrite = try #require(writes.first { $0.signedValue != 0 && $0.seen > start - .milliseconds(100) })
            let offset = Self.seconds(firstWrite.seen - start) - Double(first) / 1000
            #expect(
                abs(offset) <= Self.timing, "\(name): first RTP write \(offset * 1000) ms from the timeline's; \(clock)"
            )
        } else {
            #expect(writes.allSatisfy { $0.signedValue == 0 }, "\(name): silent, yet RTP writes")
        }
        var pairs: [(Double, Double)] = []
        var mismatches: [String] = []
        for t in stride(from: 15, to: ticks - 15, by: 2) {
            let around = expected[(t - 15)...(t + 15)]
            guard let low = around.min(), let high = around.max(), high - low < 0.03 else { continue }
            let level = Self.level(writes, at: start + .milliseconds(t))
            if high < 0.001, level != 0 { mismatches.append("\(t) ms: level \(level) where silent") }
            if low > 0.05 {
                if level == 0 { mismatches.append("\(t) ms: level 0 where intensity \(expected[t])") }
                pairs.append((Double(expected[t]), Double(level)))
            }
        }
        #expect(mismatches.count == 0, "\(name): \(mismatches.prefix(5)) (\(mismatches.count) in all)")
        let xs = pairs.map(\.0)
        let ys = pairs.map(\.1)
        if pairs.count >= 10, let spread = xs.max().flatMap({ max in xs.min().map { max - $0 } }), spread > 0.1 {
            let r = Self.pearson(xs, ys)
            #expect(r >= 0.9, "\(name): RTP level against rendered intensity r = \(r) over \(pairs.count) points")
        }
    }

    static func pearson(_ xs: [Double], _ ys: [Double]) -> Double {
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n
        let my = ys.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for (x, y) in zip(xs, ys) {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
            syy += (y - my) * (y - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    @Test("flash: store, list, read back byte for byte, play, erase", arguments: ports)
    func flash(_ port: QEMUPort) async throws {
        let pattern = try PatternFile.load(contentsOf: Repository.url("Examples/slice.ahap"))
        let compiled = try TimelineCompiler.compile(pattern)
        let (_, engine, _, trace) = try await Self.connect(port)
        try await engine.storeInFlash(pattern, slot: 1)
        let slots = try await engine.flashSlots()
        let slot = try #require(slots.first { $0.index == 1 })
        #expect(slot.isUsed && slot.size == compiled.count, "\(slots)")
        let read = try await engine.readFlash(slot: 1)
        #expect(read == compiled, "read back \(read.count) bytes, compiled \(compiled.count)")
        let events = engine.events
        let player = try await engine.playFlash(slot: 1)
        let finished = await events.first(within: .seconds(10)) {
            if case .playerFinished(let id) = $0 { return id == player }
            return false
        }
        #expect(finished != nil)
        #expect(trace.rtpWrites.contains { $0.signedValue > 0 }, "the slot played: RTP writes")
        try await engine.eraseFlash(slot: 1)
        #expect(try await engine.flashSlots().first { $0.index == 1 }?.isUsed == false)
        await engine.stop()
    }

    /// 9 s of back-to-back 1 ms buzzes whose intensity follows a 0.4 s triangle between 0.2 and 1:
    /// about 35 KB of timeline, more than either board's timeline memory (32 KB, 8 KB).
    static let large = HapticPattern(
        events: (0..<9000).map { index in
            let phase = Double(index % 400) / 400
            let intensity = Float(0.2 + 0.8 * (phase < 0.5 ? phase * 2 : (1 - phase) * 2))
            return .continuous(at: Double(index) * 0.001, duration: 0.001, intensity: intensity, sharpness: 0.5)
        })

    @Test(
        "a pattern larger than the board's timeline memory plays streamed, with no late piece and no gap",
        arguments: ports)
    func streamed(_ port: QEMUPort) async throws {
        let size = try TimelineCompiler.compile(Self.large).count
        #expect(size > Self.expected(port).timelineMemory, "the pattern compiles to \(size) bytes")
        let (_, engine, _, trace) = try await Self.connect(port)
        let events = engine.events
        let late = Locked(0)
        let watcher = Task {
            for await event in events {
                if case .late = event { late.withLock { $0 += 1 } }
            }
        }
        defer { watcher.cancel() }
        let player = try await engine.makePlayer(with: Self.large)
        let finished = Task {
            await engine.events.first(within: .seconds(40)) {
                if case .playerFinished(let id) = $0 { return id == player.id }
                return false
            }
        }
        try await player.start(atTime: HapticEngine.timeImmediate)
        #expect(await finished.value != nil, "the streamed pattern did not finish")
        let start = try #require(trace.rtpWrites.first { $0.signedValue != 0 }?.seen, "no RTP write")
        let statistics = await engine.statistics
        #expect(statistics.streamedPieces >= 3, "\(statistics)")
        #expect(late.withLock { $0 } == 0, "late pieces")
        // The level never drops to 0 while the pattern sounds (an underrun fades to 0).
        let writes = trace.rtpWrites
        let duration = Self.large.duration
        var silent: [Int] = []
        // The first write's stamp is the reference: 100 ms are left out at each end for its error.
        for t in stride(from: 100, to: Int(duration * 1000) - 100, by: 5)
        where Self.level(writes, at: start + .milliseconds(t)) == 0 {
            silent.append(t)
        }
        #expect(silent.count == 0, "silent at \(silent.prefix(10)) ms (\(silent.count) in all) of \(duration) s")
        await engine.stop()
    }

    @Test(
        "dynamic parameters: an intensity control scales the RTP level, and setting it back restores it",
        arguments: ports)
    func dynamicParameters(_ port: QEMUPort) async throws {
        let (_, engine, _, trace) = try await Self.connect(port)
        let player = try await engine.makeAdvancedPlayer(with: Self.hold(3))
        try await player.start(atTime: HapticEngine.timeImmediate)
        #expect(await QEMUHarness.poll(.seconds(3)) { Self.level(trace.rtpWrites, at: .now) > 0 })
        try await Task.sleep(for: .milliseconds(100))  // playing steadily
        let full = Self.level(trace.rtpWrites, at: .now)
        try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.3, time: 0)], atTime: 0)
        let lowered = await QEMUHarness.poll(.seconds(2)) {
            let level = Self.level(trace.rtpWrites, at: .now)
            return level > 0 && Double(level) < Double(full) * 0.5
        }
        let low = Self.level(trace.rtpWrites, at: .now)
        #expect(lowered, "full \(full), with intensity control 0.3: \(low)")
        #expect(Double(low) >= Double(full) * 0.15, "full \(full), with intensity control 0.3: \(low)")
        try await player.sendRealtimeParameters([DynamicParameter(.hapticIntensityControl, value: 1, time: 0)])
        #expect(await QEMUHarness.poll(.seconds(2)) { abs(Self.level(trace.rtpWrites, at: .now) - full) <= 2 })
        try await player.stop(atTime: 0)
        await engine.stop()
    }

    @Test("clock sync: starts scheduled 300 ms ahead land within 25 ms of the host time they map to", arguments: ports)
    func clockSync(_ port: QEMUPort) async throws {
        let (_, engine, _, trace) = try await Self.connect(port)
        let player = try await engine.makePlayer(with: Self.tap)
        var offsets: [Double] = []
        for _ in 0..<3 {
            let from = trace.rtpWrites.count
            let start = try await Self.scheduleStart(player, on: engine, lead: 0.3)
            let seen = await QEMUHarness.poll(.seconds(3)) {
                trace.rtpWrites.dropFirst(from).contains { $0.signedValue != 0 }
            }
            #expect(seen)
            guard let write = trace.rtpWrites.dropFirst(from).first(where: { $0.signedValue != 0 }) else { continue }
            offsets.append(Self.seconds(write.seen - start))
            _ = await QEMUHarness.poll(.seconds(2)) { Self.level(trace.rtpWrites, at: .now) == 0 }
        }
        let link = await engine.linkStatistics
        let clock = await Self.clockWords(engine)
        #expect(
            offsets.count == 3 && offsets.allSatisfy { abs($0) <= Self.timing },
            "offsets \(offsets) s; retransmissions \(link.retransmissions), PONGs \(link.pongsReceived); \(clock)")
        await engine.stop()
    }

    @Test("keep-alive: when the host falls silent the board fades to 0 within keep-alive + fade", arguments: ports)
    func keepAliveFade(_ port: QEMUPort) async throws {
        let (_, engine, line, trace) = try await Self.connect(port)
        let player = try await engine.makePlayer(with: Self.hold(5))
        try await player.start(atTime: HapticEngine.timeImmediate)
        #expect(await QEMUHarness.poll(.seconds(3)) { Self.level(trace.rtpWrites, at: .now) > 0 })
        let clock = await Self.clockWords(engine)
        line.setMuted(true)  // the host vanishes: nothing more reaches the board
        let silent = ContinuousClock.now
        // keep-alive 500 ms, fade 50 ms (the port's configuration), plus the trace's timing allowance
        let limit = 0.5 + 0.05 + 0.1
        let faded = await QEMUHarness.poll(.seconds(3)) {
            trace.rtpWrites.contains { $0.seen > silent && $0.signedValue == 0 }
        }
        #expect(faded, "no level 0 within 3 s of silence; before it, \(clock)")
        if let zero = trace.rtpWrites.first(where: { $0.seen > silent && $0.signedValue == 0 }) {
            let after = Self.seconds(zero.seen - silent)
            #expect(after <= limit, "level 0 after \(after) s of silence (limit \(limit) s)")
            #expect(after >= 0.2, "level 0 only \(after) s into the silence: not the keep-alive")
        }
        line.setMuted(false)
        await engine.stop()
    }

    @Test("a burst of garbage on the line: the board answers afterwards", arguments: ports)
    func garbage(_ port: QEMUPort) async throws {
        let (_, engine, line, trace) = try await Self.connect(port)
        var generator = SeededGenerator(seed: 12)
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try await line.inject(garbage)
        let slots = try await QEMUHarness.within(.seconds(10), "SLOT_LIST after garbage") {
            try await engine.flashSlots()
        }
        #expect(slots.count == Self.expected(port).flashSlots)
        let events = engine.events
        let player = try await engine.makePlayer(with: Self.tap)
        try await player.start(atTime: HapticEngine.timeImmediate)
        let finished = await events.first(within: .seconds(5)) {
            if case .playerFinished(let id) = $0 { return id == player.id }
            return false
        }
        #expect(finished != nil)
        #expect(trace.rtpWrites.contains { $0.signedValue > 0 })
        await engine.stop()
    }

    /// The budget build has no channel pan (THR_CHANNEL_PAN 0): a pan is refused with not_supported,
    /// while a player on a channel set (its locality) plays there all the same.
    @Test("a pan is answered not_supported where the build has none, while channel sets still play", arguments: ports)
    func panWithoutPan(_ port: QEMUPort) async throws {
        let (_, engine, _, trace) = try await Self.connect(port)
        let player = try await engine.makePlayer(with: Self.hold(2), locality: "0")
        try await player.start(atTime: HapticEngine.timeImmediate)
        #expect(
            await QEMUHarness.poll(.seconds(3)) { Self.level(trace.rtpWrites, at: .now) > 0 }, "played on channel 0")
        do {
            try await player.setPan(0.5, atTime: 0)
            #expect(Self.expected(port).pans, "a pan was accepted by a build without one")
        } catch let error as HapticEngineError {
            guard case .board(let status, _) = error else { throw error }
            #expect(!Self.expected(port).pans && status == .notSupported, "\(error)")
        }
        #expect(Self.level(trace.rtpWrites, at: .now) > 0, "the player plays on after the pan's answer")
        try await player.stop(atTime: 0)
        await engine.stop()
    }

    /// The micro:bit image only (its port paints the stack and reports its deepest reach once a second):
    /// after a flash store, a stream and every example have run, the stack has stayed inside the 2 KB
    /// its linker script keeps below the 16 KB of RAM.
    @Test("micro:bit: the stack stays inside the 2 KB the linker script keeps")
    func stackDepth() async throws {
        let (board, engine, _, _) = try await Self.connect(.microbit)
        try await engine.storeInFlash(try PatternFile.load(contentsOf: Repository.url("Examples/slice.ahap")), slot: 2)
        _ = try await engine.readFlash(slot: 2)
        try await engine.eraseFlash(slot: 2)
        await engine.stop()
        let whole = ActuatorTrace(file: board.actuatorLog, fromStart: true)
        defer { whole.stop() }
        let seen = await whole.wait(for: .seconds(3)) { !$0.stackMaxima.isEmpty }
        #expect(seen, "no `stack max` line")
        let deepest = whole.stackMaxima.max() ?? 0
        #expect(deepest > 0 && deepest <= 2048, "stack reached \(deepest) bytes")
    }

    /// The STM32F4 image only: QEMU models no nRF51 watchdog (the micro:bit port's runs on the host's
    /// register model, Firmware-ref/tests/nrf51).
    @Test("watchdog: a stalled main loop resets the board into a new epoch; the engine sees the reset and recovers")
    func watchdogReset() async throws {
        let (_, engine, line, trace) = try await Self.connect(.stm32f4)
        let events = engine.events
        let player = try await engine.makePlayer(with: Self.tap)
        try await player.start(atTime: HapticEngine.timeImmediate)
        try await line.inject(Array("THRUM-QEMU-STALL".utf8))
        #expect(await QEMUHarness.poll(.seconds(5)) { !trace.bootEpochs.isEmpty }, "no `boot epoch` line")
        let reset = await events.first(within: .seconds(10)) { $0 == .reset }
        #expect(reset != nil, "the engine did not report the reset")
        #expect(await !engine.isRunning)
        try await QEMUHarness.within(.seconds(15), "engine restart") { try await engine.start() }
        let finished = Task {
            await engine.events.first(within: .seconds(5)) {
                if case .playerFinished(let id) = $0 { return id == player.id }
                return false
            }
        }
        let from = trace.rtpWrites.count
        try await player.start(atTime: HapticEngine.timeImmediate)
        #expect(await finished.value != nil)
        #expect(trace.rtpWrites.dropFirst(from).contains { $0.signedValue > 0 }, "played after the reset")
        #expect(await engine.statistics.uploads == 2, "the reset board had lost the timeline; it was sent again")
        await engine.stop()
    }
}

/// `thrum sim --qemu [--board B]` as a child process: the first line is the pty, the board answers on
/// it, SIGINT stops QEMU and thrum exits 0.
@Suite("thrum sim --qemu", .enabled(if: QEMUHarness.runs))
struct SimQEMUCommandTests {
    @Test("prints the pty, serves the QEMU board, stops QEMU on SIGINT", arguments: QEMUPort.allCases)
    func simQEMU(_ port: QEMUPort) async throws {
        let thrum = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("thrum")
        let built = Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("thrum") }
        let executable = ([thrum] + built).first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let binary = try #require(executable, "thrum is not built beside the tests (swift build --build-tests)")
        let image = try await QEMUHarness.image(port)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-sim-qemu-\(getpid())-\(port).log")
        let process = Process()
        process.executableURL = binary
        // The STM32F4 as the default board (no --board), the micro:bit named.
        process.arguments =
            ["sim", "--qemu"] + (port == .stm32f4 ? [] : ["--board", port.rawValue])
            + ["--firmware", image.path, "--actuator-log", log.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var data = Data()
        while !data.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data += chunk
        }
        let path = String(decoding: data.prefix { $0 != 10 }, as: UTF8.self)
        #expect(path.hasPrefix("/dev/pts/"), "first line: \(path)")
        let engine = try HapticEngine(device: DeviceAddress(parsing: path))
        try await QEMUHarness.within(.seconds(15), "engine start") { try await engine.start() }
        #expect(await engine.capabilities?.boardName == port.boardName)
        await engine.stop()
        #expect(try String(contentsOf: log, encoding: .utf8).contains("boot epoch"))
        process.interrupt()
        let exited = await QEMUHarness.poll(.seconds(10)) { !process.isRunning }
        #expect(exited)
        #expect(process.terminationStatus == 0)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("stopped QEMU"), "\(stderr)")
    }
}
