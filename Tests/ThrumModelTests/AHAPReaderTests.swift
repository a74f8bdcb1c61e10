import Foundation
import Testing

@testable import ThrumModel

@Suite struct AHAPReaderTolerances {
    @Test func readsAMinimalPattern() throws {
        let result = readAHAP(ahap(transientElement))
        let pattern = try #require(result.pattern)
        #expect(result.diagnostics.isEmpty)
        #expect(result.format == .ahap)
        #expect(pattern.events == [HapticEvent(.hapticTransient, time: 0)])
        #expect(pattern.version == 1.0)
    }

    @Test func readsEveryKeyOfTheSchema() throws {
        let json = """
            {"Version": 1.1, "Metadata": {"Project": "P", "Created": "today", "Description": "d"},
             "Pattern": [
              {"Event": {"Time": 0.5, "EventType": "AudioCustom", "EventDuration": 1.5,
                         "EventWaveformPath": "Sounds/a b.wav", "EventWaveformUseVolumeEnvelope": false,
                         "EventWaveformLoopEnabled": true,
                         "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.25},
                                             {"ParameterID": "AudioPitch", "ParameterValue": -0.5},
                                             {"ParameterID": "AudioPan", "ParameterValue": 0.75},
                                             {"ParameterID": "AudioBrightness", "ParameterValue": 0.125}]}},
              {"Event": {"Time": 0.25, "EventType": "HapticContinuous", "EventDuration": 2,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5},
                                             {"ParameterID": "HapticSharpness", "ParameterValue": 0.25},
                                             {"ParameterID": "AttackTime", "ParameterValue": 0.1},
                                             {"ParameterID": "DecayTime", "ParameterValue": 0.2},
                                             {"ParameterID": "ReleaseTime", "ParameterValue": 0.3},
                                             {"ParameterID": "Sustained", "ParameterValue": 0}]}},
              {"Event": {"Time": 1, "EventType": "AudioContinuous", "EventDuration": 0.5}},
              {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.1, "ParameterValue": 0.5}},
              {"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0.2,
                                  "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": -0.5},
                                                                  {"Time": 0.3, "ParameterValue": 0.5}]}}
             ]}
            """
        let result = readAHAP(json)
        let pattern = try #require(result.pattern, "\(result.diagnostics)")
        #expect(result.diagnostics.isEmpty)
        #expect(pattern.version == 1.1)
        #expect(pattern.metadata == ["Project": "P", "Created": "today", "Description": "d"])
        #expect(pattern.events.map(\.type) == [.hapticContinuous, .audioCustom, .audioContinuous])
        let audio = pattern.events[1]
        #expect(audio.time == 0.5 && audio.duration == 1.5)
        #expect(audio.waveform == AudioWaveform(path: "Sounds/a b.wav", useVolumeEnvelope: false, loopEnabled: true))
        #expect(audio.value(of: .audioPitch) == -0.5)
        #expect(audio.value(of: .audioBrightness) == 0.125)
        let continuous = pattern.events[0]
        #expect(
            continuous.parameters.map(\.id) == [
                .hapticIntensity, .hapticSharpness, .attackTime, .decayTime, .releaseTime, .sustained,
            ])
        #expect(continuous.isSustained == false)
        #expect(pattern.parameters == [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.1)])
        #expect(
            pattern.parameterCurves == [
                ParameterCurve(
                    .hapticSharpnessControl, time: 0.2,
                    controlPoints: [
                        ControlPoint(time: 0, value: -0.5), ControlPoint(time: 0.3, value: 0.5),
                    ])
            ])
    }

    @Test func acceptsTrailingCommasAndAByteOrderMark() throws {
        let json =
            "\u{FEFF}" + #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient",},},],}"#
        let result = readAHAP(json)
        #expect(result.pattern?.events.count == 1)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func acceptsVersionAsAnInteger() throws {
        let result = readAHAP(#"{"Version": 1, "Pattern": [\#(transientElement)]}"#)
        #expect(result.pattern?.version == 1.0)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func missingVersionMeansOnePointZeroWithAWarning() throws {
        let result = readAHAP(#"{"Pattern": [\#(transientElement)]}"#)
        #expect(result.pattern?.version == 1.0)
        #expect(result.lines(.warning) == ["Version: missing `Version`; assuming 1.0"])
    }

    @Test func malformedVersionIsAssumedOnePointZero() throws {
        let result = readAHAP(#"{"Version": true, "Pattern": [\#(transientElement)]}"#)
        #expect(result.pattern?.version == 1.0)
        #expect(result.lines(.warning) == ["Version: malformed `Version` (the boolean true); assuming 1.0"])
        let text = readAHAP(#"{"Version": "abc", "Pattern": [\#(transientElement)]}"#)
        #expect(text.pattern?.version == 1.0)
        #expect(text.lines(.warning) == [#"Version: malformed `Version` (the string "abc"); assuming 1.0"#])
        let numeric = readAHAP(#"{"Version": "1.1", "Pattern": [\#(transientElement)]}"#)
        #expect(numeric.pattern?.version == 1.1)
        #expect(numeric.lines(.warning) == [#"Version: a number written as a string ("1.1")"#])
    }

    @Test func versionOutsideOneToOnePointOneIsAnError() {
        for version in ["0.9", "1.2", "2"] {
            let result = readAHAP(#"{"Version": \#(version), "Pattern": [\#(transientElement)]}"#)
            #expect(result.pattern == nil)
            #expect(result.lines(.error) == ["Version: unsupported Version \(version); this reader knows 1.0 to 1.1"])
        }
    }

    @Test func unknownKeysAreIgnoredSilently() throws {
        let json = """
            {"Version": 1.0, "Extra": [1, {"a": null}], "Pattern": [
              {"Event": {"Name": "pop", "Time": 0, "EventType": "HapticTransient",
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5, "Note": 1}]}}]}
            """
        let result = readAHAP(json)
        #expect(result.pattern?.events.first?.intensity == 0.5)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func unknownPatternElementIsIgnoredWithAWarning() throws {
        let json = ahap(transientElement, #"{"ParameterCurves": {"ParameterID": "HapticIntensityControl", "Time": 0}}"#)
        let result = readAHAP(json)
        #expect(result.pattern?.parameterCurves.isEmpty == true)
        #expect(
            result.lines(.warning) == [
                "Pattern[1]: unknown pattern element `ParameterCurves` ignored (expected Event, Parameter or ParameterCurve)"
            ])
    }

    @Test func eventsAreStablySortedByTime() throws {
        let json = ahap(
            #"{"Event": {"Time": 0.3, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.1}]}}"#,
            #"{"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.2}]}}"#,
            #"{"Event": {"Time": 0.3, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.3}]}}"#,
            #"{"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.4}]}}"#
        )
        let pattern = try #require(readAHAP(json).pattern)
        #expect(pattern.events.map(\.time) == [0.1, 0.1, 0.3, 0.3])
        #expect(pattern.events.map(\.intensity) == [0.2, 0.4, 0.1, 0.3])
    }

    @Test func timeAliasesAreAccepted() throws {
        let json = ahap(
            #"{"Event": {"EventTime": 0.5, "EventType": "HapticTransient"}}"#,
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "ParameterTime": 0.25, "ParameterValue": 0.5}}"#
        )
        let pattern = try #require(readAHAP(json).pattern)
        #expect(pattern.events.first?.time == 0.5)
        #expect(pattern.parameters.first?.time == 0.25)
    }

    @Test func numbersWrittenAsStringsAreAcceptedWithAWarning() throws {
        let json = ahap(#"{"Event": {"Time": "0.5", "EventType": "HapticTransient"}}"#)
        let result = readAHAP(json)
        #expect(result.pattern?.events.first?.time == 0.5)
        #expect(result.lines(.warning) == [#"Pattern[0].Event.Time: a number written as a string ("0.5")"#])
    }

    @Test func outOfRangeValuesAreClampedWithAWarning() throws {
        let json = ahap(
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": -1.0}]}}"#,
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 1.012}}"#,
            #"{"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 3}]}}"#
        )
        let result = readAHAP(json)
        let pattern = try #require(result.pattern)
        #expect(pattern.events[0].parameters == [EventParameter(.hapticSharpness, 0)])
        #expect(pattern.parameters[0].value == 1)
        #expect(pattern.parameterCurves[0].controlPoints[0].value == 1)
        #expect(
            result.lines(.warning) == [
                "Pattern[0].Event.EventParameters[0].ParameterValue: the value -1.0 is outside 0…1; clamped to 0",
                "Pattern[1].Parameter.ParameterValue: the value 1.012 is outside 0…1; clamped to 1",
                "Pattern[2].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue: the value 3 is outside -1…1; clamped to 1",
            ])
    }

    @Test func unknownParameterIDsAreDroppedWithAWarningAndAHint() throws {
        let json = ahap(
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticAttackTime", "ParameterValue": 0.5}, {"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}"#,
            #"{"Parameter": {"ParameterID": "Wobble", "Time": 0, "ParameterValue": 1}}"#
        )
        let result = readAHAP(json)
        let pattern = try #require(result.pattern)
        #expect(pattern.events[0].parameters == [EventParameter(.hapticIntensity, 0.5)])
        #expect(pattern.parameters.isEmpty)
        #expect(
            result.lines(.warning) == [
                "Pattern[0].Event.EventParameters[0].ParameterID: unknown ParameterID `HapticAttackTime` ignored (did you mean `AttackTime`?)",
                "Pattern[1].Parameter.ParameterID: unknown ParameterID `Wobble` ignored",
            ])
    }

    @Test func lowercaseTypeAndIDValuesAreAcceptedSilently() throws {
        let json = ahap(
            #"{"Event": {"Time": 0, "EventType": "hapticTransient", "EventParameters": [{"ParameterID": "hapticIntensity", "ParameterValue": 0.5}]}}"#
        )
        let result = readAHAP(json)
        #expect(result.pattern?.events == [.transient(at: 0, intensity: 0.5)])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func missingParameterValueDefaultsToZero() throws {
        let result = readAHAP(ahap(#"{"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0}}"#))
        #expect(result.pattern?.parameters == [DynamicParameter(.hapticSharpnessControl, value: 0, time: 0)])
    }

    @Test func controlPointsOutOfOrderAreSortedWithAWarning() throws {
        let json = ahap(
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0.2, "ParameterValue": 0.2}, {"Time": 0.1, "ParameterValue": 0.1}]}}"#
        )
        let result = readAHAP(json)
        #expect(result.pattern?.parameterCurves.first?.controlPoints.map(\.time) == [0.1, 0.2])
        #expect(result.warningLocations == ["Pattern[0].ParameterCurve.ParameterCurveControlPoints[1].Time"])
    }

    @Test func duplicateKeysTakeTheLastValue() throws {
        let result = readAHAP(ahap(#"{"Event": {"Time": 0.1, "Time": 0.2, "EventType": "HapticTransient"}}"#))
        #expect(result.pattern?.events.first?.time == 0.2)
    }

    @Test func metadataKeepsTextAndNumbers() throws {
        let result = readAHAP(
            #"{"Metadata": {"A": "x", "B": 2, "C": [1]}, "Version": 1, "Pattern": [\#(transientElement)]}"#)
        #expect(result.pattern?.metadata == ["A": "x", "B": "2"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func escapedStringsAreDecoded() throws {
        let result = readAHAP(
            #"{"Version": 1, "Metadata": {"D\u0065sc": "a\"b\\c\n\u00e9\ud83d\ude00"}, "Pattern": [{"Event": {"Time": 0, "EventType": "Haptic\u0054ransient"}}]}"#
        )
        #expect(result.pattern?.metadata == ["Desc": "a\"b\\c\né😀"])
        #expect(result.pattern?.events.first?.type == .hapticTransient)
    }

    @Test func readsAPropertyListDictionaryThroughTheSameRules() throws {
        let dictionary: [String: Any] = [
            "Version": 1.0,
            "Pattern": [
                [
                    "Event": [
                        "Time": 0.25, "EventType": "HapticTransient",
                        "EventParameters": [["ParameterID": "HapticIntensity", "ParameterValue": 1.5]],
                    ]
                ],
                ["Event": ["Time": Double.nan, "EventType": "HapticTransient"]],
            ],
        ]
        let result = PatternFile.read(dictionary: dictionary)
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == [#"Pattern[1].Event.Time: expected a number, found the string "nan""#])
        #expect(
            result.lines(.warning) == [
                "Pattern[0].Event.EventParameters[0].ParameterValue: the value 1.5 is outside 0…1; clamped to 1"
            ])
        #expect(result.diagnostics.allSatisfy { $0.position == nil })
    }
}

@Suite struct AHAPReaderErrors {
    @Test func missingPatternSaysSo() {
        let result = readAHAP(#"{"Event": {"Time": 0, "EventType": "HapticTransient"}}"#)
        #expect(result.pattern == nil)
        #expect(
            result.lines(.error) == ["Pattern: missing `Pattern`: not a complete AHAP pattern (top-level keys: Event)"])
    }

    @Test func emptyPatternIsAnError() {
        let result = readAHAP(#"{"Version": 1.0, "Pattern": []}"#)
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == ["Pattern: the pattern is empty: it has no Event, Parameter or ParameterCurve"])
    }

    @Test func topLevelMustBeAnObject() {
        let result = readAHAP("[1, 2]")
        #expect(result.pattern == nil)
        #expect(result.format == nil)
        #expect(result.lines(.error) == ["(root): expected a pattern object at the top level, found an array"])
    }

    @Test(arguments: [
        (#"{"Event": {"EventType": "HapticTransient"}}"#, "Pattern[0].Event: missing required key `Time`"),
        (#"{"Event": {"Time": 0}}"#, "Pattern[0].Event: missing required key `EventType`"),
        (
            #"{"Event": {"Time": -0.5, "EventType": "HapticTransient"}}"#,
            "Pattern[0].Event.Time: the time -0.5 is negative"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": -1}}"#,
            "Pattern[0].Event.EventDuration: the time -1 is negative"
        ),
        (
            #"{"Event": {"Time": 1e9, "EventType": "HapticTransient"}}"#,
            "Pattern[0].Event.Time: the time 1000000000 s is later than the limit of 86400 s"
        ),
        (
            #"{"Event": {"Time": 86000, "EventType": "HapticContinuous", "EventDuration": 1000}}"#,
            "Pattern[0].Event.EventDuration: the event ends at 87000 s, later than the limit of 86400 s"
        ),
        (
            #"{"Event": {"Time": 1e999, "EventType": "HapticTransient"}}"#,
            "Pattern[0].Event.Time: the number 1e999 is too large"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticBuzz"}}"#,
            "Pattern[0].Event.EventType: unknown EventType `HapticBuzz`; expected one of HapticTransient, HapticContinuous, AudioContinuous, AudioCustom"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": 3}}"#,
            "Pattern[0].Event.EventType: expected a string, found the number 3"
        ),
        (
            #"{"Event": {"Time": true, "EventType": "HapticTransient"}}"#,
            "Pattern[0].Event.Time: expected a number, found the boolean true"
        ),
        (
            #"{"Event": {"Time": "soon", "EventType": "HapticTransient"}}"#,
            #"Pattern[0].Event.Time: expected a number, found the string "soon""#
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "AudioCustom"}}"#,
            "Pattern[0].Event: an AudioCustom event needs `EventWaveformPath`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": {}}}"#,
            "Pattern[0].Event.EventParameters: expected an array, found an object"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterValue": 1}]}}"#,
            "Pattern[0].Event.EventParameters[0]: missing required key `ParameterID`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity"}]}}"#,
            "Pattern[0].Event.EventParameters[0]: missing required key `ParameterValue`"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": null}]}}"#,
            "Pattern[0].Event.EventParameters[0].ParameterValue: expected a number, found null"
        ),
        (
            #"{"Event": {"Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav", "EventWaveformLoopEnabled": "yes"}}"#,
            #"Pattern[0].Event.EventWaveformLoopEnabled: expected true or false, found the string "yes""#
        ),
        (
            #"{"Parameter": {"Time": 0, "ParameterValue": 1}}"#,
            "Pattern[0].Parameter: missing required key `ParameterID`"
        ),
        (
            #"{"Parameter": {"ParameterID": "HapticIntensityControl", "ParameterValue": 1}}"#,
            "Pattern[0].Parameter: missing required key `Time`"
        ),
        (
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "ParameterCurveControlPoints": []}}"#,
            "Pattern[0].ParameterCurve: missing required key `Time`"
        ),
        (
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0}]}}"#,
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]: missing required key `ParameterValue`"
        ),
        (
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"ParameterValue": 1}]}}"#,
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0]: missing required key `Time`"
        ),
        (
            #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": -1, "ParameterValue": 1}]}}"#,
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time: the time -1 is negative"
        ),
        ("42", "Pattern[0]: expected an object, found the number 42"),
    ])
    func elementErrorsNameTheirLocation(element: String, expected: String) {
        let result = readAHAP(ahap(element))
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == [expected])
    }

    @Test func errorsCarryTheirSourcePosition() throws {
        let json =
            "{\"Version\": 1.0,\n \"Pattern\": [\n  {\"Event\": {\"Time\": -1, \"EventType\": \"HapticTransient\"}}]}"
        let result = readAHAP(json)
        let error = try #require(result.diagnostics.errors.first)
        let minus = try #require(Array(json.utf8).firstIndex(of: UInt8(ascii: "-")))
        #expect(error.position == SourcePosition(line: 3, column: 22, offset: minus))
        #expect(error.description == "error: Pattern[0].Event.Time: the time -1 is negative (line 3, column 22)")
    }

    @Test func loadThrowsAnErrorNamingTheFile() {
        do {
            _ = try PatternFile.load(data: Data(#"{"Version": 1}"#.utf8), name: "x.ahap")
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "x.ahap: error: Pattern: missing `Pattern`: not a complete AHAP pattern (line 1, column 1)")
        }
    }

    @Test func everyErrorInAFileIsReported() {
        let json = ahap(
            #"{"Event": {"Time": -1, "EventType": "HapticTransient"}}"#,
            transientElement,
            #"{"Event": {"Time": 0, "EventType": "Nope"}}"#
        )
        #expect(readAHAP(json).errorLocations == ["Pattern[0].Event.Time", "Pattern[2].Event.EventType"])
    }

    @Test func manyDiagnosticsAreSummarised() {
        let elements = Array(repeating: #"{"Event": {"Time": -1, "EventType": "HapticTransient"}}"#, count: 250)
        let result = readAHAP("{\"Version\": 1, \"Pattern\": [\(elements.joined(separator: ","))]}")
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.last?.message == "150 more errors not shown")
    }

    @Test func readingAFolderOrADeviceIsADiagnostic() {
        #expect(
            PatternFile.read(contentsOf: URL(fileURLWithPath: "/tmp")).lines(.error) == [
                "(root): this is a folder, not a pattern file"
            ])
        #expect(
            PatternFile.read(contentsOf: URL(fileURLWithPath: "/dev/zero")).lines(.error) == [
                "(root): not a regular file"
            ])
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeReading() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-ahap-size-\(UUID().uuidString).ahap")
        try Data(ahap(transientElement).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = PatternFile.read(contentsOf: url, limits: PatternLimits(maxFileBytes: 10))
        #expect(
            result.lines(.error) == [
                "(root): the file is \(ahap(transientElement).utf8.count) bytes, more than the limit of 10 bytes"
            ])
        #expect(PatternFile.read(contentsOf: url).pattern?.events.count == 1)
    }

    @Test(arguments: [
        (#"{"Version": 1, "Pattern": {}}"#, "Pattern: expected an array, found an object"),
        (#"{"Version": 1, "Pattern": [{"Event": [1]}]}"#, "Pattern[0].Event: expected an object, found an array"),
        (
            #"{"Version": 1, "Pattern": [{"Parameter": "x"}]}"#,
            #"Pattern[0].Parameter: expected an object, found the string "x""#
        ),
        (
            #"{"Version": 1, "Pattern": [{"ParameterCurve": null}]}"#,
            "Pattern[0].ParameterCurve: expected an object, found null"
        ),
        (
            #"{"Version": 1, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 86000, "ParameterCurveControlPoints": [{"Time": 500, "ParameterValue": 1}]}}]}"#,
            "Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time: the point is at 86500 s in the pattern, later than the limit of 86400 s"
        ),
    ])
    func structuralErrorsNameTheirLocation(json: String, expected: String) {
        let result = readAHAP(json)
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == [expected])
    }

    @Test func readingAMissingFileIsADiagnostic() {
        let result = PatternFile.read(contentsOf: URL(fileURLWithPath: "/nonexistent/thrum/x.ahap"))
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == ["(root): no such file"])
    }
}

