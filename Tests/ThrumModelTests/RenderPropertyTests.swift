import PropertyBased
import Testing

@testable import ThrumModel

/// Properties over random patterns, rates, loops and run-time controls (SEMANTICS.md §1.1, §9).
@Suite struct RenderPropertyTests {
    /// A control as generated: a step when `points` is empty, else a curve.
    struct RandomControl: Sendable {
        var id: DynamicParameterID
        var time: Double
        var value: Float
        var points: [ControlPoint]
    }

    static let events = zip(
        Gen<HapticEventType>.case,
        Gen.double(in: -0.1...1.0),
        Gen.double(in: 0...0.6),
        Gen.float(in: -0.5...1.5),
        Gen.float(in: -0.5...1.5),
        Gen.float(in: -0.2...1.2),
        Gen.float(in: -0.2...1.2),
        Gen.float(in: -0.2...1.2),
        Gen.float(in: 0...1)
    ).map { type, time, duration, intensity, sharpness, attack, decay, release, sustained in
        HapticEvent(
            type, time: time, duration: duration,
            parameters: [
                EventParameter(.hapticIntensity, intensity), EventParameter(.hapticSharpness, sharpness),
                EventParameter(.audioVolume, intensity), EventParameter(.attackTime, attack),
                EventParameter(.decayTime, decay), EventParameter(.releaseTime, release),
                EventParameter(.sustained, sustained),
            ])
    }

    static let controls = zip(
        Gen<DynamicParameterID>.case,
        Gen.double(in: -0.1...1.0),
        Gen.float(in: -2...2),
        zip(Gen.double(in: -0.1...0.5), Gen.float(in: -2...2))
            .map { ControlPoint(time: $0, value: $1) }
            .array(of: 0...4)
    ).map { RandomControl(id: $0, time: $1, value: $2, points: $3) }

    static let patterns = zip(events.array(of: 0...6), controls.array(of: 0...4)).map { events, controls in
        HapticPattern(
            events: events,
            parameters: controls.filter(\.points.isEmpty).map {
                DynamicParameter($0.id, value: $0.value, time: $0.time)
            },
            parameterCurves: controls.filter { !$0.points.isEmpty }.map {
                ParameterCurve($0.id, time: $0.time, controlPoints: $0.points)
            })
    }

    /// Loop ends below 0.1 s become 0 (end of the last event); very short loops overlap thousands of
    /// passes, which `RenderLaneTests.tinyLoopWithLongTailsStaysBounded` covers on its own.
    static let playbacks = zip(
        patterns, Gen.float(in: 0.25...4), Gen.bool, Gen.double(in: 0...0.6), controls.array(of: 0...3)
    )
    .map { pattern, rate, loops, loopEnd, runtime in
        Playback(
            pattern: pattern, startTime: 0.05, playbackRate: rate,
            loop: loops ? LoopSettings(loopEnd: loopEnd < 0.1 ? 0 : loopEnd) : nil,
            runtimeControls: runtime.map {
                $0.points.isEmpty
                    ? RuntimeControl.parameter($0.id, value: $0.value, at: $0.time)
                    : RuntimeControl.curve($0.id, controlPoints: $0.points, at: $0.time)
            })
    }

    @Test func outputsAreFiniteAndWithinZeroAndOne() async {
        await propertyCheck(input: Self.playbacks.array(of: 1...3)) { playbacks in
            let channel = ReferenceRenderer.render(playbacks, channels: 1, sampleRate: 250, from: -0.1, to: 2.5)[0]
            for lane in [channel.intensity, channel.sharpness, channel.audioVolume] {
                #expect(lane.values.count == 651)
                #expect(lane.values.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
            }
        }
    }

    @Test func sampleAtATimeIsTheSameAtEverySampleRate() async {
        // 40 cases over 0.6 s keep the debug-build test fast; each case compares 601 instants.
        await propertyCheck(count: 40, input: Self.playbacks.array(of: 1...2)) { playbacks in
            let slow = ReferenceRenderer.render(playbacks, channels: 1, sampleRate: 1000, from: 0, to: 0.6)[0]
            let fast = ReferenceRenderer.render(playbacks, channels: 1, sampleRate: 8000, from: 0, to: 0.6)[0]
            #expect(slow.intensity.values.count == 601 && fast.intensity.values.count == 4801)
            let mismatch = slow.intensity.values.indices.first { index in
                slow.intensity.values[index] != fast.intensity.values[8 * index]
                    || slow.sharpness.values[index] != fast.sharpness.values[8 * index]
                    || slow.audioVolume.values[index] != fast.audioVolume.values[8 * index]
            }
            #expect(mismatch == nil, "1 kHz sample \(mismatch ?? -1) differs from its 8 kHz twin")
            for index in stride(from: 0, to: 601, by: 53) {
                let point = ReferenceRenderer.sample(playbacks, channel: 0, at: Double(index) / 1000)
                #expect(point.intensity == slow.intensity.values[index])
                #expect(point.sharpness == slow.sharpness.values[index])
            }
        }
    }

    @Test func nothingSoundsOutsideTheRenderedDuration() async {
        await propertyCheck(input: Self.patterns) { pattern in
            let end = ReferenceRenderer.renderedDuration(of: pattern)
            let first = pattern.events.map(\.time).min() ?? 0
            let playbacks = [Playback(pattern: pattern, startTime: 0)]
            for time in [first - 0.001, end, end + 0.0005, end + 0.3] {
                #expect(ReferenceRenderer.sample(playbacks, channel: 0, at: time) == (0, 0))
                #expect(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: time) == 0)
            }
        }
    }

    @Test func sharpnessIsWithinTheSoundingEventsSharpness() async {
        // The weighted mean lies between the smallest and largest sharpness of the events that sound.
        // Controls would move sharpness beyond the events' own values, so these patterns have none.
        await propertyCheck(input: Self.events.array(of: 1...6).map { HapticPattern(events: $0) }) { pattern in
            let haptic = pattern.events.filter(\.type.isHaptic)
            guard let low = haptic.map(\.sharpness).min(), let high = haptic.map(\.sharpness).max() else { return }
            for step in 0..<200 {
                let point = ReferenceRenderer.sample(
                    [Playback(pattern: pattern, startTime: 0)], channel: 0, at: Double(step) / 100)
                if point.intensity > 0 {
                    #expect(point.sharpness >= low - 1e-5 && point.sharpness <= high + 1e-5)
                }
            }
        }
    }
}
