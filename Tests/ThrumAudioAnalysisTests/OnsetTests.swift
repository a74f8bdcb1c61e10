import Foundation
import Testing
import ThrumAudioAnalysis
import ThrumModel

/// Onsets at known times become transients within ±10 ms, with precision and recall ≥ 0.95.
struct OnsetTests {
    static let rate = 44_100

    /// Matches each detected onset to at most one true one within `tolerance`; precision, recall.
    static func score(found: [Double], truth: [Double], tolerance: Double = 0.010) -> (Double, Double) {
        var unmatched = truth
        var matched = 0
        for time in found {
            if let index = unmatched.firstIndex(where: { abs($0 - time) <= tolerance }) {
                unmatched.remove(at: index)
                matched += 1
            }
        }
        let precision = found.isEmpty ? 0 : Double(matched) / Double(found.count)
        return (precision, Double(matched) / Double(truth.count))
    }

    static func transientTimes(_ conversion: AudioConversion) -> [Double] {
        conversion.pattern.events.filter { $0.type == .hapticTransient }.map(\.time)
    }

    /// Converts `samples` and expects transients at `truth` (±10 ms), precision and recall ≥ 0.95.
    static func expectOnsets(in samples: [Float], named name: String, at truth: [Double]) throws {
        let url = try SoundFixtures.writeMono(name, rate: rate, samples)
        let found = transientTimes(try AudioToHaptics.convert(contentsOf: url))
        let (precision, recall) = score(found: found, truth: truth)
        #expect(precision >= 0.95, "\(name): found \(found)")
        #expect(recall >= 0.95, "\(name): found \(found)")
    }

    /// Hits at irregular times, some 50 ms apart, at amplitudes from 0.2 to 0.9.
    static let hitTimes: [Double] = [
        0.25, 0.60, 0.65, 1.00, 1.33, 1.38, 1.43, 1.90, 2.20, 2.25, 2.71, 3.05, 3.10, 3.52, 3.90, 3.95, 4.40,
    ]

    @Test func drumHitsAreFoundWhereTheyStart() throws {
        var samples = Signals.silence(seconds: 4.8, rate: Self.rate)
        for (index, time) in Self.hitTimes.enumerated() {
            Signals.addHit(
                to: &samples, at: time, rate: Self.rate, amplitude: 0.2 + 0.7 * Double(index % 4) / 3,
                seed: UInt64(index))
        }
        try Self.expectOnsets(in: samples, named: "hits.wav", at: Self.hitTimes)
    }

    @Test func clicksAreFoundWhereTheyStart() throws {
        var samples = Signals.silence(seconds: 4.8, rate: Self.rate)
        for time in Self.hitTimes { Signals.addClick(to: &samples, at: time, rate: Self.rate, amplitude: 0.6) }
        try Self.expectOnsets(in: samples, named: "clicks.wav", at: Self.hitTimes)
    }

    @Test func hitsUnderASustainedToneAreFound() throws {
        var samples = Signals.tone(frequency: 220, amplitude: 0.4, seconds: 4.8, rate: Self.rate)
        for (index, time) in Self.hitTimes.enumerated() {
            Signals.addHit(to: &samples, at: time, rate: Self.rate, amplitude: 0.5, seed: UInt64(100 + index))
        }
        // The tone starting at 0 is an onset too.
        try Self.expectOnsets(in: samples, named: "hits-under-tone.wav", at: [0] + Self.hitTimes)
    }

    @Test func aHitAtTheVeryStartIsFound() throws {
        var samples = Signals.silence(seconds: 1, rate: Self.rate)
        Signals.addHit(to: &samples, at: 0, rate: Self.rate, amplitude: 0.8, seed: 5)
        let url = try SoundFixtures.writeMono("hit-at-start.wav", rate: Self.rate, samples)
        let conversion = try AudioToHaptics.convert(contentsOf: url)
        #expect(Self.transientTimes(conversion) == [0])
        #expect(conversion.pattern.events.allSatisfy { $0.time >= 0 })
        #expect(conversion.pattern.parameterCurves.allSatisfy { $0.time >= 0 })
    }

    @Test func strongerHitsGiveStrongerTransients() throws {
        var samples = Signals.silence(seconds: 2, rate: Self.rate)
        let times = [0.2, 0.7, 1.2, 1.7]
        let amplitudes = [0.1, 0.3, 0.6, 0.9]
        for (time, amplitude) in zip(times, amplitudes) {
            Signals.addHit(to: &samples, at: time, rate: Self.rate, amplitude: amplitude, seed: 7)
        }
        let url = try SoundFixtures.writeMono("graded-hits.wav", rate: Self.rate, samples)
        let conversion = try AudioToHaptics.convert(contentsOf: url)
        let onsets = conversion.report.onsets
        try #require(onsets.count == 4, "\(onsets)")
        let strengths = onsets.map(\.strength)
        #expect(zip(strengths, strengths.dropFirst()).allSatisfy { $0 < $1 }, "\(strengths)")
        // The felt intensity (authored × the intensity control there) is the onset's strength.
        let pattern = conversion.pattern
        let layer = ControlLayer(authoredBy: pattern)
        for (event, onset) in zip(pattern.events.filter { $0.type == .hapticTransient }, onsets) {
            let felt = Double(event.intensity * layer.value(of: .hapticIntensityControl, at: event.time))
            #expect(abs(felt - onset.strength) < 0.02, "\(felt) vs \(onset.strength)")
        }
    }

    @Test func lowerSensitivityKeepsOnlyStrongOnsets() throws {
        // Two hits and three 30 dB fainter ones.
        var samples = Signals.silence(seconds: 2, rate: Self.rate)
        Signals.addHit(to: &samples, at: 0.3, rate: Self.rate, amplitude: 0.9, seed: 1)
        Signals.addHit(to: &samples, at: 1.2, rate: Self.rate, amplitude: 0.9, seed: 2)
        for time in [0.1, 1.0, 1.9] {
            Signals.addHit(to: &samples, at: time, rate: Self.rate, amplitude: 0.03, seed: 3)
        }
        let url = try SoundFixtures.writeMono("sensitivity.wav", rate: Self.rate, samples)
        let sensitive = try AudioToHaptics.convert(
            contentsOf: url, options: AudioConversionOptions(transientSensitivity: 1, noiseFloor: -90))
        let strict = try AudioToHaptics.convert(
            contentsOf: url, options: AudioConversionOptions(transientSensitivity: 0, noiseFloor: -90))
        #expect(Self.transientTimes(strict).count == 2, "\(Self.transientTimes(strict))")
        #expect(Self.transientTimes(sensitive).count == 5, "\(Self.transientTimes(sensitive))")
    }
}
