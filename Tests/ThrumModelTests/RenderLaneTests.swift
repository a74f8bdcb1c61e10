import Testing

@testable import ThrumModel

/// SEMANTICS.md §1.5 and §8: which samples a render holds, durations and spans, bad input.
@Suite struct RenderLaneTests {
    @Test func rangeIncludesBothEnds() {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1)])
        let channels = ReferenceRenderer.render(
            [Playback(pattern: pattern, startTime: 0)], channels: 1, sampleRate: 1000, from: 0.5, to: 1.5)
        let lane = channels[0].intensity
        #expect(lane.values.count == 1001)
        #expect(lane.startTime == 0.5)
        #expect(lane.sampleRate == 1000)
        #expect(lane.time(ofSample: 499) == 0.999)
        #expect(lane.values[499] == 1)
        #expect(lane.values[500] == 0)
    }

    @Test func patternRenderCoversTheReleaseTail() {
        let pattern = HapticPattern(events: [RenderFixture.continuous(at: 0, duration: 0.1, release: 0.5)])
        let channel = ReferenceRenderer.render(pattern, sampleRate: 1000)
        #expect(channel.intensity.values.count == 213)  // 0 … 0.212 s: the first sample after the 0.2111 s end
        #expect(channel.intensity.values.last == 0)
        #expect(channel.intensity.values[150] > 0)
    }

    @Test func explicitDurationOverridesTheRenderedDuration() {
        let pattern = HapticPattern(events: [.transient(at: 0)])
        #expect(ReferenceRenderer.render(pattern, sampleRate: 100, duration: 2).intensity.values.count == 201)
    }

    @Test func spansListEveryEventInOrder() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0.5, duration: 0.2), .transient(at: 0.1),
            HapticEvent(.audioCustom, time: 0, duration: 0.3, waveform: AudioWaveform(resourceID: 1)),
        ])
        let spans = ReferenceRenderer.eventSpans(of: pattern)
        #expect(spans.map(\.eventIndex) == [0, 1, 2])
        #expect(spans.map(\.type) == [.hapticContinuous, .hapticTransient, .audioCustom])
        #expect(spans[0].start == 0.5)
        #expect(abs(spans[0].end - 0.7) < 1e-12)
        #expect(
            spans[0].envelope == ContinuousEnvelope(attack: 0, decay: 0, release: 0, duration: 0.2, sustained: true))
        #expect(abs(spans[1].end - 0.12) < 1e-12)
        #expect(spans[2].end == 0.3)
    }

    @Test func emptyPatternRendersOneSilentSample() {
        let channel = ReferenceRenderer.render(HapticPattern(), sampleRate: 1000)
        #expect(channel.intensity.values == [0])
        #expect(ReferenceRenderer.renderedDuration(of: HapticPattern()) == 0)
    }

    @Test func badRangesAndRatesGiveEmptyLanesNotCrashes() {
        let playbacks = [Playback(pattern: HapticPattern(events: [.transient(at: 0)]), startTime: 0)]
        for (rate, from, to) in [
            (0.0, 0.0, 1.0), (-5, 0, 1), (.nan, 0, 1), (1000, 1, 0), (1000, 0, .infinity), (1000, .nan, 1),
        ] {
            let channels = ReferenceRenderer.render(playbacks, channels: 1, sampleRate: rate, from: from, to: to)
            #expect(channels[0].intensity.values.isEmpty)
        }
        #expect(ReferenceRenderer.render(playbacks, channels: -1, sampleRate: 1000, from: 0, to: 1).isEmpty)
        #expect(ReferenceRenderer.render(playbacks, channels: 2, sampleRate: 1000, from: 0, to: 1).count == 2)
    }

    @Test func hugeRequestsAreBounded() {
        let playbacks = [Playback(pattern: HapticPattern(), startTime: 0)]
        #expect(
            ReferenceRenderer.sampleCount(sampleRate: 1e9, from: 0, to: 1e6) == ReferenceRenderer.maximumSampleCount)
        #expect(ReferenceRenderer.render(playbacks, channels: 0, sampleRate: 1e9, from: 0, to: 1e6).isEmpty)
    }

    @Test func nonFiniteInputIsSilentNotACrash() {
        var broken = HapticEvent.continuous(at: .nan, duration: 1, intensity: 1)
        var endless = HapticEvent.continuous(at: 0, duration: .infinity, intensity: .nan)
        endless.parameters.append(EventParameter(.attackTime, .nan))
        broken.duration = .nan
        let pattern = HapticPattern(
            events: [broken, endless, .transient(at: 0.5, intensity: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: .nan, time: .infinity)])
        let playbacks = [Playback(pattern: pattern, startTime: 0)]
        #expect(ReferenceRenderer.sample(playbacks, channel: 0, at: 0.5).intensity == 1)
        #expect(ReferenceRenderer.sample(playbacks, channel: 0, at: .nan) == (0, 0))
        #expect(ReferenceRenderer.sample([Playback(pattern: pattern, startTime: .nan)], channel: 0, at: 0.5) == (0, 0))
        #expect(ReferenceRenderer.eventSpans(of: pattern).count == 2)
    }

    @Test func tinyLoopWithLongTailsStaysBounded() {
        let pattern = HapticPattern(events: [RenderFixture.continuous(at: 0, duration: 2, intensity: 0.001, release: 1)]
        )
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings(loopEnd: 1e-9))
        let value = ReferenceRenderer.sample([looping], channel: 0, at: 100).intensity
        #expect(value == 1)  // 2000+ overlapping passes of 0.001 sum past 1
    }
}

/// SEMANTICS.md §1.1–1.2: a lane sample (or a firmware tick) is the point value at its instant.
@Suite struct RenderSampleInstantTests {
    @Test func laneSamplesArePointValuesAtTheirInstants() {
        let pattern = HapticPattern(
            events: [
                RenderFixture.continuous(at: 0.2, duration: 0.3, intensity: 0.9, attack: 0.5, release: 0.5),
                .transient(at: 0.3, intensity: 0.4, sharpness: 1),
            ],
            parameterCurves: [
                ParameterCurve(
                    .hapticSharpnessControl, time: 0.25,
                    controlPoints: [
                        ControlPoint(time: 0, value: -0.5), ControlPoint(time: 0.2, value: 0.5),
                    ])
            ])
        let playbacks = [Playback(pattern: pattern, startTime: 0.125)]
        let tickRate = 1000.0
        let channel = ReferenceRenderer.render(playbacks, channels: 1, sampleRate: tickRate, from: 0.25, to: 0.8)[0]
        var mismatches = 0
        for tick in channel.intensity.values.indices {
            let point = ReferenceRenderer.sample(playbacks, channel: 0, at: 0.25 + Double(tick) / tickRate)
            if point.intensity != channel.intensity.values[tick] || point.sharpness != channel.sharpness.values[tick] {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(channel.intensity.values.contains { $0 > 0.9 })  // the transient on top of the continuous event
    }
}
