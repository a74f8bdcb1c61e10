import Testing

@testable import ThrumModel

/// SEMANTICS.md §3: curves, supersession, the two layers (multiply / add), clipping after both.
@Suite struct RenderControlTests {
    typealias F = RenderFixture

    /// A long full-intensity event with an intensity curve starting at 1.0:
    /// points (0.5, 0.2), (1.0, 1.0), (1.5, 0.6) relative to the curve start.
    func curvePattern(parameters: [DynamicParameter] = [], more: [ParameterCurve] = []) -> HapticPattern {
        let curve = ParameterCurve(
            .hapticIntensityControl, time: 1.0,
            controlPoints: [
                ControlPoint(time: 0.5, value: 0.2), ControlPoint(time: 1.0, value: 1.0),
                ControlPoint(time: 1.5, value: 0.6),
            ])
        return HapticPattern(
            events: [.continuous(at: 0, duration: 4, intensity: 1)],
            parameters: parameters, parameterCurves: [curve] + more)
    }

    @Test func curveIsNeutralBeforeItStarts() {
        #expect(F.intensity(curvePattern(), at: 0.5) == 1)
    }

    @Test func curveHoldsItsFirstValueUntilItsFirstPoint() {
        #expect(isNear(F.intensity(curvePattern(), at: 1.0), 0.2))
        #expect(isNear(F.intensity(curvePattern(), at: 1.2), 0.2))
        #expect(isNear(F.intensity(curvePattern(), at: 1.5), 0.2))
    }

    @Test func curveInterpolatesLinearlyBetweenPoints() {
        #expect(isNear(F.intensity(curvePattern(), at: 1.75), 0.6))
        #expect(isNear(F.intensity(curvePattern(), at: 2.0), 1.0))
        #expect(isNear(F.intensity(curvePattern(), at: 2.25), 0.8))
    }

    @Test func curveHoldsItsLastValueAfterItsLastPoint() {
        #expect(isNear(F.intensity(curvePattern(), at: 2.5), 0.6))
        #expect(isNear(F.intensity(curvePattern(), at: 3.9), 0.6))
    }

    @Test func laterParameterSupersedesARunningCurve() {
        let pattern = curvePattern(parameters: [DynamicParameter(.hapticIntensityControl, value: 0.3, time: 2.25)])
        #expect(isNear(F.intensity(pattern, at: 2.2), 0.84))  // still on the curve
        #expect(isNear(F.intensity(pattern, at: 2.25), 0.3))
        #expect(isNear(F.intensity(pattern, at: 3.0), 0.3))
    }

    @Test func laterCurveSupersedesAnEarlierOne() {
        let later = ParameterCurve(
            .hapticIntensityControl, time: 2.5, controlPoints: [ControlPoint(time: 0, value: 0.9)])
        let pattern = curvePattern(more: [later])
        #expect(isNear(F.intensity(pattern, at: 2.4), 0.68))  // still on the first curve
        #expect(isNear(F.intensity(pattern, at: 2.6), 0.9))
    }

    @Test func curveSupersedesAnEarlierParameterFromItsStart() {
        let pattern = curvePattern(parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.5)])
        #expect(F.intensity(pattern, at: 0.4) == 1)
        #expect(isNear(F.intensity(pattern, at: 0.9), 0.5))
        #expect(isNear(F.intensity(pattern, at: 1.0), 0.2))
    }

    @Test func curveWinsATieWithAParameter() {
        let pattern = curvePattern(parameters: [DynamicParameter(.hapticIntensityControl, value: 0.9, time: 1.0)])
        #expect(isNear(F.intensity(pattern, at: 1.1), 0.2))
    }

    @Test func equalTimePointsMakeAStep() {
        let step = ParameterCurve(
            .hapticIntensityControl, time: 0,
            controlPoints: [
                ControlPoint(time: 0, value: 1), ControlPoint(time: 0.5, value: 1),
                ControlPoint(time: 0.5, value: 0.25),
            ])
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1)], parameterCurves: [step])
        #expect(isNear(F.intensity(pattern, at: 0.4999), 1))
        #expect(isNear(F.intensity(pattern, at: 0.5), 0.25))
    }

    @Test func controlValuesAreClampedToTheirRange() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 0.5)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 1.5, time: 0)])
        #expect(F.intensity(pattern, at: 0.5) == 0.5)
    }

    @Test func curveWithoutPointsIsIgnored() {
        let empty = ParameterCurve(.hapticIntensityControl, time: 0.5, controlPoints: [])
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 1)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.4, time: 0)], parameterCurves: [empty])
        #expect(isNear(F.intensity(pattern, at: 0.7), 0.4))
    }

    @Test func intensityLayersMultiply() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 0.8)],
            parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)])
        let runtime = [RuntimeControl.parameter(.hapticIntensityControl, value: 0.5, at: 0.2)]
        #expect(isNear(F.intensity(pattern, at: 0.1, runtime: runtime), 0.4))
        #expect(isNear(F.intensity(pattern, at: 0.3, runtime: runtime), 0.2))
    }

    @Test func sharpnessLayersAddAndClipOnlyAfterBoth() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.9)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: 0.3, time: 0)])
        let runtime = [RuntimeControl.parameter(.hapticSharpnessControl, value: -0.3, at: 0)]
        #expect(isNear(F.sample(pattern, at: 0.5, runtime: runtime).sharpness, 0.9))
        #expect(F.sample(pattern, at: 0.5).sharpness == 1)
        let down = [RuntimeControl.parameter(.hapticSharpnessControl, value: -1, at: 0)]
        #expect(isNear(F.sample(pattern, at: 0.5, runtime: down).sharpness, 0.2))
    }

    @Test func sharpnessControlActsOnTransientsToo() {
        let pattern = HapticPattern(
            events: [.transient(at: 0, intensity: 1, sharpness: 0.5)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: 0.25, time: 0)])
        #expect(F.sample(pattern, at: 0.005).sharpness == 0.75)
    }

    @Test func runtimeCurveIsInBoardTimeWithPointsRelativeToItsStart() {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 2, intensity: 1)])
        let curve = ParameterCurve(
            .hapticIntensityControl, time: 99,
            controlPoints: [
                ControlPoint(time: 0, value: 0), ControlPoint(time: 1, value: 1),
            ])
        let runtime = [RuntimeControl(scheduled: curve, at: 0.5)]
        #expect(F.intensity(pattern, at: 0.4, runtime: runtime) == 1)
        #expect(isNear(F.intensity(pattern, at: 0.75, runtime: runtime), 0.25))
        #expect(isNear(F.intensity(pattern, at: 1.75, runtime: runtime), 1))
    }

    @Test func sentParameterTimeIsAnOffsetFromItsSendTime() {
        let control = RuntimeControl(sent: DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.25), at: 1)
        #expect(control.boardTime == 1.25)
        #expect(control.change == .value(0.5))
    }

    @Test func laterRuntimeEntryWinsATie() {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1)])
        let runtime = [
            RuntimeControl.parameter(.hapticIntensityControl, value: 0.2, at: 0.5),
            RuntimeControl.parameter(.hapticIntensityControl, value: 0.7, at: 0.5),
        ]
        #expect(isNear(F.intensity(pattern, at: 0.5, runtime: runtime), 0.7))
    }
}
