import Testing

@testable import ThrumModel

/// SEMANTICS.md §7: start time, playback rate, loops, stop.
@Suite struct RenderPlaybackTests {
    func intensity(_ playback: Playback, at time: Double) -> Float {
        ReferenceRenderer.sample([playback], channel: 0, at: time).intensity
    }

    @Test func startTimeShiftsEverything() {
        let playback = Playback(pattern: HapticPattern(events: [.transient(at: 0.1, intensity: 1)]), startTime: 2)
        #expect(intensity(playback, at: 0.1) == 0)
        #expect(intensity(playback, at: 2.1) == 1)
    }

    @Test func rateScalesEventTimesAndContinuousDurations() {
        let pattern = HapticPattern(events: [.continuous(at: 1, duration: 1, intensity: 1)])
        let fast = Playback(pattern: pattern, startTime: 0, playbackRate: 2)
        #expect(intensity(fast, at: 0.4999) == 0)
        #expect(intensity(fast, at: 0.5) == 1)
        #expect(intensity(fast, at: 0.9999) == 1)
        #expect(intensity(fast, at: 1.0) == 0)
    }

    @Test func rateDoesNotScaleTheTransientShapeOrEnvelopeTimes() {
        let transient = Playback(
            pattern: HapticPattern(events: [.transient(at: 0.5, intensity: 1)]), startTime: 0, playbackRate: 2)
        #expect(intensity(transient, at: 0.25 + 0.015) == 0.5)
        #expect(intensity(transient, at: 0.25 + 0.02) == 0)
        let released = HapticPattern(events: [RenderFixture.continuous(at: 0, duration: 1, release: 0.5)])
        let slow = Playback(pattern: released, startTime: 0, playbackRate: 0.5)
        #expect(isNear(intensity(slow, at: 2 + RenderFixture.seconds50 / 2), 0.5))
    }

