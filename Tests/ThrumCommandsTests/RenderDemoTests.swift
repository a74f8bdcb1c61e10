import Foundation
import Testing

@Suite("thrum render and demo")
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

    @Test func demoPrintsTheSummaryPlaysOnTheSimulatorAndWritesThePlot() async throws {
        let folder = try scratchDirectory()
        let svg = folder.appendingPathComponent("demo.svg")
        let outcome = await runThrumAsync(["demo", example("slice.ahap"), "--svg", svg.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("events       2: 1 HapticTransient, 1 HapticContinuous"))
        #expect(outcome.stdout.contains("curves       1 (5 control points)"))
        #expect(outcome.stdout.contains("bytes compiled"))
        // Real time on a loaded machine: the board reports the end after the pattern's 0.5 s, a little late at worst.
        let played = outcome.stdout.split(separator: "\n").first {
            $0.contains("played       on thrum simulator over the wire protocol, ended after")
        }
        let seconds = played.flatMap { Double($0.split(separator: " ").dropLast().last ?? "") } ?? 0
        #expect(seconds >= 0.5 && seconds < 3, "\(outcome.stdout)")
        let plot = try String(contentsOf: svg, encoding: .utf8)
        #expect(plot.contains("Acceleration"), "the demo plot shows the simulated board's actuator")
    }
}
