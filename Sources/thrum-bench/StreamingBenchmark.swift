import Foundation
import Thrum
import ThrumSimulator
import ThrumTesting
import ThrumTimeline
import ThrumTransport

/// `thrum-bench streaming`: every corpus pattern on a board whose timeline memory is smaller than
/// the pattern, so it plays streamed (PROTOCOL.md §5.4), over an emulated 115,200-baud UART in
/// virtual time (100 µs steps). The board's memory is half the pattern's size. Patterns of 128
/// bytes or less would need a board smaller than the smallest (64 bytes), and a pattern whose
/// densest instant needs more than a quarter of its size cannot be cut for it: both are counted
/// and not played. `THRUM_BENCH_ONLY=NAME` plays only the corpus files whose names contain NAME. Counts late pieces (underruns) and compares every rendered tick with the firmware's
/// rendering of the whole pattern.
var streamingSuite: Suite {
    Suite(
        name: "streaming",
        summary:
            "every corpus pattern streamed to a board with less memory than it needs, at 115,200 baud (virtual time)"
    ) {
        let files = Repository.corpusFiles("ahap", "haptic")
        guard !files.isEmpty else {
            print("# streaming: no corpus at \(Repository.corpus.path); skipped")
            return []
        }
        let bench = StreamingBench(files: files)
        return try runBlocking { try await bench.run() }
    }
}

struct StreamingFailure: Error, CustomStringConvertible {
    var description: String
}

struct StreamingBench: Sendable {
    let files: [URL]
    let baud = 115_200
    /// Virtual time moves in steps this long, with the tasks run between them.
    let step = Duration.microseconds(100)

    func run() async throws -> [Metric] {
        var streamed = 0, uncuttable = 0, tooSmall = 0, late = 0, mismatched = 0, pieces = 0, seconds = 0.0
        let only = ProcessInfo.processInfo.environment["THRUM_BENCH_ONLY"]
        for file in files where only.map({ file.lastPathComponent.contains($0) }) ?? true {
            guard let pattern = try? PatternFile.load(contentsOf: file) else { continue }
            let whole = try TimelineCompiler.compile(pattern)
            let timeline = try TimelineDecoder.decode(whole)
            guard whole.count >= 128 else {
                tooSmall += 1
                continue
            }
            // Half the pattern's size, where the pattern can be cut for it.
            let memory = whole.count / 2
            guard memory >= 64, (try? TimelineSegmenter.segments(of: timeline, maximumBytes: memory / 2)) != nil else {
                uncuttable += 1
                continue
            }
            let outcome: Outcome
            do {
                outcome = try await play(pattern, whole: whole, duration: timeline.durationSeconds, memory: memory)
            } catch {
                throw StreamingFailure(
                    description:
                        "\(file.lastPathComponent) (\(whole.count) bytes on \(memory) bytes of memory): \(error)")
            }
            streamed += 1
            late += outcome.late
            mismatched += outcome.mismatched
            pieces += outcome.pieces
            seconds += timeline.durationSeconds
            if outcome.late > 0 || outcome.mismatched > 0 {
                print(
                    "# streaming: \(file.lastPathComponent): \(outcome.late) late, \(outcome.mismatched) ticks differ")
            }
        }
        return [
            Metric(name: "streaming.patterns_streamed", value: Double(streamed), unit: "count", goal: .none),
            Metric(name: "streaming.patterns_under_128_bytes", value: Double(tooSmall), unit: "count", goal: .none),
            Metric(
                name: "streaming.patterns_that_cannot_be_cut_for_half_their_size", value: Double(uncuttable),
                unit: "count", goal: .none),
            Metric(name: "streaming.seconds_played", value: seconds, unit: "s", goal: .none),
            Metric(name: "streaming.pieces", value: Double(pieces), unit: "count", goal: .none),
            Metric(name: "streaming.late_pieces_115200", value: Double(late), unit: "count", goal: .atMost(0)),
            Metric(name: "streaming.ticks_unlike_whole", value: Double(mismatched), unit: "count", goal: .atMost(0)),
        ]
    }

    struct Outcome {
        var late = 0
        var mismatched = 0
        var pieces = 0
    }

    private func play(_ pattern: HapticPattern, whole: [UInt8], duration: Double, memory: Int) async throws -> Outcome {
        let clock = ManualClock()
        let tap = TraceTap(capacity: Int(duration * 1000) + 10_000)
        var board = BoardConfiguration()
        board.timelineMemory = memory
        board.line = LineModel(baudRate: baud)
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: board, transport: end, tap: tap)
        let engine = HapticEngine(manualClock: clock, lineRate: baud) {
            (host, Task { try? await server.run(on: clock) })
        }
        let events = engine.events
        try await clock.drive(step: step) { try await engine.start() }
        let player = try await engine.makePlayer(with: pattern)
        let watcher = Task { () -> Int in
            var late = 0
            for await event in events {
                if case .late = event { late += 1 }
                if case .playerFinished = event { return late }
            }
            return late
        }
        try await clock.drive(step: step) { try await player.start(atTime: HapticEngine.timeImmediate) }
        var outcome = Outcome()
        outcome.late = try await clock.drive(step: step, limit: .seconds(duration + 10)) { await watcher.value }
        outcome.pieces = await engine.statistics.streamedPieces
        try await clock.drive(step: step) { await engine.stop() }

        let expected = try FirmwareRendering.render(timeline: whole, seconds: duration + 2.1)
        let ticks = tap.ticks.filter { $0.channel == 0 }
        guard let firstExpected = expected.intensity.firstIndex(where: { $0 > 0 }) else { return outcome }
        guard let firstPlayed = ticks.firstIndex(where: { $0.intensity > 0 }) else {
            outcome.mismatched = expected.intensity.count
            return outcome
        }
        for index in firstExpected..<expected.intensity.count {
            let played = firstPlayed + index - firstExpected
            let intensity = played < ticks.count ? Float(ticks[played].intensity) : 0
            let sharpness = played < ticks.count ? Float(ticks[played].sharpness) : 0
            if intensity != expected.intensity[index] || (intensity > 0 && sharpness != expected.sharpness[index]) {
                outcome.mismatched += 1
            }
        }
        return outcome
    }
}
