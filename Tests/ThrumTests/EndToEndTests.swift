import Foundation
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// One end-to-end scenario, run against the in-process simulator, against `thrum sim --pty` in a
/// child process (termios transport, real time), and against the simulator behind a line that
/// drops, corrupts, duplicates and garbles bytes in both directions.
@Suite("End to end")
struct EndToEndTests {
    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.7)])
    static let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.15, intensity: 0.6, sharpness: 0.2)])

    /// Start, read capabilities, play a pattern to its end, play a cached one twice, send
    /// parameters to a playing player, stop.
    static func scenario(
        _ engine: HapticEngine, drive: (@escaping @Sendable () async throws -> Void) async throws -> Void
    ) async throws {
        try await drive { try await engine.start() }
        let capabilities = try #require(await engine.capabilities)
        #expect(capabilities.boardName == "thrum simulator")
        let buzz = try await engine.makePlayer(with: Self.buzz)
        let tap = try await engine.makeAdvancedPlayer(with: Self.tap)
        let events = engine.events
        try await drive {
            try await buzz.start(atTime: HapticEngine.timeImmediate)
            try await buzz.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 0)
            for await event in events {
                if case .playerFinished(let id) = event, id == buzz.id { break }
            }
            try await tap.start(atTime: 0)
            try await tap.start(atTime: 0)
        }
        let statistics = await engine.statistics
        #expect(statistics.uploads == 2)
        #expect(statistics.cacheHits == 1)
        try await drive { await engine.stop() }
        #expect(await !engine.isRunning)
    }

    @Test("against the in-process simulator on a manual clock")
    func inProcess() async throws {
        let clock = ManualClock()
        try await Self.scenario(HapticEngine(manualClock: clock)) { body in try await withVirtualTime(clock, body) }
    }

    @Test("against `thrum sim --pty` in a child process, through the termios transport")
    func childProcessPty() async throws {
        let simulator = try SimulatorProcess.launch()
        defer { simulator.terminate() }
        let engine = try HapticEngine(device: DeviceAddress(parsing: simulator.devicePath))
        try await Self.scenario(engine) { body in try await body() }
        #expect(
            await engine.capabilities?.keepAlive == .seconds(10),
            "thrum sim --keep-alive 10000 reaches the board's INFO")
    }

    @Test("through a line with loss, corruption, duplicates and garbage both ways", arguments: [1, 2, 3] as [UInt64])
    func faultyLine(seed: UInt64) async throws {
        let clock = ManualClock()
        let faults = FaultProfile(dropChunk: 0.05, corruptByte: 0.01, duplicateChunk: 0.02, garbageBurst: 0.02)
        let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
        let faulty = try FaultInjectingTransport(
            wrapping: host, outbound: faults, inbound: faults, seed: seed, clock: clock)
        let server = try SimulatorServer(configuration: BoardConfiguration(), transport: board)
        let engine = HapticEngine(manualClock: clock) { (faulty, Task { try? await server.run(on: clock) }) }
        try await Self.scenario(engine) { body in try await withVirtualTime(clock, limit: .seconds(120), body) }
        // The line really misbehaved, both ways.
        let (outbound, inbound) = (faulty.outboundStatistics, faulty.inboundStatistics)
        #expect(
            outbound.chunksDropped + outbound.bytesCorrupted + outbound.chunksDuplicated + outbound.garbageBursts > 0,
            "\(outbound)")
        #expect(
            inbound.chunksDropped + inbound.bytesCorrupted + inbound.chunksDuplicated + inbound.garbageBursts > 0,
            "\(inbound)")
    }
}

/// `thrum sim --pty` as a child process: the binary built beside the test bundle.
struct SimulatorProcess {
    let process: Process
    let devicePath: String

    /// `thrum sim --pty` with `arguments` added (`--memory 256`, `--baud 115200`). Its keep-alive
    /// is 10 s unless `arguments` set one: on a loaded machine the host's keep-alive thread can
    /// miss the default 500 ms, and no test of a child process is about the keep-alive.
    static func launch(_ arguments: [String] = []) throws -> SimulatorProcess {
        let arguments = arguments.contains("--keep-alive") ? arguments : arguments + ["--keep-alive", "10000"]
        guard FileManager.default.isExecutableFile(atPath: builtThrum.path) else {
            throw SimulatorProcessError("\(builtThrum.path) is not built (swift build --build-tests builds it)")
        }
        let process = Process()
        process.executableURL = builtThrum
        process.arguments = ["sim", "--pty"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the pty's path; the child prints it before serving.
        var data = Data()
        while !data.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw SimulatorProcessError("thrum sim --pty ended without printing its path") }
            data += chunk
        }
        let line = String(decoding: data.prefix { $0 != 10 }, as: UTF8.self)
        return SimulatorProcess(process: process, devicePath: line)
    }

    func terminate() {
        process.interrupt()  // SIGINT: it stops cleanly
        process.waitUntilExit()
    }
}

struct SimulatorProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