@Suite struct JSONSyntaxErrors {
    @Test(arguments: [
        ("", "invalid JSON: the file is empty", "(root)", 1, 1),
        (
            "{\"Version\": 1.0,\n \"Pattern\": [1,,2]}", "invalid JSON: unexpected character ','; expected a value",
            "Pattern[1]", 2, 16
        ),
        ("{\"a\": 1 // note\n}", "invalid JSON: comments are not allowed in JSON; expected ',' or '}'", "(root)", 1, 9),
        ("{\"a\": NaN}", "invalid JSON: NaN and Infinity are not JSON numbers; expected a value", "a", 1, 7),
        ("{\"a\": -Infinity}", "invalid JSON: -Infinity is not a JSON number", "a", 1, 8),
        ("{'a': 1}", "invalid JSON: strings must use double quotes; expected a key in double quotes", "(root)", 1, 2),
        ("{\"a\": 01}", "invalid JSON: invalid number: leading zeros are not allowed", "a", 1, 7),
        ("{\"a\": 1.}", "invalid JSON: invalid number: a digit must follow the decimal point", "a", 1, 9),
        ("{\"a\": \"x", "invalid JSON: the string that starts here is never closed", "a", 1, 7),
        ("{\"a\": \"\\q\"}", "invalid JSON: invalid escape sequence '\\q' in a string", "a", 1, 8),
        ("{\"a\": \"\\u12\"}", "invalid JSON: a \\u escape needs four hexadecimal digits", "a", 1, 8),
        (
            "{\"a\": \"tab\there\"}", "invalid JSON: control character 0x9 inside a string (write it as an escape)",
            "a", 1, 11
        ),
        ("{\"a\": [1, 2}", "invalid JSON: unexpected '}'; expected ',' or ']'", "a[2]", 1, 12),
        ("{\"a\": 1", "invalid JSON: the file ends inside an object; expected ',' or '}'", "(root)", 1, 8),
        ("{\"a\" 1}", "invalid JSON: unexpected character '1'; expected ':' after the key", "a", 1, 6),
        ("{} {}", "invalid JSON: unexpected text after the end of the JSON document", "(root)", 1, 4),
        ("{\"a\": tru}", "invalid JSON: unexpected character 't'; expected a value", "a", 1, 7),
        (
            "{\"Pattern\": [{\"Event\": {\"Time\": 0}}, {\"Event\": {\"Time\": 0,}, ]]}",
            "invalid JSON: unexpected ']'; expected a key in double quotes", "Pattern[1]", 1, 62
        ),
    ])
    func syntaxErrorsHaveLocationLineAndColumn(
        json: String, message: String, location: String, line: Int, column: Int
    ) throws {
        let result = readAHAP(json)
        #expect(result.pattern == nil)
        #expect(result.diagnostics.count == 1)
        let error = try #require(result.diagnostics.first)
        #expect(error.severity == .error)
        #expect(error.message == message)
        #expect("\(error.location)" == location)
        #expect(error.position?.line == line)
        #expect(error.position?.column == column)
    }

