import ArgumentParser
import Foundation
import ThrumModel
import ThrumTimeline

/// `thrum demo`: Thrum's main job on its embedded default.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load a bundled example, print its summary and write its plot, with a simulated actuator playing it.",
        discussion: """
            With no arguments, uses Examples/slice.ahap from the current directory (the repository root) \
            and writes slice.svg beside the current directory.
            """
    )

    @Argument(help: "The pattern to demonstrate.")
    var file: String = "Examples/slice.ahap"

    @Option(help: "Where to write the plot (default: the file's name with extension .svg, in the current directory).")
    var svg: String?

    func run() throws {
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
        let plot = svg ?? input.deletingPathExtension().appendingPathExtension("svg").lastPathComponent
        // The plot shows the simulated board's LRA playing the compiled timeline (the firmware core).
        try writePlot(of: pattern, title: input.lastPathComponent, to: plot, actuator: simulatedActuatorLane(for: pattern, model: .lra()))
        Console.current.line("  plot         \(plot)")
    }
}