    @Test func rateScalesAuthoredControlsButNotRuntimeOnes() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 4, intensity: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 1.5)])
        let runtime = [RuntimeControl.parameter(.hapticIntensityControl, value: 0.5, at: 1.5)]
        let fast = Playback(pattern: pattern, startTime: 0, playbackRate: 2, runtimeControls: runtime)
        #expect(intensity(fast, at: 0.7) == 1)
        #expect(intensity(fast, at: 0.75) == 0.5)  // authored 1.5 / 2
        #expect(intensity(fast, at: 1.5) == 0.25)  // run-time at board 1.5, both layers
    }

    @Test func unusableRateCountsAsOne() {
        let pattern = HapticPattern(events: [.transient(at: 0.5, intensity: 1)])
        for rate: Float in [0, -1, .nan, .infinity] {
            #expect(intensity(Playback(pattern: pattern, startTime: 0, playbackRate: rate), at: 0.5) == 1)
        }
    }

    // Transient at 0, continuous 0.1..0.2: end of the last event 0.2.
    let loopPattern = HapticPattern(events: [
        .transient(at: 0, intensity: 1), .continuous(at: 0.1, duration: 0.1, intensity: 0.5),
    ])

    @Test func loopEndZeroLoopsAtTheEndOfTheLastEvent() {
        let looping = Playback(pattern: loopPattern, startTime: 0, loop: LoopSettings())
        #expect(looping.loopLengthInPatternTime == 0.2)
        #expect(intensity(looping, at: 0.2) == 1)
        #expect(intensity(looping, at: 0.4) == 1)
        #expect(intensity(looping, at: 0.45) == 0)
        #expect(intensity(looping, at: 10.35) == 0.5)
        #expect(intensity(Playback(pattern: loopPattern, startTime: 0), at: 0.4) == 0)
    }

    @Test func explicitLoopEndLeavesAGap() {
        let looping = Playback(pattern: loopPattern, startTime: 0, loop: LoopSettings(loopEnd: 0.5))
        #expect(intensity(looping, at: 0.25) == 0)
        #expect(intensity(looping, at: 0.5) == 1)
        #expect(intensity(looping, at: 0.65) == 0.5)
    }

    @Test func eventsFromTheLoopEndOnAreNotPlayed() {
        let pattern = HapticPattern(events: [.transient(at: 0, intensity: 0.5), .transient(at: 0.6, intensity: 1)])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings(loopEnd: 0.5))
        #expect(intensity(looping, at: 0.6) == 0)
        #expect(intensity(looping, at: 0.5) == 0.5)
    }

    @Test func tailsOfOnePassMixWithTheNext() {
        // Rectangle 0..0.1 with a 1 s release; loop every 0.5 s.
        let pattern = HapticPattern(events: [RenderFixture.continuous(at: 0, duration: 0.1, intensity: 0.4, release: 1)]
        )
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings(loopEnd: 0.5))
        // Pass 0 at τ = 0.55: 0.4 × (1 − 0.45) = 0.22; pass 1 at τ = 0.05: 0.4.
        #expect(isNear(intensity(looping, at: 0.55), 0.62))
    }

    @Test func loopWithRateRepeatsInBoardTime() {
        let looping = Playback(pattern: loopPattern, startTime: 1, playbackRate: 2, loop: LoopSettings(loopEnd: 0.5))
        #expect(intensity(looping, at: 1.25) == 1)
        #expect(intensity(looping, at: 1.30) == 0.5)
    }

    @Test func loopOfNothingPlaysOnce() {
        let pattern = HapticPattern(events: [.transient(at: 0, intensity: 1)])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings())
        #expect(looping.loopLengthInPatternTime == nil)
        #expect(intensity(looping, at: 0) == 1)
        #expect(intensity(looping, at: 0.5) == 0)
    }

    @Test func authoredControlsRepeatWithEachPass() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 0.4, intensity: 1)],
            parameters: [
                DynamicParameter(.hapticIntensityControl, value: 1, time: 0),
                DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.2),
            ])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings())
        #expect(intensity(looping, at: 0.1) == 1)
        #expect(intensity(looping, at: 0.3) == 0.5)
        #expect(intensity(looping, at: 0.5) == 1)
        #expect(intensity(looping, at: 0.7) == 0.5)
    }

    @Test func previousPassControlHoldsUntilSuperseded() {
        // Only one entry, at 0.2: the first pass starts neutral, later passes start where the last one ended.
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 0.4, intensity: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.2)])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings())
        #expect(intensity(looping, at: 0.1) == 1)
        #expect(intensity(looping, at: 0.5) == 0.5)
    }

    @Test func curveStillRunningAtThePassEndContinuesIntoTheNextPass() {
        // Curve at 0.1 ramps 0 → 1 over 0.8 s; the loop is 0.5 s, so it runs 0.4 s into the next pass.
        let ramp = ParameterCurve(
            .hapticIntensityControl, time: 0.1,
            controlPoints: [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 0.8, value: 1),
            ])
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.5, intensity: 1)], parameterCurves: [ramp])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings())
        #expect(isNear(intensity(looping, at: 0.55), 0.5625))  // previous curve at 0.45 s of 0.8
        #expect(isNear(intensity(looping, at: 0.6), 0))  // superseded by this pass's curve
    }

    @Test func tailsOfThePreviousPassFollowTheCurrentControls() {
        let pattern = HapticPattern(
            events: [RenderFixture.continuous(at: 0, duration: 0.1, intensity: 0.4, release: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.3)])
        let looping = Playback(pattern: pattern, startTime: 0, loop: LoopSettings(loopEnd: 0.5))
        #expect(isNear(intensity(looping, at: 0.55), 0.31))  // (0.22 + 0.4) × 0.5
    }

    @Test func stopSilencesFromTheStopTime() {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1)])
        let stopped = Playback(pattern: pattern, startTime: 0, stopTime: 0.5)
        #expect(intensity(stopped, at: 0.4999) == 1)
        #expect(intensity(stopped, at: 0.5) == 0)
    }
}
