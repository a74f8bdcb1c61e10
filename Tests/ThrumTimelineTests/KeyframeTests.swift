import Testing
import ThrumModel

@testable import ThrumTimeline

@Suite("Keyframe index")
struct KeyframeTests {
    /// A dense pattern: overlapping continuous events, transients, parameters and curves of
    /// several controls, timing controls included.
    static func densePattern(seed: UInt64) -> HapticPattern {
        var rng = SplitMix(seed: seed)
        var pattern = HapticPattern()
        for _ in 0..<60 {
            let time = Double.random(in: 0...6, using: &rng)
            if Bool.random(using: &rng) {
                var event = HapticEvent.continuous(
                    at: time, duration: Double.random(in: 0...1.2, using: &rng),
                    intensity: Float.random(in: 0...1, using: &rng), sharpness: Float.random(in: 0...1, using: &rng))
                event.parameters += [
                    EventParameter(.attackTime, Float.random(in: 0...1, using: &rng)),
                    EventParameter(.decayTime, Float.random(in: 0...1, using: &rng)),
                    EventParameter(.releaseTime, Float.random(in: 0...1, using: &rng)),
                    EventParameter(.sustained, Bool.random(using: &rng) ? 1 : 0),
                ]
                pattern.events.append(event)
            } else {
                pattern.events.append(.transient(at: time, intensity: Float.random(in: 0...1, using: &rng)))
            }
        }
        let controls: [DynamicParameterID] = [
            .hapticIntensityControl, .hapticSharpnessControl, .hapticAttackTimeControl, .hapticReleaseTimeControl,
            .hapticDecayTimeControl,
        ]
        for _ in 0..<15 {
            let id = controls.randomElement(using: &rng)!
            pattern.parameters.append(
                DynamicParameter(
                    id, value: Float.random(in: id.range.min...id.range.max, using: &rng),
                    time: Double.random(in: 0...6, using: &rng)))
        }
        for _ in 0..<6 {
            let id = controls.randomElement(using: &rng)!
            let points = (0..<5).map { _ in
                ControlPoint(
                    time: Double.random(in: 0...1, using: &rng),
                    value: Float.random(in: id.range.min...id.range.max, using: &rng))
            }
            pattern.parameterCurves.append(
                ParameterCurve(id, time: Double.random(in: 0...6, using: &rng), controlPoints: points))
        }
        return pattern
    }

    @Test("resuming at a keyframe renders exactly like playing from the start", arguments: [UInt64(1), 2, 3])
    func seekEquivalence(seed: UInt64) throws {
        let options = CompileOptions(keyframes: .always, keyframeInterval: 0.5)
        let timeline = try TimelineDecoder.decode(
            TimelineCompiler.compile(Self.densePattern(seed: seed), options: options))
        #expect(timeline.keyframes.count >= 8)
        let full = timeline.toPattern()
        for (number, keyframe) in timeline.keyframes.enumerated() {
            // What a board holds after a seek: the active records, then everything from the keyframe on.
            let active = Set(timeline.activeReferences(ofKeyframe: number).map { Int($0.recordOffset) })
            var resumed = timeline
            resumed.records = timeline.records.filter {
                active.contains($0.offset) || $0.offset >= Int(keyframe.recordOffset)
            }
            let from = Quantization.seconds(keyframe.time)
            // Anything sounding at the keyframe ends within 1.2 s (longest duration here) + 1 s (release).
            let end = from + 2.3
            let expected = ReferenceRenderer.render(
                [Playback(pattern: full, startTime: 0)], channels: 1, sampleRate: 1000, from: from, to: end)[0]
            let actual = ReferenceRenderer.render(
                [Playback(pattern: resumed.toPattern(), startTime: 0)], channels: 1, sampleRate: 1000, from: from,
                to: end)[0]
            let worst = zip(expected.intensity.values, actual.intensity.values).map { abs($0 - $1) }.max() ?? 0
            let worstSharpness = zip(expected.sharpness.values, actual.sharpness.values).map { abs($0 - $1) }.max() ?? 0
            #expect(
                worst < 1e-6 && worstSharpness < 1e-6,
                "seed \(seed) keyframe \(number) at \(keyframe.time): off by \(worst), \(worstSharpness)")
        }
    }

    @Test("automatic: no index below 4096 records, an index from 4096 on")
    func automaticThreshold() throws {
        func timeline(_ count: Int) throws -> Timeline {
            let events = (0..<count).map { HapticEvent.transient(at: Double($0) * 0.01) }
            return try TimelineDecoder.decode(TimelineCompiler.compile(HapticPattern(events: events)))
        }
        #expect(try timeline(4095).flags.contains(.keyframes) == false)
        let indexed = try timeline(4096)
        #expect(indexed.flags.contains(.keyframes))
        #expect(indexed.keyframes.count == 40)  // one per second of a 40.95 s pattern
        #expect(try timeline(100).keyframes.isEmpty)
    }

    @Test("too many overlapping events: .always fails, .automatic leaves the index out")
    func tooManyActive() throws {
        let events = (0..<5000).map { HapticEvent.continuous(at: Double($0) * 0.001, duration: 10) }
        let pattern = HapticPattern(events: events)
        #expect(throws: CompileError.self) {
            try TimelineCompiler.compile(pattern, options: CompileOptions(keyframes: .always))
        }
        let timeline = try TimelineDecoder.decode(TimelineCompiler.compile(pattern))
        #expect(!timeline.flags.contains(.keyframes))
    }

    @Test("the tails cover the renderer's longest release and the transient shape")
    func tailsCoverSemantics() {
        #expect(Double(TimelineFormat.continuousTailTicks) / 1000 >= EnvelopeTiming.maximumSeconds)
        let transient = ReferenceRenderer.eventSpans(of: HapticPattern(events: [.transient(at: 0)]))[0]
        #expect(Double(TimelineFormat.transientTailTicks) / 1000 >= transient.end)
        let longest = HapticEvent(
            .hapticContinuous, time: 0, duration: 0.5,
            parameters: [
                EventParameter(.releaseTime, 1), EventParameter(.attackTime, 1), EventParameter(.decayTime, 1),
            ])
        let span = ReferenceRenderer.eventSpans(of: HapticPattern(events: [longest]))[0]
        #expect(span.end <= 0.5 + Double(TimelineFormat.continuousTailTicks) / 1000)
    }

    @Test("a bad interval is refused")
    func badInterval() {
        #expect(throws: CompileError.self) {
            try TimelineCompiler.compile(
                HapticPattern(events: [.transient(at: 0)]),
                options: CompileOptions(keyframes: .always, keyframeInterval: 0))
        }
    }
}

/// A small seeded generator so the dense patterns are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
