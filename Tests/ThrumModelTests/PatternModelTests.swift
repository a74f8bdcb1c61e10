import Testing
import ThrumModel

@Suite("Pattern model")
struct PatternModelTests {
    @Test func durationIsTheLatestEventEndOrParameterOrCurvePoint() {
        var pattern = HapticPattern(events: [.transient(at: 0.2), .continuous(at: 0.1, duration: 0.5)])
        #expect(abs(pattern.duration - 0.6) < 1e-12)
        pattern.parameters = [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.9)]
        #expect(abs(pattern.duration - 0.9) < 1e-12)
        pattern.parameterCurves = [
            ParameterCurve(
                .hapticSharpnessControl, time: 0.5,
                controlPoints: [
                    ControlPoint(time: 0, value: 0), ControlPoint(time: 0.75, value: 1),
                ])
        ]
        #expect(abs(pattern.duration - 1.25) < 1e-12)
    }

    @Test func aTransientsDurationPadsThePattern() {
        let pattern = HapticPattern(events: [HapticEvent(.hapticTransient, time: 1, duration: 0.5)])
        #expect(pattern.duration == 1.5)
    }

    @Test func emptyPatternHasZeroDuration() {
        #expect(HapticPattern().duration == 0)
        #expect(HapticPattern().isEmpty)
    }

    @Test func normalizedSortsByTimeKeepingAuthoredOrderForTies() {
        let a = HapticEvent.transient(at: 0.3, intensity: 0.1)
        let b = HapticEvent.transient(at: 0.0, intensity: 0.2)
        let c = HapticEvent.transient(at: 0.3, intensity: 0.3)
        let d = HapticEvent.continuous(at: 0.0, duration: 1, intensity: 0.4)
        let sorted = HapticPattern(events: [a, b, c, d]).normalized().events
        #expect(sorted == [b, d, a, c])
    }

    @Test func absentParametersTakeCoreHapticsDefaultsPerEventType() {
        let transient = HapticEvent(.hapticTransient, time: 0)
        let continuous = HapticEvent(.hapticContinuous, time: 0, duration: 1)
        #expect(transient.intensity == 0.75)
        #expect(transient.sharpness == 0.5)
        #expect(continuous.intensity == 0.6)
        #expect(continuous.sharpness == 0.422601)
        #expect(continuous.isSustained)
        #expect(continuous.value(of: .audioVolume) == 1)
        #expect(continuous.value(of: .audioPan) == 0)
    }

    @Test func theLastAuthoredValueWinsAndIsClamped() {
        let event = HapticEvent(
            .hapticTransient, time: 0,
            parameters: [
                EventParameter(.hapticIntensity, 0.2), EventParameter(.hapticIntensity, 1.7),
                EventParameter(.audioPitch, -3),
            ])
        #expect(event.intensity == 1)
        #expect(event.value(of: .audioPitch) == -1)
    }

    @Test func controlsKnowHowTheyCombine() {
        #expect(DynamicParameterID.allCases.count == 12)
        #expect(EventParameterID.allCases.count == 10)
        #expect(DynamicParameterID.hapticIntensityControl.combination == .multiply)
        #expect(DynamicParameterID.hapticIntensityControl.neutralValue == 1)
        #expect(DynamicParameterID.hapticSharpnessControl.combination == .add)
        #expect(DynamicParameterID.hapticSharpnessControl.range == .signedUnit)
        #expect(DynamicParameterID.audioVolumeControl.combination == .multiply)
        #expect(DynamicParameterID.audioPitchControl.target == .audioPitch)
        #expect(DynamicParameterID.hapticReleaseTimeControl.appliesToHaptics)
        #expect(!DynamicParameterID.audioReleaseTimeControl.appliesToHaptics)
    }

    @Test func controlIndexIsTheDeclarationOrder() {
        // The timeline stores controls by this index: it must not move.
        for (position, id) in DynamicParameterID.allCases.enumerated() {
            #expect(id.index == position)
            #expect(DynamicParameterID(index: position) == id)
        }
        #expect(DynamicParameterID(index: 12) == nil)
        #expect(DynamicParameterID(index: -1) == nil)
    }

    @Test func rangeClampHandlesNaNAndInfinities() {
        #expect(ParameterRange.unit.clamp(.nan) == 0)
        #expect(ParameterRange.unit.clamp(.infinity) == 1)
        #expect(ParameterRange.signedUnit.clamp(-.infinity) == -1)
        #expect(ParameterRange.unit.clamp(0.25) == 0.25)
    }

    @Test func diagnosticPathsPrintLikeAHAPLocations() {
        let path = DiagnosticPath.root / "Pattern"
        let location = (path[3] / "Event" / "EventParameters")[1] / "ParameterValue"
        #expect(location.description == "Pattern[3].Event.EventParameters[1].ParameterValue")
        #expect(DiagnosticPath.root.description == "(root)")
        let diagnostic = Diagnostic(.warning, at: location, "clamped 1.5 to 1")
        #expect(
            diagnostic.description == "warning: Pattern[3].Event.EventParameters[1].ParameterValue: clamped 1.5 to 1")
    }
}
