import Testing

@testable import ThrumModel

/// SEMANTICS.md §5: a transient is full strength for 10 ms, then falls linearly to 0 at 20 ms.
@Suite struct RenderTransientTests {
    let pattern = HapticPattern(events: [.transient(at: 0.1, intensity: 0.8, sharpness: 0.3)])

    func at(_ time: Double) -> (intensity: Float, sharpness: Float) {
        ReferenceRenderer.sample([Playback(pattern: pattern, startTime: 0)], channel: 0, at: time)
    }

    @Test func peakIsTheIntensityFromTheEventTime() {
        #expect(at(0.1).intensity == 0.8)
        #expect(at(0.105).intensity == 0.8)
        #expect(at(0.1).sharpness == 0.3)
    }

    @Test func fallsLinearlyToZeroAt20ms() {
        #expect(abs(at(0.115).intensity - 0.4) < 1e-5)
        #expect(at(0.1199).intensity > 0)
        #expect(at(0.120).intensity == 0)
        #expect(at(0.0999).intensity == 0)
    }

    @Test func nothingPlayingMeansZeroSharpness() {
        #expect(at(0.05).sharpness == 0)
        #expect(at(0.2).sharpness == 0)
    }

    @Test func durationPadsThePatternButNotTheShape() {
        var padded = HapticEvent.transient(at: 0, intensity: 1)
        padded.duration = 0.5
        let pattern = HapticPattern(events: [padded])
        #expect(ReferenceRenderer.renderedDuration(of: pattern) == 0.5)
        let channel = ReferenceRenderer.render(pattern, sampleRate: 1000)
        #expect(channel.intensity.values.count == 501)
        #expect(channel.intensity.values.filter { $0 > 0 }.count == 20)
    }
}
