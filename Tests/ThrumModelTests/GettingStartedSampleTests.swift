import Testing
import ThrumModel

/// The sample of `Sources/ThrumModel/ThrumModel.docc/GettingStarted.md`, line for line
/// (`DocumentationSampleTests` in ThrumTests checks it), and what its comments claim.
@Suite("ThrumModel's getting-started sample")
struct GettingStartedSampleTests {
    @Test("builds, checks, writes, reads back and renders a pattern")
    func sample() throws {
        // A tap, then a buzz that fades out over 0.4 s.
        let pattern = HapticPattern(
            events: [
                .transient(at: 0, intensity: 1, sharpness: 0.8),
                .continuous(at: 0.1, duration: 0.4, intensity: 0.7, sharpness: 0.3),
            ],
            parameterCurves: [
                ParameterCurve(
                    .hapticIntensityControl, time: 0.1,
                    controlPoints: [
                        ControlPoint(time: 0, value: 1),
                        ControlPoint(time: 0.4, value: 0),
                    ])
            ])
        let problems = PatternValidator.validate(pattern, mode: .strict)  // [] for this one

        // AHAP bytes, read back the way any AHAP or .haptic file is read.
        let ahap = AHAPWriter.data(for: pattern)
        let result = PatternFile.read(data: ahap, name: "tap-and-buzz.ahap")
        for diagnostic in result.diagnostics { print(diagnostic) }  // none for this pattern
        let reread = try PatternFile.load(data: ahap, name: "tap-and-buzz.ahap")  // == pattern

        // Intensity and sharpness as the board should play them, 1,000 samples a second.
        let rendered = ReferenceRenderer.render(pattern, sampleRate: 1000)
        let peak = rendered.intensity.values.max() ?? 0  // 1: the tap

        #expect(problems.isEmpty)
        #expect(result.diagnostics.isEmpty)
        #expect(result.format == .ahap)
        #expect(reread == pattern)
        #expect(peak == 1)
    }
}
