import Testing

@testable import ThrumModel

/// SEMANTICS.md §4: AR and AD envelopes, Sustained, duration 0, timing controls.
@Suite struct RenderEnvelopeTests {
    typealias F = RenderFixture

    // AR: at 0.1, duration 0.3, attack 0.5 (111.111 ms), release 0.25 (29.023 ms), intensity 0.8.
    let attackRelease = HapticPattern(events: [
        F.continuous(at: 0.1, duration: 0.3, intensity: 0.8, attack: 0.5, release: 0.25)
    ])

    @Test func sustainedRisesOverTheAttack() {
        #expect(F.intensity(attackRelease, at: 0.1) == 0)
        #expect(isNear(F.intensity(attackRelease, at: 0.1 + F.seconds50 / 2), 0.4))
        #expect(isNear(F.intensity(attackRelease, at: 0.1 + F.seconds50 * 0.75), 0.6))
    }

    @Test func sustainedHoldsUntilTheDurationEnds() {
        #expect(F.intensity(attackRelease, at: 0.1 + F.seconds50) == 0.8)
        #expect(F.intensity(attackRelease, at: 0.399) == 0.8)
    }

    @Test func releaseFallsAfterTheDuration() {
        #expect(F.intensity(attackRelease, at: 0.4) == 0.8)
        #expect(isNear(F.intensity(attackRelease, at: 0.4 + F.seconds25 / 2), 0.4))
        #expect(F.intensity(attackRelease, at: 0.4 + F.seconds25) == 0)
        #expect(ReferenceRenderer.renderedDuration(of: attackRelease) == 0.4 + F.seconds25)
    }

    // AD: at 0, attack 0.25 (29.023 ms), decay 0.5 (111.111 ms), not sustained, long duration.
    let attackDecay = HapticPattern(events: [
        F.continuous(at: 0, duration: 1, intensity: 0.6, attack: 0.25, decay: 0.5, sustained: 0)
    ])

    @Test func notSustainedRisesThenDecaysAndEndsWithTheDecay() {
        #expect(isNear(F.intensity(attackDecay, at: F.seconds25 / 2), 0.3))
        #expect(isNear(F.intensity(attackDecay, at: F.seconds25), 0.6))
        #expect(isNear(F.intensity(attackDecay, at: F.seconds25 + F.seconds50 / 4), 0.45))
        #expect(F.intensity(attackDecay, at: F.seconds25 + F.seconds50) == 0)
        #expect(F.intensity(attackDecay, at: 0.5) == 0)
        #expect(abs(ReferenceRenderer.renderedDuration(of: attackDecay) - 1) < 1e-12)  // Apple's duration is longer
        let span = ReferenceRenderer.eventSpans(of: attackDecay)[0]
        #expect(abs(span.end - (F.seconds25 + F.seconds50)) < 1e-12)
    }

    @Test func drumsDecayOneLastsOneSecond() {
        // Apple's Drums.ahap: DecayTime 1, Sustained 0 on a 1 s event.
        let drum = HapticPattern(events: [F.continuous(at: 0, duration: 1, intensity: 0.45, decay: 1, sustained: 0)])
        #expect(F.intensity(drum, at: 0) == 0.45)
        #expect(isNear(F.intensity(drum, at: 0.5), 0.225))
        #expect(F.intensity(drum, at: 1) == 0)
    }

    @Test func durationEndingFirstReleasesFromWhereTheDecayIs() {
        // Decay 1 s, but the duration ends at 0.2 with release 0.5 (111 ms): gain = decay × release.
        let cut = HapticPattern(events: [F.continuous(at: 0, duration: 0.2, decay: 1, release: 0.5, sustained: 0)])
        #expect(isNear(F.intensity(cut, at: 0.1), 0.9))
        #expect(isNear(F.intensity(cut, at: 0.2), 0.8))
        let tau = 0.2 + F.seconds50 / 2
        #expect(isNear(F.intensity(cut, at: tau), Float((1 - tau) * 0.5)))
        #expect(F.intensity(cut, at: 0.2 + F.seconds50) == 0)
    }

