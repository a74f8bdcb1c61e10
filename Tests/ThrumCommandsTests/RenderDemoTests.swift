import Foundation
import Testing

@Suite("thrum render")
struct RenderDemoTests {
    @Test func renderDrawsLanesEventsAxisAndLegend() throws {
        let folder = try scratchDirectory()
        let svg = folder.appendingPathComponent("slice.svg")
        let outcome = runThrum(["render", example("slice.ahap"), "--svg", svg.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml"))
        for phrase in [
            "Intensity", "Sharpness", "Controls", "Events", "time (seconds)", "HapticIntensityControl", "0.50 s",
        ] {
            #expect(text.contains(phrase), "plot lacks \(phrase)")
        }
        // The continuous slice event appears with its parameters as a hover title.
        #expect(text.contains("HapticContinuous at 0.000 s for 0.500 s"))
    }

    @Test func renderOfAPatternWithAudioAddsAnAudioLane() throws {
        let folder = try scratchDirectory()
        let svg = folder.appendingPathComponent("bounce.svg")
        #expect(runThrum(["render", example("bounce-collision.ahap"), "--svg", svg.path]).exitCode == 0)
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains(">Audio<"))
        #expect(text.contains("AudioContinuous at 0.000 s"))
    }

    @Test func renderToAnUnwritablePathFailsClearly() {
        let outcome = runThrum(["render", example("slice.ahap"), "--svg", "/nonexistent-dir/x.svg"])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stderr.contains("cannot write /nonexistent-dir/x.svg"))
    }

}
