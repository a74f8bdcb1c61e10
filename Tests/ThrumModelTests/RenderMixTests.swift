import Testing

@testable import ThrumModel

/// SEMANTICS.md §2: sum-and-clip intensity, intensity-weighted sharpness, channels.
@Suite struct RenderMixTests {
    typealias F = RenderFixture

    @Test func intensitiesSum() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.3), .continuous(at: 0.5, duration: 1, intensity: 0.4),
        ])
        #expect(isNear(F.intensity(pattern, at: 0.25), 0.3))
        #expect(isNear(F.intensity(pattern, at: 0.75), 0.7))
    }

    @Test func sumClipsAtOne() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.7), .continuous(at: 0, duration: 1, intensity: 0.6),
        ])
        #expect(F.intensity(pattern, at: 0.5) == 1)
    }

    @Test func sharpnessIsTheIntensityWeightedMean() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.3, sharpness: 0.2),
            .continuous(at: 0, duration: 1, intensity: 0.6, sharpness: 0.8),
        ])
        #expect(isNear(F.sample(pattern, at: 0.5).sharpness, 0.6))  // (0.06 + 0.48) / 0.9
    }

    @Test func weightsAreTheUnclippedEnvelopedIntensities() {
        // 0.9 + 0.9 clips to 1, but the weights stay equal: mean of 0 and 1.
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.9, sharpness: 0),
            .continuous(at: 0, duration: 1, intensity: 0.9, sharpness: 1),
        ])
        #expect(F.intensity(pattern, at: 0.5) == 1)
        #expect(isNear(F.sample(pattern, at: 0.5).sharpness, 0.5))
    }

    @Test func transientOnTopOfAContinuousEvent() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.5, sharpness: 0.2),
            .transient(at: 0.5, intensity: 0.5, sharpness: 1),
        ])
        #expect(isNear(F.intensity(pattern, at: 0.505), 1))
        #expect(isNear(F.sample(pattern, at: 0.505).sharpness, 0.6))
        #expect(isNear(F.intensity(pattern, at: 0.515), 0.75))  // transient halfway down its fall
        #expect(isNear(F.sample(pattern, at: 0.515).sharpness, (0.5 * 0.2 + 0.25 * 1) / 0.75))
    }

    @Test func zeroIntensityEventDoesNotPullSharpness() {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0, sharpness: 1),
            .continuous(at: 0, duration: 1, intensity: 0.5, sharpness: 0.2),
        ])
        #expect(isNear(F.sample(pattern, at: 0.5).sharpness, 0.2))
    }

    @Test func playbacksMixPerChannel() {
        let a = Playback(
            pattern: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 0.3)]), startTime: 0)
        let b = Playback(
            pattern: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 0.4)]), startTime: 0.5)
        let other = Playback(
            pattern: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1)]), startTime: 0, channel: 1)
        let all = [a, b, other]
        #expect(isNear(ReferenceRenderer.sample(all, channel: 0, at: 0.25).intensity, 0.3))
        #expect(isNear(ReferenceRenderer.sample(all, channel: 0, at: 0.75).intensity, 0.7))
        #expect(ReferenceRenderer.sample(all, channel: 1, at: 0.75).intensity == 1)
        let channels = ReferenceRenderer.render(all, channels: 2, sampleRate: 100, from: 0, to: 1)
        #expect(channels.count == 2)
        #expect(isNear(channels[0].intensity.values[75], 0.7))
        #expect(channels[1].intensity.values[75] == 1)
    }

    @Test func authoredControlsOfOnePlaybackDoNotTouchAnother() {
        let quiet = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 0.5)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0, time: 0)])
        let loud = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 0.5)])
        let playbacks = [Playback(pattern: quiet, startTime: 0), Playback(pattern: loud, startTime: 0)]
        #expect(isNear(ReferenceRenderer.sample(playbacks, channel: 0, at: 0.5).intensity, 0.5))
    }
}
