import Foundation
import Testing

@testable import ThrumModel

@Suite struct HapticImportTests {
    static let clip = """
        {"version": {"major": 1, "minor": 2},
         "metadata": {"project": "Demo", "author": "me", "tags": ["a", "b"], "editor": ""},
         "signals": {"continuous": {"envelopes": {
           "amplitude": [{"time": 0.0, "amplitude": 0.25},
                         {"time": 0.5, "amplitude": 0.64, "emphasis": {"amplitude": 0.81, "frequency": 0.3}},
                         {"time": 1.0, "amplitude": 0.0}],
           "frequency": [{"time": 0.0, "frequency": 0.16}, {"time": 1.0, "frequency": 0.36}]
         }}}}
        """

    @Test func mapsEnvelopesAndEmphasisToEventsAndCurves() throws {
        let result = PatternFile.read(data: Data(Self.clip.utf8), name: "clip.haptic")
        #expect(result.format == .lofeltHaptic)
        #expect(result.diagnostics.isEmpty)
        let pattern = try #require(result.pattern)
        #expect(
            pattern.events == [
                .continuous(at: 0, duration: 1, intensity: 1, sharpness: 0),
                .transient(at: 0.5, intensity: 0.9, sharpness: 0.3),
            ])
        #expect(
            pattern.parameterCurves == [
                ParameterCurve(
                    .hapticIntensityControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: 0, value: 0.5), ControlPoint(time: 0.5, value: 0.8 * 0.8),
                        ControlPoint(time: 1, value: 0),
                    ]),
                ParameterCurve(
                    .hapticSharpnessControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: 0, value: 0.4), ControlPoint(time: 1, value: 0.6),
                    ]),
            ])
        #expect(
            pattern.metadata == [
                "Project": "Demo", "Created By": "me", "Tags": "a, b", "Source Format": "Lofelt .haptic 1.2.0",
            ])
    }

    @Test func theFormatIsRecognisedFromContentNotTheName() {
        #expect(PatternFile.read(data: Data(Self.clip.utf8), name: "clip.ahap").format == .lofeltHaptic)
        #expect(PatternFile.read(data: Data(ahap(transientElement).utf8), name: "x.haptic").format == .ahap)
    }

    @Test(arguments: [
        (#"{"signals": {}}"#, "version: missing `version`"),
        (#"{"version": {"minor": 1}, "signals": {}}"#, "version.major: missing `version.major`"),
        (#"{"version": {"major": 1}}"#, "signals: missing `signals`"),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {}}}}"#,
            "signals.continuous.envelopes.amplitude: missing the `amplitude` envelope"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": []}}}}"#,
            "signals.continuous.envelopes.amplitude: the amplitude envelope is empty"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 1.5}]}}}}"#,
            "signals.continuous.envelopes.amplitude[0].amplitude: the value 1.5 is outside 0…1"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0}]}}}}"#,
            "signals.continuous.envelopes.amplitude[0]: missing `amplitude`"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": -1, "amplitude": 0}]}}}}"#,
            "signals.continuous.envelopes.amplitude[0].time: the time -1 is negative"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.5, "emphasis": {"amplitude": 0.6}}]}}}}"#,
            "signals.continuous.envelopes.amplitude[0].emphasis: an emphasis needs `amplitude` and `frequency`"
        ),
        (
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.5}], "frequency": [{"time": 0, "frequency": -0.1}]}}}}"#,
            "signals.continuous.envelopes.frequency[0].frequency: the value -0.1 is outside 0…1"
        ),
    ])
    func invalidFilesAreRejectedWithTheReason(json: String, expected: String) {
        let result = PatternFile.read(data: Data(json.utf8), name: "bad.haptic")
        #expect(result.format == .lofeltHaptic)
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == [expected])
    }

    @Test func version0TransientsBecomeEmphasis() throws {
        let json = """
            {"metadata": {"duration": 2.0}, "voices": {
              "envelopes": [[{"time": 0, "amplitude": 0.25}, {"time": 1, "amplitude": 0.81}],
                            [{"time": 0, "amplitude": 0.49}]],
              "transients": [[{"time": 0.5, "amplitude": 1.0}], [{"time": 0.5, "amplitude": 0.3}]]}}
            """
        let result = PatternFile.read(data: Data(json.utf8), name: "old.vij")
        #expect(result.format == .lofeltV0)
        let pattern = try #require(result.pattern, "\(result.diagnostics)")
        #expect(
            pattern.events == [
                .continuous(at: 0, duration: 2, intensity: 1, sharpness: 0),
                .transient(at: 0.5, intensity: 1, sharpness: 0.3),
            ])
        // The emphasis at 0.5 s gets an interpolated breakpoint (0.53), ducked; the clip is held to 2 s.
        let intensity = try #require(pattern.parameterCurves.first?.controlPoints)
        #expect(intensity.map(\.time) == [0, 0.5, 1, 2])
        #expect(abs(intensity[1].value - Float(0.53).squareRoot() * 0.8) < 1e-6)
        #expect(intensity[3].value == 0.9)
        #expect(pattern.parameterCurves.last?.controlPoints == [ControlPoint(time: 0, value: 0.7)])
    }

    @Test(arguments: [
        (#"{"voices": {}}"#, "voices.envelopes: missing `voices.envelopes`"),
        (#"{"voices": {"envelopes": []}}"#, "voices.envelopes: the amplitude envelope is missing"),
        (
            #"{"voices": {"envelopes": [[{"time": 0, "amplitude": 2}]]}}"#,
            "voices.envelopes[0][0].amplitude: the value 2 is outside 0…1"
        ),
        (
            #"{"voices": {"envelopes": [[{"time": 0, "amplitude": 1}]], "transients": [[{"time": 0, "amplitude": 1}], []]}}"#,
            "voices.transients[1]: 0 transient frequencies for 1 transient amplitudes"
        ),
    ])
    func invalidVersion0FilesAreRejectedWithTheReason(json: String, expected: String) {
        let result = PatternFile.read(data: Data(json.utf8), name: "bad.vij")
        #expect(result.format == .lofeltV0)
        #expect(result.pattern == nil)
        #expect(result.lines(.error) == [expected])
    }

    @Test func aSingleBreakpointWithEmphasisBecomesOneTransient() throws {
        let json =
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.5, "emphasis": {"amplitude": 1, "frequency": 1}}]}}}}"#
        let pattern = try #require(PatternFile.read(data: Data(json.utf8), name: "tap.haptic").pattern)
        #expect(pattern.events == [.transient(at: 0, intensity: 1, sharpness: 1)])
        #expect(pattern.parameterCurves.isEmpty)
    }

    @Test(.enabled(if: corpusIsAvailable, "no corpus of real pattern files beside the checkout"))
    func longClipsStayOneEventAndOneCurvePerEnvelope() throws {
        guard let folder = corpusFolder("haptic") else { return }
        let pattern = try #require(
            PatternFile.read(contentsOf: folder.appendingPathComponent("Lofelt__NiceVibrations__long_clip.haptic"))
                .pattern)
        #expect(pattern.events.filter { $0.type == .hapticContinuous }.count == 1)
        #expect(pattern.duration > 30)
        #expect(Set(pattern.parameterCurves.map(\.id)).count == pattern.parameterCurves.count)
    }
}

