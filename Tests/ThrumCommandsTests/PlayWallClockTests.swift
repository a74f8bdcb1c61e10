import Foundation
import Testing

/// `thrum play` plays on the embedded simulator in real time, and this test holds it to wall-clock
/// bounds. It runs in the scripts' wall-clock group (scripts/test-groups), after the CPU-bound tests:
/// beside them, under AddressSanitizer on two cores, the 0.6 s pattern once took 2.1 s to report its end.
@Suite("thrum play in real time")
struct PlayWallClockTests {
    @Test("play plays each file to its end and says so")
    func play() async throws {
        let outcome = await runThrumAsync([
            "play", "--device", "sim", example("palette-transient.ahap"), example("nom-nom.ahap"),
        ])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 4, "\(outcome.stdout)")
        #expect(lines.first?.contains("palette-transient.ahap: playing on thrum simulator") == true)
        let done = lines.filter { $0.contains(": done in ") }
        #expect(done.count == 2)
        // nom-nom lasts 0.6 s: the command returns when the board says it ended, not before, and
        // not long after.
        let seconds = done.last.flatMap { Double($0.split(separator: " ").dropLast().last ?? "") } ?? 0
        #expect(seconds >= 0.6 && seconds < 2, "\(done)")
    }
}
