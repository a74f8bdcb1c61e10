import Foundation
import Testing
import ThrumAudioAnalysis
import ThrumModel

/// The intensity and sharpness curves against what the synthesised sounds are known to hold.
struct CurveTests {
    static let rate = 44_100

    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let (meanA, meanB) = (a.reduce(0, +) / Double(a.count), b.reduce(0, +) / Double(b.count))
        var (covariance, varianceA, varianceB) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            covariance += (x - meanA) * (y - meanB)
            varianceA += (x - meanA) * (x - meanA)
            varianceB += (y - meanB) * (y - meanB)
        }
        return covariance / (varianceA * varianceB).squareRoot()
    }

    @Test func intensityFollowsAKnownAmplitudeModulation() throws {
        // 0.1…0.9 at 1.5 Hz on a 180 Hz tone.
        let envelope = { (time: Double) in 0.5 + 0.4 * sin(2 * .pi * 1.5 * time) }
        let samples = Signals.tone(frequency: 180, amplitude: 0.8, seconds: 4, rate: Self.rate, envelope: envelope)
        let url = try SoundFixtures.writeMono("modulated.wav", rate: Self.rate, samples)
        let conversion = try AudioToHaptics.convert(contentsOf: url)
        let layer = ControlLayer(authoredBy: conversion.pattern)
        let times = stride(from: 0.1, to: 3.9, by: 0.01).map { $0 }
        let curve = times.map { Double(layer.value(of: .hapticIntensityControl, at: $0)) }
        let known = times.map(envelope)
        let r = Self.pearson(curve, known)
        #expect(r >= 0.95, "r = \(r)")
        // Normalised: the loudest moment is intensity 1.
        #expect(abs((curve.max() ?? 0) - 1) < 0.05)
        // Chained curves of at most 16 points, one continuous event under them.
        #expect(conversion.pattern.parameterCurves.allSatisfy { $0.controlPoints.count <= 16 })
        #expect(conversion.pattern.parameterCurves.count > 2)
        #expect(conversion.report.continuousEvents == 1)
        #expect(conversion.report.intensityBreakpoints < 4 * 375 / 4, "reduced from one point per frame")
    }

    @Test func intensityStaysWithinTheStatedToleranceOfTheEnvelope() throws {
        // A staircase and a ramp: the curve must stay within the tolerance (plus the analysis window's smear
        // at the steps, which the comparison skips).
        let envelope = { (time: Double) -> Double in time < 1 ? 0.25 : time < 2 ? 0.5 + 0.25 * (time - 1) : 1 }
        let samples = Signals.tone(frequency: 300, amplitude: 0.7, seconds: 3, rate: Self.rate, envelope: envelope)
        let url = try SoundFixtures.writeMono("staircase.wav", rate: Self.rate, samples)
        let tolerance = 0.03
        let conversion = try AudioToHaptics.convert(
            contentsOf: url, options: AudioConversionOptions(intensityTolerance: tolerance))
        let layer = ControlLayer(authoredBy: conversion.pattern)
        for time in stride(from: 0.1, to: 2.9, by: 0.005) where abs(time - 1) > 0.03 && abs(time - 2) > 0.03 {
            let value = Double(layer.value(of: .hapticIntensityControl, at: time))
            // Sample-to-analysis smear of a 21 ms window on the ramp is far below 0.01.
            #expect(abs(value - envelope(time)) <= tolerance + 0.01, "at \(time): \(value) vs \(envelope(time))")
        }
    }

    @Test func sharpnessRisesWithFrequencyAcrossTheBand() throws {
        let frequencies: [Double] = [60, 100, 160, 250, 400, 630, 1000, 1600, 2500, 4000, 6300]
        var sharpness: [Double] = []
        for frequency in frequencies {
            let samples = Signals.tone(frequency: frequency, amplitude: 0.5, seconds: 0.5, rate: Self.rate)
            let url = try SoundFixtures.writeMono("tone-\(Int(frequency)).wav", rate: Self.rate, samples)
            let pattern = try AudioToHaptics.convert(contentsOf: url).pattern
            sharpness.append(Double(ControlLayer(authoredBy: pattern).value(of: .hapticSharpnessControl, at: 0.25)))
        }
        #expect(zip(sharpness, sharpness.dropFirst()).allSatisfy { $0 < $1 }, "\(sharpness)")
        #expect(sharpness.first! < 0.15 && sharpness.last! > 0.85, "\(sharpness)")
    }

    @Test func silenceAndSoundBelowTheNoiseFloorGiveNoEvents() throws {
        let silent = try SoundFixtures.writeMono(
            "silence.wav", rate: Self.rate, Signals.silence(seconds: 2, rate: Self.rate))
        let quiet = try SoundFixtures.writeMono(
            "below-floor.wav", rate: Self.rate,
            Signals.noise(seconds: 2, rate: Self.rate, amplitude: 0.0005, seed: 3), encoding: .wavFloat)
        for url in [silent, quiet] {
            let conversion = try AudioToHaptics.convert(contentsOf: url)
            #expect(conversion.pattern.events.isEmpty, "\(url.lastPathComponent): \(conversion.pattern.events)")
            #expect(conversion.pattern.parameterCurves.isEmpty)
        }
        // The same noise 40 dB louder is above the floor.
        let loud = try SoundFixtures.writeMono(
            "above-floor.wav", rate: Self.rate, Signals.noise(seconds: 2, rate: Self.rate, amplitude: 0.05, seed: 3))
        #expect(try AudioToHaptics.convert(contentsOf: loud).report.continuousEvents == 1)
    }

    @Test func dcOffsetAndClippingChangeNothingEssential() throws {
        var samples = Signals.silence(seconds: 2, rate: Self.rate)
        for time in [0.3, 0.8, 1.3] { Signals.addHit(to: &samples, at: time, rate: Self.rate, amplitude: 3, seed: 9) }
        let clippedWithOffset = samples.map { min(1, max(-1, $0 * 0.8 + 0.2)) }
        let url = try SoundFixtures.writeMono(
            "clipped-offset.wav", rate: Self.rate, clippedWithOffset, encoding: .wavFloat)
        let conversion = try AudioToHaptics.convert(contentsOf: url)
        #expect(conversion.report.clippedSamples > 100)
        #expect(abs(conversion.report.dcOffset - 0.2) < 0.02)
        let times = OnsetTests.transientTimes(conversion)
        let (precision, recall) = OnsetTests.score(found: times, truth: [0.3, 0.8, 1.3])
        #expect(precision == 1 && recall == 1, "\(times)")
    }

    @Test func theSoundCanBeKeptBesideTheHaptics() throws {
        let url = try SoundFixtures.writeMono(
            "kept.wav", rate: Self.rate, Signals.tone(frequency: 200, amplitude: 0.5, seconds: 1, rate: Self.rate))
        let pattern = try HapticPattern(analyzingAudioAt: url, options: AudioConversionOptions(keepsAudio: true))
        let audio = pattern.events.filter { $0.type == .audioCustom }
        #expect(audio.count == 1)
        #expect(audio.first?.waveform?.path == "kept.wav")
        #expect(abs((audio.first?.duration ?? 0) - 1) < 0.001)
    }

    @Test func aLongSoundIsSplitIntoContinuousEventsOfAtMost30Seconds() throws {
        let samples = Signals.tone(
            frequency: 200, amplitude: 0.5, seconds: 31, rate: 8000, envelope: { 0.6 + 0.3 * sin($0) })
        let url = try SoundFixtures.writeMono("long-tone.wav", rate: 8000, samples)
        let pattern = try AudioToHaptics.convert(contentsOf: url).pattern
        let events = pattern.events.filter { $0.type == .hapticContinuous }
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.duration <= 30 })
        for (previous, next) in zip(events, events.dropFirst()) {
            #expect(abs(previous.time + previous.duration - next.time) < 1e-9, "no gap between the parts")
        }
        #expect(abs((events.last.map { $0.time + $0.duration } ?? 0) - 31) < 0.02)
        #expect(PatternValidator.validate(pattern, mode: .strict).isEmpty)
    }
}