    @Test func defaultEnvelopeIsAnExactRectangle() {
        let rectangle = HapticPattern(events: [.continuous(at: 0.25, duration: 0.5)])
        #expect(F.intensity(rectangle, at: 0.2499) == 0)
        #expect(F.intensity(rectangle, at: 0.25) == 0.6)  // Apple's continuous default intensity
        #expect(F.intensity(rectangle, at: 0.7499) == 0.6)
        #expect(F.intensity(rectangle, at: 0.75) == 0)
        #expect(ReferenceRenderer.renderedDuration(of: rectangle) == rectangle.duration)
    }

    @Test func sustainedIsReadWithAThresholdOfOneHalf() {
        let half = HapticPattern(events: [F.continuous(at: 0, duration: 0.5, decay: 0.5, sustained: 0.5)])
        let below = HapticPattern(events: [F.continuous(at: 0, duration: 0.5, decay: 0.5, sustained: 0.49)])
        #expect(F.intensity(half, at: 0.3) == 1)
        #expect(F.intensity(below, at: 0.3) == 0)
    }

    @Test func durationZeroPlaysOnlyTheReleaseTail() {
        let silent = HapticPattern(events: [.continuous(at: 0, duration: 0, intensity: 1)])
        #expect(F.intensity(silent, at: 0) == 0)
        let tail = HapticPattern(events: [F.continuous(at: 0, duration: 0, release: 0.5)])
        #expect(F.intensity(tail, at: 0) == 1)
        #expect(isNear(F.intensity(tail, at: F.seconds50 / 2), 0.5))
        #expect(F.intensity(tail, at: F.seconds50) == 0)
    }

    @Test func releaseThatBeginsDuringTheAttackFallsFromThere() {
        // Attack 111 ms, duration 55.5 ms, release 111 ms: gain = (τ/A) × (1 − (τ − d)/R).
        let early = HapticPattern(events: [F.continuous(at: 0, duration: F.seconds50 / 2, attack: 0.5, release: 0.5)])
        let tau = F.seconds50 * 0.75
        #expect(isNear(F.intensity(early, at: tau), 0.75 * 0.75))
    }

    @Test func authoredTimingControlAddsBeforeTheTable() {
        // Event attack 0 + HapticAttackTimeControl 0.5 => attack 111 ms.
        let pattern = HapticPattern(
            events: [.continuous(at: 0.1, duration: 1, intensity: 1)],
            parameters: [DynamicParameter(.hapticAttackTimeControl, value: 0.5, time: 0)])
        #expect(isNear(F.intensity(pattern, at: 0.1 + F.seconds50 / 2), 0.5))
    }

    @Test func timingControlIsReadWhenItsSegmentBegins() {
        let pattern = HapticPattern(events: [F.continuous(at: 0, duration: 0.5, release: 0.25)])
        // +0.25 sent before the release begins: release 0.5 => 111 ms.
        let before = [RuntimeControl.parameter(.hapticReleaseTimeControl, value: 0.25, at: 0.3)]
        #expect(isNear(F.intensity(pattern, at: 0.5 + F.seconds50 / 2, runtime: before), 0.5))
        // Sent after the release began: no effect, the release stays 29 ms.
        let after = [RuntimeControl.parameter(.hapticReleaseTimeControl, value: 0.25, at: 0.51)]
        #expect(F.intensity(pattern, at: 0.5 + F.seconds25, runtime: after) == 0)
        #expect(isNear(F.intensity(pattern, at: 0.5 + F.seconds25 / 2, runtime: after), 0.5))
    }

    @Test func negativeTimingControlShortensAndClampsAtZero() {
        let pattern = HapticPattern(
            events: [F.continuous(at: 0, duration: 0.2, attack: 0.5)],
            parameters: [DynamicParameter(.hapticAttackTimeControl, value: -1, time: 0)])
        #expect(F.intensity(pattern, at: 0) == 1)
    }

    @Test func transientsIgnoreTimingControls() {
        let pattern = HapticPattern(
            events: [.transient(at: 0, intensity: 1)],
            parameters: [DynamicParameter(.hapticDecayTimeControl, value: 1, time: 0)])
        #expect(F.intensity(pattern, at: 0.019) > 0)
        #expect(F.intensity(pattern, at: 0.020) == 0)
    }
}
