import Foundation
import Testing
import ThrumTimeline

@Suite("thrum compile and inspect")
struct CompileInspectTests {
    @Test func compileWritesTheTimelineAndPrintsStats() throws {
        let folder = try scratchDirectory()
        let output = folder.appendingPathComponent("slice.thrum")
        let outcome = runThrum(["compile", example("slice.ahap"), "-o", output.path, "--stats"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let bytes = try [UInt8](Data(contentsOf: output))
        let timeline = try TimelineDecoder.decode(bytes)
        #expect(timeline.toPattern().events.count == 2)

        let stats = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(stats?["timelineBytes"] as? Int == bytes.count)
        #expect(stats?["events"] as? Int == 2)
        #expect(stats?["curves"] as? Int == 1)
        #expect((stats?["durationSeconds"] as? Double).map { abs($0 - 0.5) < 1e-9 } == true)
        let inputSize = try FileManager.default.attributesOfItem(atPath: example("slice.ahap"))[.size] as? Int
        #expect(stats?["inputBytes"] as? Int == inputSize)
    }

    @Test func compileDefaultsToTheInputNameWithThrumExtension() throws {
        let folder = try scratchDirectory()
        let input = folder.appendingPathComponent("nom.ahap")
        try FileManager.default.copyItem(atPath: example("nom-nom.ahap"), toPath: input.path)
        let outcome = runThrum(["compile", input.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nom.thrum").path))
    }

    @Test func compileOfBadInputExitsOneNamingTheFile() throws {
        let folder = try scratchDirectory()
        let input = folder.appendingPathComponent("fragment.ahap")
        try Data(#"{"Event":{"Time":0,"EventType":"HapticTransient"}}"#.utf8).write(to: input)
        let outcome = runThrum(["compile", input.path])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stderr.contains(input.path))
        #expect(outcome.stderr.contains("Pattern"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fragment.thrum").path))
    }

    @Test func inspectPrintsTheRecords() throws {
        let folder = try scratchDirectory()
        let output = folder.appendingPathComponent("nom.thrum")
        #expect(runThrum(["compile", example("nom-nom.ahap"), "-o", output.path]).exitCode == 0)
        let outcome = runThrum(["inspect", output.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.lowercased().contains("transient"))
        #expect(outcome.stdout.lowercased().contains("continuous"))
    }

    @Test func inspectRejectsHostileBytesWithAReason() throws {
        let folder = try scratchDirectory()
        let junk = folder.appendingPathComponent("junk.thrum")
        try Data([0x00, 0xff, 0x13, 0x37, 0x42]).write(to: junk)
        let outcome = runThrum(["inspect", junk.path])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stderr.contains("junk.thrum: not a valid timeline:"))
    }
}
