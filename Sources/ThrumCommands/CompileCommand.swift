import ArgumentParser
import Foundation
import ThrumModel
import ThrumTimeline

/// `thrum compile FILE [-o OUT] [--stats]`
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a pattern file into a binary timeline for the board.",
        discussion: """
            Writes the timeline (Protocol/TIMELINE.md) next to the input with the extension .thrum unless \
            -o names another path. --stats prints one JSON object: inputBytes, timelineBytes, events, \
            curves, durationSeconds.
            """
    )

    @Argument(help: "The AHAP or .haptic file to compile.")
    var file: String

    @Option(name: .shortAndLong, help: "Where to write the timeline (default: FILE with extension .thrum).")
    var output: String?

    @Flag(help: "Print size and content figures as one JSON object.")
    var stats = false

    func run() throws {
        let input = URL(fileURLWithPath: file)
        let pattern = try loadPattern(at: input)
        let bytes: [UInt8]
        do {
            bytes = try TimelineCompiler.compile(pattern)
        } catch {
            throw failure("\(file): \(error)")
        }
        let destination =
            output.map { URL(fileURLWithPath: $0) }
            ?? input.deletingPathExtension().appendingPathExtension("thrum")
        do {
            try Data(bytes).write(to: destination, options: .atomic)
        } catch {
            throw failure("cannot write \(destination.path): \(error.localizedDescription)")
        }
        if stats {
            let inputBytes = (try? FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int) ?? 0
            let figures = CompileStats(
                inputBytes: inputBytes,
                timelineBytes: bytes.count,
                events: pattern.events.count,
                curves: pattern.parameterCurves.count,
                durationSeconds: pattern.duration
            )
            Console.current.line(figures.json)
        }
    }
}

/// The `--stats` figures, printed as one line of JSON with keys in a fixed order.
struct CompileStats: Encodable {
    var inputBytes: Int
    var timelineBytes: Int
    var events: Int
    var curves: Int
    var durationSeconds: Double

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// Loads a pattern for a command, turning every problem into one `thrum: FILE: ...` error and exit 1.
/// Warnings go to stderr so they are seen but do not stop the command.
func loadPattern(at url: URL) throws -> HapticPattern {
    let result = PatternFile.read(contentsOf: url, mode: .standard)
    for diagnostic in result.diagnostics where diagnostic.severity == .warning {
        Console.current.error("\(url.relativePath): \(diagnostic)")
    }
    guard let pattern = result.pattern, !result.diagnostics.hasErrors else {
        let errors = result.diagnostics.errors
        let detail = errors.isEmpty ? "cannot be read" : errors.map(\.description).joined(separator: "\n  ")
        throw failure("\(url.relativePath): \(detail)")
    }
    return pattern
}
