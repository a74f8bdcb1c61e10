import Foundation
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// A simulated board on a pseudo-terminal that can be unplugged (its pty closes under the host)
/// and plugged in again at the same path: the host opens a symbolic link, as it would open
/// `/dev/thrum-…` made by udev, and plugging in points the link at a new pty. The flash is a file,
/// so the board keeps its slots across the unplug, as a real one does.
final class UnpluggableBoard: @unchecked Sendable {
    let folder: URL
    let path: String
    private let flashFile: URL
    private let configuration: BoardConfiguration
    private let state = Locked<(terminal: PseudoTerminal, serving: Task<Void, Never>)?>(nil)

    init(
        line: LineModel = LineModel(baudRate: 115_200), configure: (inout BoardConfiguration) -> Void = { _ in }
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-unplug-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("thrum-board").path
        flashFile = folder.appendingPathComponent("flash.bin")
        var configuration = BoardConfiguration()
        configuration.line = line
        configure(&configuration)
        self.configuration = configuration
        try plugIn()
    }

    deinit {
        state.value?.serving.cancel()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A fresh board process on a new pty, reached through the same path.
    func plugIn() throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        let server = try SimulatorServer(
            configuration: configuration, transport: terminal.controller, flashFile: flashFile)
        let serving = Task<Void, Never> { try? await server.run() }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: terminal.devicePath)
        state.set((terminal, serving))
    }

    /// Pulls the cable: the board stops and its end of the pty closes.
    func unplug() async {
        guard let (terminal, serving) = state.value else { return }
        state.set(nil)
        serving.cancel()
        await terminal.controller.close()
    }
}

@Suite("A board unplugged while work is in flight", .serialized)
struct UnplugInFlightTests {
    /// A pattern whose timeline is several kilobytes: at 115,200 baud its upload takes a few
    /// hundred milliseconds, long enough to pull the cable part-way.
    static let large = HapticPattern(
        events: (0..<400).map { index in
            .transient(at: Double(index) * 0.01, intensity: Float(index % 10) / 10 + 0.05, sharpness: 0.5)
        })

    /// A streamed pattern: more events than the board's timeline memory holds at once.
    static func longer(than memory: Int) -> HapticPattern {
        HapticPattern(
            events: (0..<(memory * 2)).map { index in
                .transient(at: Double(index) * 0.005, intensity: Float(index % 10) / 10 + 0.05, sharpness: 0.5)
            })
    }

    /// An engine on `board` whose stopped handler records into `reasons`.
    static func engine(on board: UnpluggableBoard, reasons: Recorder<StoppedReason>) async throws -> HapticEngine {
        let engine = try HapticEngine(device: DeviceAddress(parsing: board.path))
        await engine.setStoppedHandler { reasons.append($0) }
        try await engine.start()
        return engine
    }

    /// Waits (with a deadline, never a fixed sleep) until `condition` holds.
    static func eventually(
        within limit: Duration = .seconds(10), _ what: String, _ condition: () async -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw SimulatorError("not within \(limit): \(what)") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    static func expectDeviceLost(_ reasons: Recorder<StoppedReason>, board: UnpluggableBoard) async throws {
        try await eventually("the stopped handler ran") { !reasons.values.isEmpty }
        guard case .deviceLost(let error)? = reasons.values.first else {
            Issue.record("stopped for \(reasons.values), not deviceLost")
            return
        }
        #expect("\(error)".contains(board.path), "names the device: \(error)")
    }

    @Test(
        "a flash store cut off names the device and the slot, which keeps what it held; once plugged in again the store works"
    )
    func flashStore() async throws {
        let board = try UnpluggableBoard()
        let reasons = Recorder<StoppedReason>()
        let engine = try await Self.engine(on: board, reasons: reasons)
        let unplugging = Locked<Task<Void, Never>?>(nil)
        let error = await #expect(throws: HapticEngineError.self) {
            try await engine.storeInFlash(Self.large, slot: 1) { sent, total in
                guard sent > total / 4, unplugging.value == nil else { return }
                unplugging.set(Task { await board.unplug() })
            }
        }
        await unplugging.value?.value
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains(board.path), "names the device: \(text)")
        #expect(text.contains("slot 1"), "names what was lost: \(text)")
        try await Self.expectDeviceLost(reasons, board: board)

