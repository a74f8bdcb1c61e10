import Foundation
import Testing

/// `thrum demo` plays on the simulator in real time, and this test holds it to wall-clock bounds. It runs
/// in the scripts' wall-clock group (scripts/test-groups), after the CPU-bound tests: beside them, under
/// ThreadSanitizer on two cores, the half-second pattern once took 5 s to report its end.
@Suite("thrum demo in real time")
struct DemoWallClockTests {
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
