import Foundation
import Testing

@testable import ThrumModel

@Suite struct StrictModeTests {
    @Test func warningsBecomeErrors() {
        let json = ahap(#"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 1.5}}"#)
        #expect(readAHAP(json).pattern?.parameters.first?.value == 1)
        let strict = readAHAP(json, mode: .strict)
        #expect(strict.pattern == nil)
        #expect(
            strict.lines(.error) == ["Pattern[0].Parameter.ParameterValue: the value 1.5 is outside 0…1; clamped to 1"])
    }

    @Test func missingVersionIsAnErrorInStrictMode() {
        let strict = readAHAP(#"{"Pattern": [\#(transientElement)]}"#, mode: .strict)
        #expect(strict.lines(.error) == ["Version: missing `Version`; assuming 1.0"])
    }

    @Test(arguments: [
        (
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.07, "ParameterCurveControlPoints": [{"Time": 0.07, "ParameterValue": 1}, {"Time": 0.37, "ParameterValue": 0}]}}"#,
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time: control-point times look absolute: the first point is at the curve's own start time 0.07; control-point times are relative to the curve's `Time`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 31}}"#,
            "Pattern[0].Event.EventDuration: a continuous event of 31 s; Core Haptics plays at most 30 s"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous"}}"#,
            "Pattern[0].Event: a sustained continuous event without `EventDuration` has no length"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "hapticTransient"}}"#,
            "Pattern[0].Event.EventType: `hapticTransient` should be spelled `HapticTransient`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "hapticintensity", "ParameterValue": 1}]}}"#,
            "Pattern[0].Event.EventParameters[0].ParameterID: `hapticintensity` should be spelled `HapticIntensity`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "Name": "pop"}}"#,
            "Pattern[0].Event: unknown key `Name` ignored"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventWaveformPath": "a.wav"}}"#,
            "Pattern[0].Event.EventWaveformPath: `EventWaveformPath` is ignored on HapticTransient events"
        ),
    ])
    func lintsAreWarningsOnlyInStrictMode(element: String, expected: String) {
        let standard = readAHAP(ahap(element))
        #expect(standard.pattern != nil)
        #expect(standard.diagnostics.isEmpty)
        let strict = readAHAP(ahap(element), mode: .strict)
        #expect(strict.pattern != nil)
        #expect(strict.lines(.warning) == [expected])
    }

    @Test func curvesOverSixteenPointsAreLinted() {
        let points = (0..<17).map { #"{"Time": \#(Double($0) / 10), "ParameterValue": 0.5}"# }.joined(separator: ",")
        let element =
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [\#(points)]}}"#
        #expect(readAHAP(ahap(element)).diagnostics.isEmpty)
        #expect(
            readAHAP(ahap(element), mode: .strict).lines(.warning) == [
                "Pattern[0].ParameterCurve.ParameterCurveControlPoints: a curve of 17 control points; Core Haptics devices take at most 16"
            ])
        let sixteen = element.replacingOccurrences(of: #",{"Time": 1.6, "ParameterValue": 0.5}"#, with: "")
        #expect(sixteen != element)
        #expect(readAHAP(ahap(sixteen), mode: .strict).diagnostics.isEmpty)
    }
}

@Suite struct PatternValidatorTests {
    @Test func aCleanPatternHasNoFindings() {
        let pattern = SyntheticAHAP.pattern(events: 200, seed: 3)
        #expect(PatternValidator.validate(pattern).isEmpty)
        #expect(PatternValidator.validate(pattern, mode: .strict).isEmpty)
    }

    @Test func locationsFollowTheWritersOrder() {
        let pattern = HapticPattern(
            events: [.transient(at: 0), .transient(at: -1, intensity: 2)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: .nan, time: 0)],
            parameterCurves: [
                ParameterCurve(
                    .hapticIntensityControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: 0.2, value: 0), ControlPoint(time: 0.1, value: 1.5),
                    ])
            ])
        let lines = PatternValidator.validate(pattern).map { "\($0.severity): \($0.location): \($0.message)" }
        #expect(
            lines == [
                "error: Pattern[1].Event.Time: the time -1 is negative",
                "warning: Pattern[1].Event.EventParameters[0].ParameterValue: the value 2 is outside 0…1; clamped to 1",
                "error: Pattern[2].Parameter.ParameterValue: the value is not a number (NaN)",
                "warning: Pattern[3].ParameterCurve.ParameterCurveControlPoints[1].Time: control-point times go backwards here; they play sorted by time",
                "warning: Pattern[3].ParameterCurve.ParameterCurveControlPoints[1].ParameterValue: the value 1.5 is outside 0…1; clamped to 1",
            ])
        // The same pattern written and read back reports the same locations.
        let read = PatternFile.read(data: AHAPWriter.data(for: pattern), name: "x")
        #expect(read.errorLocations == ["Pattern[1].Event.Time"])
    }

    @Test func checksTimesDurationsAndAudio() {
        let pattern = HapticPattern(events: [
            .continuous(at: .infinity, duration: 1),
            .continuous(at: 0, duration: 1e6),
            HapticEvent(.audioCustom, time: 0),
            HapticEvent(.audioCustom, time: 0, waveform: AudioWaveform(resourceID: 3)),
        ])
        let lines = PatternValidator.validate(pattern, mode: .strict).map {
            "\($0.severity): \($0.location): \($0.message)"
        }
        #expect(
            lines == [
                "error: Pattern[0].Event.Time: the time inf is not a finite number",
                "error: Pattern[1].Event.EventDuration: the time 1000000 s is later than the limit of 86400 s",
                "warning: Pattern[1].Event.EventDuration: a continuous event of 1000000 s; Core Haptics plays at most 30 s",
                "error: Pattern[2].Event: an AudioCustom event needs a waveform path or a registered resource",
                "warning: Pattern[3].Event.EventWaveformPath: an AudioCustom event with only a resource ID cannot be written to an AHAP file",
            ])
    }

    @Test func versionOutsideTheKnownRangeIsAnError() {
        let lines = PatternValidator.validate(HapticPattern(version: 2, events: [.transient(at: 0)])).map(\.description)
        #expect(lines == ["error: Version: unsupported Version 2.0; AHAP knows 1.0 to 1.1"])
    }
}
