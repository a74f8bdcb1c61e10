import Foundation
import PropertyBased
import Synchronization
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTimeline

/// A timeline cut into pieces (TimelineSegmenter) and played piece after piece, each taking over
/// from the one before at its start tick, renders on the firmware exactly as the whole does.
@Suite struct SegmentedPlaybackTests {
    /// Cuts `pattern` for pieces of at most `budget` bytes and compares both renderings tick by tick.
    private func expectSameRendering(
        _ pattern: HapticPattern, budget: Int, name: String, maximumSeconds: Double = 30
    ) throws {
        let whole = try TimelineCompiler.compile(pattern)
        let timeline = try TimelineDecoder.decode(whole)
        let pieces = try TimelineSegmenter.segments(of: timeline, maximumBytes: budget)
        for piece in pieces { #expect(piece.bytes.count <= budget, "\(name): a piece of \(piece.bytes.count) bytes") }
        let seconds = min(maximumSeconds, timeline.durationSeconds + 2.1)
        let expected = try FirmwareRendering.render(timeline: whole, seconds: seconds)
        let streamed = try FirmwareRendering.render(segments: pieces, seconds: seconds)
        let firstDifference = expected.intensity.indices.first {
            expected.intensity[$0] != streamed.intensity[$0] || expected.sharpness[$0] != streamed.sharpness[$0]
        }
        #expect(
            firstDifference == nil,
            """
            \(name): \(pieces.count) pieces starting at \(pieces.map(\.start)) ms differ from the whole at tick \(firstDifference ?? 0): \
            intensity \(expected.intensity[firstDifference ?? 0]) vs \(streamed.intensity[firstDifference ?? 0]), \
            sharpness \(expected.sharpness[firstDifference ?? 0]) vs \(streamed.sharpness[firstDifference ?? 0])
            """)
    }

    /// 300 events of every haptic kind with curves and parameters, over about 10 s.
    private let longPattern = SyntheticAHAP.pattern(events: 300, seed: 7)

    @Test func piecesCoverTheTimelineInOrder() throws {
        let pattern = longPattern
        let timeline = try TimelineDecoder.decode(try TimelineCompiler.compile(pattern))
        let pieces = try TimelineSegmenter.segments(of: timeline, maximumBytes: timeline.byteCount / 3)
        #expect(pieces.count >= 3)
        #expect(pieces.first?.start == 0)
        #expect(pieces.last?.end == nil)
        for (piece, next) in zip(pieces, pieces.dropFirst()) {
            #expect(piece.end == next.start)
            #expect(piece.start < next.start)
        }
        // Every record of the whole starts in exactly one piece's own span.
        let starts = Set(timeline.records.map(\.time))
        for start in starts { #expect(pieces.count { $0.start <= start && start < ($0.end ?? .max) } == 1) }
    }

    @Test func aBudgetForTheWholeGivesOnePieceEqualToTheWhole() throws {
        let pattern = try PatternFile.load(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Examples/splash.ahap"))
        let bytes = try TimelineCompiler.compile(pattern)
        let pieces = try TimelineSegmenter.segments(of: try TimelineDecoder.decode(bytes), maximumBytes: bytes.count)
        #expect(pieces == [TimelineSegment(start: 0, end: nil, bytes: bytes)])
    }

    @Test(arguments: [3, 6, 10])
    func aLongPatternPlaysTheSameInPieces(fraction: Int) throws {
        let size = try TimelineCompiler.compile(longPattern).count
        try expectSameRendering(longPattern, budget: size / fraction, name: "synthetic, 1/\(fraction) of \(size) bytes")
    }

    /// Every corpus pattern, cut as finely as it allows (the smallest budget that works, found by
    /// halving), over its first 30 s.
    @Test(.enabled(if: Repository.runsCorpusTests, "no corpus of real pattern files beside the checkout"))
    func corpusPlaysTheSameInPieces() throws {
        var cut = 0, loaded = 0
        for file in try #require(Fixtures.corpusFiles()) {
            guard let pattern = try? PatternFile.load(contentsOf: file) else { continue }
            loaded += 1
            let timeline = try TimelineDecoder.decode(try TimelineCompiler.compile(pattern))
            var budget = timeline.byteCount
            while budget > 32, (try? TimelineSegmenter.segments(of: timeline, maximumBytes: budget / 2)) != nil {
                budget /= 2
            }
            if budget < timeline.byteCount { cut += 1 }
            try expectSameRendering(pattern, budget: budget, name: file.lastPathComponent)
        }
        // Many corpus patterns are a few dozen bytes: one event sounding is already the whole.
        print("segmented playback: \(cut) of \(loaded) corpus patterns cut into pieces, each rendered as the whole")
        #expect(cut >= 25)
    }

    /// Patterns with attack, decay or release controls are left out: a piece starting while an
    /// event's envelope runs reads those controls where it starts, as a seek does, not where the
    /// event read them (PROTOCOL.md §5.4), so the handoff can differ there.
    @Test func randomPatternsPlayTheSameInPieces() async {
        let cutInPieces = Mutex(0)
        await propertyCheck(count: 100, input: RandomPatterns.generator) { pattern in
            let timing: Set<EventParameterID> = [.attackTime, .decayTime, .releaseTime]
            guard !pattern.parameters.contains(where: { timing.contains($0.id.target) }),
                !pattern.parameterCurves.contains(where: { timing.contains($0.id.target) })
            else { return }
            let bytes = try TimelineCompiler.compile(pattern)
            let timeline = try TimelineDecoder.decode(bytes)
            // The finest cut the pattern allows (halving); one that stays whole compares nothing new.
            func cuts(_ budget: Int) -> Bool {
                ((try? TimelineSegmenter.segments(of: timeline, maximumBytes: budget))?.count ?? 0) > 1
            }
            guard var budget = [bytes.count * 3 / 4, bytes.count - 1].first(where: cuts) else { return }
            while cuts(budget / 2) { budget /= 2 }
            cutInPieces.withLock { $0 += 1 }
            try expectSameRendering(pattern, budget: budget, name: "random pattern \(pattern)")
        }
        print("segmented playback: \(cutInPieces.withLock { $0 }) of 100 random patterns cut into pieces")
        #expect(
            cutInPieces.withLock { $0 } >= 10, "enough random patterns are cut to make the comparison mean something")
    }

    /// Two events sounding together cannot be split below their own size: the error says where and
    /// how much.
    @Test func aPieceThatCannotFitIsNamed() throws {
        let pattern = HapticPattern(events: [
            Fixtures.continuous(0, 1, [(.hapticIntensity, 0.5)]),
            Fixtures.continuous(0.5, 1, [(.hapticIntensity, 0.9), (.attackTime, 0.3)]),
        ])
        let timeline = try TimelineDecoder.decode(try TimelineCompiler.compile(pattern))
        #expect {
            try TimelineSegmenter.segments(of: timeline, maximumBytes: 20)
        } throws: { error in
            let error = try #require(error as? SegmentationError)
            return error.tick == 500 && error.available == 20 && error.needed > 20
                && error.description.contains("at 0.500 s") && error.description.contains("more than the 20 bytes")
        }
    }
}
