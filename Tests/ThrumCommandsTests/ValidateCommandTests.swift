import Foundation
import Testing

@Suite("thrum validate")
struct ValidateCommandTests {
    @Test func everyExampleIsClean() {
        let names = [
            "slice", "nom-nom", "splash", "swish", "palette-continuous", "palette-transient", "bounce-collision",
        ]
        let outcome = runThrum(["validate"] + names.map { example("\($0).ahap") })
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!outcome.stdout.contains("error:"))
    }

    @Test func diagnosticsNameFileSeverityAndLocation() throws {
        let folder = try scratchDirectory()
        let file = folder.appendingPathComponent("loud.ahap")
        try Data(
            #"{"Version":1.0,"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":1.5}]}}]}"#
                .utf8
        ).write(to: file)
        let standard = runThrum(["validate", file.path])
        #expect(standard.exitCode == 0)
        #expect(
            standard.stdout.contains("\(file.path): warning: Pattern[0].Event.EventParameters[0].ParameterValue:"),
            "\(standard.stdout)")

        let strict = runThrum(["validate", "--strict", file.path])
        #expect(strict.exitCode == 1)
        #expect(
            strict.stdout.contains("\(file.path): error: Pattern[0].Event.EventParameters[0].ParameterValue:"),
            "\(strict.stdout)")
    }

    @Test func swishIsLintedInStrictModeForItsSixtySecondEvent() {
        let outcome = runThrum(["validate", "--strict", example("swish.ahap")])
        #expect(outcome.stdout.contains("30"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("Pattern[0].Event"))
    }

    @Test func aNonSustainedToneNeedsNoDurationEvenInStrictMode() {
        // HapticBounce's audio event has Sustained 0 and no EventDuration: it ends when its decay ends.
        let outcome = runThrum(["validate", "--strict", example("bounce-collision.ahap")])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
    }

    @Test func aFileThatIsNotAPatternFailsWithItsName() throws {
        let folder = try scratchDirectory()
        let file = folder.appendingPathComponent("broken.ahap")
        try Data("{\"Pattern\": [".utf8).write(to: file)
        let outcome = runThrum(["validate", file.path, example("slice.ahap")])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stdout.contains("\(file.path): error:"))
    }

    @Test func aMissingFileIsAnError() {
        let outcome = runThrum(["validate", "/nonexistent/nothing.ahap"])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stdout.contains("/nonexistent/nothing.ahap: error:"))
    }
}
