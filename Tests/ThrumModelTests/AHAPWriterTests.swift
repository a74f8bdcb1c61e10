import Foundation
import PropertyBased
import Testing

@testable import ThrumModel

extension SplitMix64: RandomNumberGenerator {}

/// Random normalised patterns covering the whole schema, reproducible from a seed.
enum RandomPattern {
    static func make(seed: UInt64) -> HapticPattern {
        var random = SplitMix64(seed: seed)
        let eventCount = Int.random(in: 0...12, using: &random)
        var events: [HapticEvent] = []
        for _ in 0..<eventCount {
            let type = HapticEventType.allCases.randomElement(using: &random)!
            let parameters = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                let id = EventParameterID.allCases.randomElement(using: &random)!
                return EventParameter(id, value(in: id.range, using: &random))
            }
            var waveform: AudioWaveform?
            if type == .audioCustom {
                waveform = AudioWaveform(
                    path: text(using: &random), useVolumeEnvelope: Bool.random(using: &random),
                    loopEnabled: Bool.random(using: &random))
            }
            let duration = type.isContinuous || Bool.random(using: &random) ? time(using: &random) : 0
            events.append(
                HapticEvent(
                    type, time: time(using: &random), duration: duration, parameters: parameters, waveform: waveform))
        }
        let parameters = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            let id = DynamicParameterID.allCases.randomElement(using: &random)!
            return DynamicParameter(id, value: value(in: id.range, using: &random), time: time(using: &random))
        }
        let curves = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            let id = DynamicParameterID.allCases.randomElement(using: &random)!
            var pointTime = 0.0
            let points = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                pointTime += Double.random(in: 0...0.5, using: &random)
                return ControlPoint(time: pointTime, value: value(in: id.range, using: &random))
            }
            return ParameterCurve(id, time: time(using: &random), controlPoints: points)
        }
        var metadata: PatternMetadata = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) { metadata[text(using: &random)] = text(using: &random) }
        var pattern = HapticPattern(
            version: Bool.random(using: &random) ? 1.0 : Double.random(in: 1.0...1.1, using: &random),
            metadata: metadata,
            events: events, parameters: parameters, parameterCurves: curves)
        if pattern.isEmpty { pattern.events = [.transient(at: 0)] }
        return pattern.normalized()
    }

    /// Full-precision times, sometimes round ones, sometimes tiny or at the limit.
    static func time(using random: inout SplitMix64) -> Double {
        switch Int.random(in: 0...5, using: &random) {
        case 0: return 0
        case 1: return Double(Int.random(in: 0...100, using: &random)) / 100
        case 2: return Double.random(in: 0...1e-6, using: &random)
        default: return Double.random(in: 0...1000, using: &random)
        }
    }

    static func value(in range: ParameterRange, using random: inout SplitMix64) -> Float {
        switch Int.random(in: 0...4, using: &random) {
        case 0: return range.min
        case 1: return range.max
        case 2: return Float(Int.random(in: 0...10, using: &random)) / 10 * (range.max - range.min) + range.min
        default: return Float.random(in: range.min...range.max, using: &random)
        }
    }

    static func text(using random: inout SplitMix64) -> String {
        let alphabet = Array("aZ 09/._-\"\\\n\t\u{01}é😀ß")
        return String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }
}

@Suite struct AHAPWriterTests {
    @Test func writingThenReadingGivesBackAnEqualPattern() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let pattern = RandomPattern.make(seed: UInt64(seed))
            for pretty in [true, false] {
                let result = PatternFile.read(
                    data: AHAPWriter.data(for: pattern, pretty: pretty), name: "roundtrip.ahap")
                #expect(result.pattern == pattern, "seed \(seed)")
                #expect(result.diagnostics.isEmpty, "seed \(seed): \(result.diagnostics)")
            }
        }
    }

    @Test func writesAppleStyleKeysOneElementPerLine() {
        let pattern = HapticPattern(
            metadata: ["Project": "Demo"],
            events: [
                .transient(at: 0, intensity: 0.8, sharpness: 0.4),
                .continuous(at: 0.1, duration: 0.25),
            ],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.2)],
            parameterCurves: [
                ParameterCurve(.hapticSharpnessControl, time: 0.3, controlPoints: [ControlPoint(time: 0, value: -0.1)])
            ])
        let text = String(decoding: AHAPWriter.data(for: pattern), as: UTF8.self)
        #expect(
            text == """
                {
                  "Version": 1.0,
                  "Metadata": {
                    "Project": "Demo"
                  },
                  "Pattern": [
                    {"Event": {"Time": 0.0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.4}]}},
                    {"Event": {"Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.25}},
                    {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.2, "ParameterValue": 0.5}},
                    {"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0.3, "ParameterCurveControlPoints": [{"Time": 0.0, "ParameterValue": -0.1}]}}
                  ]
                }

                """)
        let compact = String(decoding: AHAPWriter.data(for: pattern, pretty: false), as: UTF8.self)
        #expect(!compact.contains(" ") && !compact.contains("\n"))
        #expect(compact.hasPrefix(#"{"Version":1.0,"Metadata":{"Project":"Demo"},"Pattern":[{"Event":{"Time":0.0,"#))
    }

    @Test func writesAudioCustomKeysOnlyWhenNotDefault() {
        let event = HapticEvent(.audioCustom, time: 0, waveform: AudioWaveform(path: "a.wav"))
        let text = String(decoding: AHAPWriter.data(for: HapticPattern(events: [event]), pretty: false), as: UTF8.self)
        #expect(text.contains(#""EventWaveformPath":"a.wav"}"#))
        #expect(!text.contains("UseVolumeEnvelope") && !text.contains("LoopEnabled"))
    }

    @Test func nonFiniteNumbersAreWrittenAsZeroSoTheOutputStaysJSON() {
        let pattern = HapticPattern(events: [.transient(at: .nan, intensity: .infinity)])
        let result = PatternFile.read(data: AHAPWriter.data(for: pattern), name: "x")
        #expect(result.pattern?.events == [.transient(at: 0, intensity: 0)])
    }

    @Test func syntheticFilesAreDeterministicAndLoad() throws {
        let data = SyntheticAHAP.make(events: 5000, seed: 7)
        #expect(data == SyntheticAHAP.make(events: 5000, seed: 7))
        #expect(data != SyntheticAHAP.make(events: 5000, seed: 8))
        let result = PatternFile.read(data: data, name: "synthetic.ahap")
        let pattern = try #require(result.pattern)
        #expect(result.diagnostics.isEmpty)
        #expect(pattern == SyntheticAHAP.pattern(events: 5000, seed: 7))
        #expect(pattern.events.count == 5000)
        #expect(pattern.parameterCurves.count == 5)
        #expect(pattern.parameters.count == 1)
    }
}