    @Test func utf16FilesAreToldToBeUTF8() {
        var data = Data([0xFF, 0xFE])
        data.append(ahap(transientElement).data(using: .utf16LittleEndian)!)
        let result = PatternFile.read(data: data, name: "wide.ahap")
        #expect(
            result.lines(.error) == [
                "(root): invalid JSON: the file is UTF-16 or UTF-32 text; pattern files must be UTF-8"
            ])
        let withoutMark = PatternFile.read(
            data: ahap(transientElement).data(using: .utf16BigEndian)!, name: "wide.ahap")
        #expect(withoutMark.lines(.error) == result.lines(.error))
    }

    @Test func checkSyntaxReportsTheSameError() {
        let error = PatternFile.checkSyntax(data: Data("{\"Pattern\": [1,,2]}".utf8))
        #expect(
            error?.description
                == "error: Pattern[1]: invalid JSON: unexpected character ','; expected a value (line 1, column 16)")
        #expect(PatternFile.checkSyntax(data: Data(ahap(transientElement).utf8)) == nil)
    }
}

@Suite struct JSONNumberParsing {
    @Test(arguments: [
        "0", "-0", "1", "0.1", "0.123", "1e-05", "2.5E+3", "0.44999999999999996", "123456789012345678901234567890",
        "1.7976931348623157e308", "5e-324", "0.000000000000000000000000000001", "9007199254740993",
        "3.0000000000000004",
    ])
    func numbersConvertExactlyLikeTheStandardLibrary(text: String) {
        let value = Array(text.utf8).withUnsafeBytes { JSONNumberParser.double(from: $0) }
        #expect(value == Double(text)!)
        #expect(value.sign == Double(text)!.sign)
    }

    @Test func floatsRoundOnceFromTheirText() {
        // 1.00000005960464477539062500001 is just above the midpoint between 1 and the next float;
        // through a Double it rounds to the midpoint and then (ties-to-even) down to 1.
        let text = "1.00000005960464477539062500001"
        let double = Double(text)!
        let single = Array(text.utf8).withUnsafeBytes { JSONNumberParser.float(from: $0, double: double) }
        #expect(single == Float(text)!)
        #expect(single != Float(double))
    }
}
