import ArgumentParser
import Foundation
import Thrum
import ThrumModel
import ThrumTimeline

/// `thrum demo`: Thrum's main job on its embedded default.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load a bundled example, print its summary, play it on the embedded simulator and write its plot.",
        discussion: """
            With no arguments, uses Examples/slice.ahap from the current directory (the repository root) \
            and writes slice.svg in the current directory. The pattern is compiled, sent over the wire \
            protocol to the embedded simulated board (the reference firmware core) and played there, as \
            `thrum play --device sim` does; the plot shows the simulated actuator's acceleration.
            """
    )

    @Argument(help: "The pattern to demonstrate.")
    var file: String = "Examples/slice.ahap"

    @Option(help: "Where to write the plot (default: the file's name with extension .svg, in the current directory).")
    var svg: String?

    func run() async throws {
        let input = URL(fileURLWithPath: file)
        guard FileManager.default.fileExists(atPath: input.path) else {
            throw failure("\(file) not found: run `thrum demo` from the repository root, or name a pattern file")
        }
        let pattern = try loadPattern(at: input)
        for line in PatternSummary(name: file, pattern: pattern).lines { Console.current.line(line) }
        do {
            let timeline = try TimelineCompiler.compile(pattern)
            Console.current.line("  timeline     \(timeline.count) bytes compiled (`thrum compile` writes it)")
        } catch {
            throw failure("\(file): \(error)")
        }
        let played = try await withEngine(device: "sim") { engine in
            let player = try await engine.makePlayer(with: pattern)
            let events = engine.events
            let started = await engine.currentTime
            try await player.start(atTime: HapticEngine.timeImmediate)
            try await PlayCommand.waitForEnd(of: player, events: events, within: pattern.duration + 5)
            let board = await engine.capabilities?.boardName ?? "the simulator"
            return (board, await engine.currentTime - started)
        }
        Console.current.line(
            String(format: "  played       on %@ over the wire protocol, ended after %.3f s", played.0, played.1))
        let plot = svg ?? input.deletingPathExtension().appendingPathExtension("svg").lastPathComponent
        // The plot shows the simulated board's LRA playing the compiled timeline (the firmware core).
        try writePlot(
            of: pattern, title: input.lastPathComponent, to: plot,
            actuator: simulatedActuatorLane(for: pattern, model: .lra()))
        Console.current.line("  plot         \(plot)")
    }
}
