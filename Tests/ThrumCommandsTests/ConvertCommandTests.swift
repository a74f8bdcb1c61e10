import Foundation
import Testing
import ThrumModel

@Suite("thrum convert")
struct ConvertCommandTests {
    @Test func convertWritesAPatternAPlotAndASummary() throws {
        let folder = try scratchDirectory()
        let ahap = folder.appendingPathComponent("loop.ahap")
        let svg = folder.appendingPathComponent("loop.svg")
        let outcome = runThrum([
            "convert", example("sounds/drum-loop.wav"), "-o", ahap.path, "--svg", svg.path, "--keep-audio",
        ])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("wrote \(ahap.path): 4.00 s of mono 16000 Hz audio -> "), "\(outcome.stdout)")
        let pattern = try PatternFile.load(contentsOf: ahap, mode: .strict)
        // Eight beats with a hat between each: sixteen hits.
        #expect(pattern.events.filter { $0.type == .hapticTransient }.count == 16)
        #expect(pattern.events.contains { $0.type == .hapticContinuous })
        // The sound, found from the pattern's folder.
        let sound = try #require(pattern.events.first { $0.type == .audioCustom }?.waveform?.path)
        let resolved = ahap.deletingLastPathComponent().appendingPathComponent(sound).standardizedFileURL
        #expect(resolved.path == URL(fileURLWithPath: example("sounds/drum-loop.wav")).standardizedFileURL.path)
        let plot = try String(contentsOf: svg, encoding: .utf8)
        #expect(plot.contains(">Waveform<") && plot.contains(">Intensity<"))
    }

    @Test func convertOfSomethingThatIsNotASoundNamesTheFile() throws {
        let folder = try scratchDirectory()
        let outcome = runThrum(["convert", example("slice.ahap"), "-o", folder.appendingPathComponent("x.ahap").path])
        #expect(outcome.exitCode == 1)
        #expect(
            outcome.stderr.contains("\(example("slice.ahap")): not a sound libsndfile can read"), "\(outcome.stderr)")
    }

    @Test func convertRejectsABadBand() {
        let outcome = runThrum(["convert", example("sounds/drum-loop.wav"), "-o", "/tmp/x.ahap", "--band", "9000-100"])
        #expect(outcome.exitCode != 0)
        #expect(outcome.stderr.contains("--band '9000-100'"), "\(outcome.stderr)")
    }
}
