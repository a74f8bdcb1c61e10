import Foundation
import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTimeline
import ThrumTransport

@testable import Thrum

/// Patterns larger than the board's timeline memory play streamed, piece by piece (PROTOCOL.md §5.4).
@Suite("Streaming patterns larger than the board's memory")
struct StreamingTests {
    /// 300 events over about 3 s: some 1.9 KB of timeline.
    static let long = SyntheticAHAP.pattern(events: 300, seed: 11)
    /// 100 back-to-back 50 ms buzzes at full intensity: 5 s.
    static let buzzes = HapticPattern(
        events: (0..<100).map { .continuous(at: Double($0) * 0.05, duration: 0.05, intensity: 1, sharpness: 0.5) })

    /// An engine on a simulated board with `memory` bytes of timeline memory behind a UART.
    static func board(memory: Int, baud: Int = 115_200) throws -> (HapticEngine, TraceTap, ManualClock) {
        var configuration = BoardConfiguration()
        configuration.timelineMemory = memory
        configuration.line = LineModel(baudRate: baud)
        return try tappedBoard(configuration, lineRate: baud)
    }

    @Test(
        "a pattern four times the board's memory plays at 115,200 baud exactly as the whole would, with no late piece")
    func streamedPlaybackRendersAsTheWhole() async throws {
        let whole = try TimelineCompiler.compile(Self.long)
        let memory = whole.count / 4
        let (engine, tap, clock) = try Self.board(memory: memory)
        let events = engine.events
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: Self.long)
        let watcher = Task { await Self.lateAndFinished(events) }
        try await withVirtualTime(clock) { try await player.start(atTime: HapticEngine.timeImmediate) }
        let (late, finished) = try await withVirtualTime(clock) { await watcher.value }
        #expect(late.isEmpty, "pieces started late by \(late) s: an underrun")
        #expect(finished == [player.id])
        let statistics = await engine.statistics
        #expect(statistics.streamedPieces >= 6, "\(statistics)")

        // The board's output from the first sounding tick on equals the whole pattern's.
        let expected = try FirmwareRendering.render(
            timeline: whole, seconds: Double(try TimelineDecoder.decode(whole).duration) / 1000 + 0.5)
        let ticks = tap.ticks.filter { $0.channel == 0 }
        let firstExpected = try #require(expected.intensity.firstIndex { $0 > 0 })
        let firstPlayed = try #require(ticks.firstIndex { $0.intensity > 0 })
        var compared = 0
        for index in firstExpected..<expected.intensity.count {
            let played = firstPlayed + index - firstExpected
            guard played < ticks.count else { break }
            #expect(Float(ticks[played].intensity) == expected.intensity[index], "tick \(index): \(ticks[played])")
            #expect(Float(ticks[played].sharpness) == expected.sharpness[index], "tick \(index): \(ticks[played])")
            compared += 1
            if compared > 50, Float(ticks[played].intensity) != expected.intensity[index] { break }
        }
        #expect(compared > 2500)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("run-time controls sent once hold across every piece; a stop ends the stream at once")
    func runtimeControlsCarryOverAndStopEnds() async throws {
        let memory = try TimelineCompiler.compile(Self.buzzes).count / 4
        let (engine, tap, clock) = try Self.board(memory: memory)
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makeAdvancedPlayer(with: Self.buzzes)
        try await withVirtualTime(clock) {
            try await player.start(atTime: HapticEngine.timeImmediate)
            try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 0)
        }
        await advance(clock, by: .seconds(3))
        #expect(await engine.statistics.streamedPieces >= 3)
        let late = tap.ticks.suffix(500)
        #expect(late.allSatisfy { abs($0.intensity - 0.5) < 0.01 }, "the last 0.5 s: \(Set(late.map(\.intensity)))")

        // Transport controls need the whole pattern on the board.
        await #expect(throws: HapticEngineError.self) {
            try await withVirtualTime(clock) { try await player.seek(toOffset: 1) }
        }

        try await withVirtualTime(clock) { try await player.stop(atTime: HapticEngine.timeImmediate) }
        await advance(clock, by: .milliseconds(50))
        let pieces = await engine.statistics.streamedPieces
        await advance(clock, by: .seconds(1))
        #expect(tap.ticks.suffix(900).allSatisfy { $0.intensity == 0 })
        #expect(await engine.statistics.streamedPieces == pieces, "no piece is sent after the stop")
        #expect(await engine.nothingPlaying)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("on a line too slow for the pattern, late pieces are reported and the pattern still finishes")
    func underrunsAreReportedAndPlaybackGoesOn() async throws {
        let memory = try TimelineCompiler.compile(Self.long).count / 4
        let (engine, _, clock) = try Self.board(memory: memory, baud: 9_600)
        let events = engine.events
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: Self.long)
        let watcher = Task { await Self.lateAndFinished(events) }
        try await withVirtualTime(clock) { try await player.start(atTime: HapticEngine.timeImmediate) }
        // The limit only guards against a hang: on a loaded machine the clock's fixed yields let virtual
        // time run ahead of tasks that have not been scheduled yet (one run of ten went past 60 s).
        let (late, finished) = try await withVirtualTime(clock, limit: .seconds(300)) { await watcher.value }
        #expect(!late.isEmpty, "at 9,600 baud some pieces cannot arrive in time")
        #expect(finished == [player.id])
        #expect(await engine.nothingPlaying)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a pattern too dense to cut for the board's memory is refused, saying where and how much")
    func tooDenseIsRefused() async throws {
        // 40 events sounding together at 0.5 s, each its own shape.
        let pattern = HapticPattern(
            events: (0..<40).map { .continuous(at: 0.5, duration: 1, intensity: Float($0) / 40, sharpness: 0.5) })
        let (engine, _, clock) = try Self.board(memory: 100)
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: pattern)
        do {
            try await withVirtualTime(clock) { try await player.start(atTime: 0) }
            Issue.record("the start should have failed")
        } catch let error as HapticEngineError {
            #expect(error.code == -4899)
            #expect("\(error)".contains("larger than the board's timeline memory (100 bytes)"), "\(error)")
            #expect("\(error)".contains("at 0.500 s"), "\(error)")
        }
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("thrum play streams a pattern larger than a pty board's memory, says so, and returns when it is done")
    func playCommandStreams() async throws {
        // Short (about 0.9 s, 337 bytes): the real-time run is kept brief on a busy machine.
        let simulator = try SimulatorProcess.launch(["--memory", "256"])
        defer { simulator.terminate() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-stream-\(UUID().uuidString).ahap")
        try SyntheticAHAP.make(events: 60, seed: 11).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await runThrumProcess(["play", file.path, "--device", simulator.devicePath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("more than the board's 256 bytes of timeline memory: streamed in pieces"),
            "\(result.stdout)")
        #expect(result.stdout.contains("done in"), "\(result.stdout)")
    }

    /// The late reports until the first player finishes, and that player.
    static func lateAndFinished(_ events: AsyncStream<HapticEngineEvent>) async -> ([Double], [Int]) {
        var late: [Double] = []
        for await event in events {
            switch event {
            case .late(let seconds): late.append(seconds)
            case .playerFinished(let id): return (late, [id])
            default: continue
            }
        }
        return (late, [])
    }
}