        try board.plugIn()
        try await engine.start()
        #expect(try await engine.flashSlots().first { $0.index == 1 }?.isUsed == false, "nothing half-written")
        try await engine.storeInFlash(Self.large, slot: 1)
        let stored = try await engine.readFlash(slot: 1)
        #expect(stored == (try HapticEngine.compile(Self.large).bytes))
        await engine.stop()
    }

    @Test("a streamed pattern cut off names the device and how much did not play; once plugged in again it plays")
    func streamedPattern() async throws {
        let board = try UnpluggableBoard(line: .usb) { $0.timelineMemory = 4096 }
        let reasons = Recorder<StoppedReason>()
        let engine = try await Self.engine(on: board, reasons: reasons)
        let memory = try #require(await engine.capabilities?.timelineMemory)
        let pattern = Self.longer(than: memory)
        let player = try await engine.makePlayer(with: pattern)
        try await player.start(atTime: HapticEngine.timeImmediate)
        try await Self.eventually("a second piece was uploaded") { await engine.statistics.uploads >= 2 }
        await board.unplug()
        try await Self.expectDeviceLost(reasons, board: board)
        guard case .deviceLost(let error)? = reasons.values.first else { return }
        #expect("\(error)".contains("streamed"), "says what was lost: \(error)")
        await #expect(throws: HapticEngineError.self) { try await player.start(atTime: 0) }

        try board.plugIn()
        try await engine.start()
        let again = try await engine.makePlayer(with: Self.large)
        try await again.start(atTime: HapticEngine.timeImmediate)
        await engine.stop()
    }

    @Test("dynamic parameters sent after the unplug fail naming the device; once plugged in again they are sent")
    func dynamicParameters() async throws {
        let board = try UnpluggableBoard(line: .usb)
        let reasons = Recorder<StoppedReason>()
        let engine = try await Self.engine(on: board, reasons: reasons)
        let continuous = HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1)])
        let player = try await engine.makeAdvancedPlayer(with: continuous)
        try await player.start(atTime: HapticEngine.timeImmediate)
        let update = [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)]
        for _ in 0..<100 { try await player.sendRealtimeParameters(update) }
        let unplugging = Task { await board.unplug() }
        var failure: (any Error)?
        // Parameters stream on while the cable goes: every call returns, and once the engine
        // knows, each one fails naming the device.
        for _ in 0..<100_000 where failure == nil {
            do { try await player.sendRealtimeParameters(update) } catch { failure = error }
            await Task.yield()
        }
        await unplugging.value
        let text = "\(try #require(failure))"
        #expect(text.contains(board.path), "names the device: \(text)")
        #expect(text.contains("dynamic parameters"), "says what was lost: \(text)")
        try await Self.expectDeviceLost(reasons, board: board)

        try board.plugIn()
        try await engine.start()
        let again = try await engine.makeAdvancedPlayer(with: continuous)
        try await again.start(atTime: HapticEngine.timeImmediate)
        try await again.sendRealtimeParameters(update)
        await engine.stop()
    }
}

@Suite("A board used by one host run after another")
struct SuccessiveHostTests {
    /// Each `thrum play` is a new host session on the same board: what the last one left loaded
    /// must not fill the board's memory for the next (PROTOCOL.md §4.1).
    @Test("a new engine on the same board finds its whole timeline memory free")
    func memoryIsFreeForTheNextHost() async throws {
        let board = try UnpluggableBoard(line: .usb) { $0.timelineMemory = 1024 }
        for run in 0..<3 {
            let engine = try HapticEngine(device: DeviceAddress(parsing: board.path))
            try await engine.start()
            // Most of the memory, and a different pattern each run (nothing to find in a cache).
            let pattern = HapticPattern(
                events: (0..<260).map { index in
                    .transient(
                        at: Double(index) * 0.001, intensity: Float((index + run) % 10) / 10 + 0.05,
                        sharpness: Float(index % 7) / 7)
                })
            #expect((513...1024).contains(try HapticEngine.compile(pattern).bytes.count))
            let player = try await engine.makePlayer(with: pattern)
            try await player.start(atTime: HapticEngine.timeImmediate)
            await engine.stop()
        }
    }
}