/// Thrum's import against Lofelt's own AHAP conversion of the same files (in the corpus): same events,
/// and the same curve points once Lofelt's chunks (absolute times, repeated boundary points) are joined.
@Suite(.enabled(if: corpusIsAvailable, "no corpus of real pattern files beside the checkout"))
struct HapticImportAgainstLofeltConverter {
    @Test(arguments: [
        ("Lofelt__NiceVibrations__valid_v1.haptic", "Lofelt__NiceVibrations__ahap_from_valid_v1.ahap"),
        (
            "Lofelt__NiceVibrations__valid_required_v1.haptic",
            "Lofelt__NiceVibrations__ahap_from_valid_v1_required.ahap"
        ),
        ("Lofelt__NiceVibrations__16_points.haptic", "Lofelt__NiceVibrations__16_points.ahap"),
        ("Lofelt__NiceVibrations__17_points.haptic", "Lofelt__NiceVibrations__17_points.ahap"),
        ("Lofelt__NiceVibrations__long_clip.haptic", "Lofelt__NiceVibrations__long_clip.ahap"),
        ("Lofelt__NiceVibrations__valid_v0.vij", "Lofelt__NiceVibrations__ahap_from_valid_v0.ahap"),
    ])
    func matchesLofeltsConversion(haptic: String, converted: String) throws {
        guard let hapticFolder = corpusFolder("haptic"), let ahapFolder = corpusFolder("ahap") else { return }
        let ours = try #require(PatternFile.read(contentsOf: hapticFolder.appendingPathComponent(haptic)).pattern)
        let theirs = try #require(PatternFile.read(contentsOf: ahapFolder.appendingPathComponent(converted)).pattern)
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-5 * max(1, abs(a)) }

        let ourTransients = ours.events.filter { $0.type == .hapticTransient }
        let theirTransients = theirs.events.filter { $0.type == .hapticTransient }
        #expect(ourTransients.count == theirTransients.count)
        for (a, b) in zip(ourTransients, theirTransients) {
            #expect(
                close(a.time, b.time) && close(Double(a.intensity), Double(b.intensity)) && a.sharpness == b.sharpness)
        }
        // Lofelt's continuous events, chunked at 30 s, cover the same span as our single one.
        let theirContinuous = theirs.events.filter { $0.type == .hapticContinuous }
        let ourContinuous = try #require(ours.events.first { $0.type == .hapticContinuous })
        #expect(close(ourContinuous.duration, theirContinuous.map { $0.time + $0.duration }.max() ?? -1))

        for id in [DynamicParameterID.hapticIntensityControl, .hapticSharpnessControl] {
            // Their control-point times are absolute (see B.5); joined, repeated boundary points dropped.
            var joined: [ControlPoint] = []
            for curve in theirs.parameterCurves where curve.id == id {
                for point in curve.controlPoints where joined.last != point { joined.append(point) }
            }
            let mine = ours.parameterCurves.filter { $0.id == id }.flatMap(\.controlPoints)
            #expect(mine.count == joined.count, "\(id)")
            for (a, b) in zip(mine, joined) {
                #expect(close(a.time, b.time) && close(Double(a.value), Double(b.value)), "\(id): \(a) vs \(b)")
            }
        }
    }
}
