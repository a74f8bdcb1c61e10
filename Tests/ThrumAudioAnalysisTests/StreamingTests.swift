import Foundation
import Testing

@testable import ThrumAudioAnalysis
@testable import ThrumModel

/// The parts that make a long file convert in bounded memory, each checked on its own.
struct StreamingTests {
    @Test func waveformSummaryKeepsItsColumnsWhenTheFileRunsLong() {
        // Announced 1,000 frames, given 10,000: columns merge, never more than asked for.
        var summarizer = WaveformSummarizer(columns: 100, announcedFrames: 1000, sampleRate: 1000)
        let ramp = (0..<10_000).map { Float($0) / 10_000 }
        for start in stride(from: 0, to: ramp.count, by: 333) {
            summarizer.append(Array(ramp[start..<min(ramp.count, start + 333)]))
        }
        let summary = summarizer.result
        #expect(summary.minimums.count <= 100 && summary.minimums.count > 50)
        #expect(summary.framesPerColumn == 160)
        // Column k covers frames k·160 ..< (k+1)·160 of the ramp.
        for (index, (low, high)) in zip(summary.minimums, summary.maximums).enumerated() {
            #expect(low == ramp[index * 160])
            #expect(high == ramp[min(ramp.count, (index + 1) * 160) - 1])
        }
    }

    @Test func theWaveformOfAFileHasTheRequestedResolution() throws {
        let samples = Signals.tone(frequency: 5, amplitude: 0.8, seconds: 1, rate: 8000)
        let url = try SoundFixtures.writeMono("slow-sine.wav", rate: 8000, samples)
        let waveform = try AudioToHaptics.convert(
            contentsOf: url, options: AudioConversionOptions(waveformColumns: 100)
        )
        .waveform
        #expect(waveform.minimums.count == 100 && waveform.framesPerColumn == 80)
        #expect(abs(Double(waveform.maximums.max() ?? 0) - 0.8) < 0.001)
        #expect(abs(Double(waveform.minimums.min() ?? 0) + 0.8) < 0.001)
    }

    @Test func simplifiedCurvesStayWithinTheirToleranceOnRandomSignals() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<20 {
            var simplifier = CurveSimplifier()
            var samples: [(Double, Double)] = []
            var value = 0.5
            for index in 0..<2000 {
                value = min(1, max(0, value + 0.03 * random.nextSigned()))
                samples.append((Double(index) * 0.001, value))
                simplifier.append(time: Double(index) * 0.001, value: value, tolerance: 0.02)
            }
            simplifier.finish()
            let points = simplifier.points
            #expect(points.count < samples.count / 3)
            var segment = 0
            for (time, value) in samples {
                while segment < points.count - 2 && points[segment + 1].time < time { segment += 1 }
                let (a, b) = (points[segment], points[segment + 1])
                let line = a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
                #expect(abs(line - value) <= 0.02 + 1e-9)
            }
        }
    }

    @Test func chainedCurvesShareTheirEnds() {
        let points = (0..<40).map { (time: Double($0) * 0.1, value: Double($0 % 7) / 7) }
        let curves = PatternAssembly.chain(points, id: .hapticIntensityControl)
        #expect(curves.count == 3)  // 16 + 15 + 11 points: each curve starts on the last one's end
        #expect(curves.allSatisfy { $0.controlPoints.count <= 16 })
        for (previous, next) in zip(curves, curves.dropFirst()) {
            #expect(abs(previous.endTime - next.time) < 1e-12)
            #expect(previous.controlPoints.last?.value == next.controlPoints.first?.value)
        }
        let layer = ControlLayer(authoredBy: HapticPattern(parameterCurves: curves))
        for point in points {
            #expect(abs(Double(layer.value(of: .hapticIntensityControl, at: point.time)) - point.value) < 1e-6)
        }
    }
}
