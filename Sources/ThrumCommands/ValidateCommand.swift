import ArgumentParser
import Foundation
import ThrumModel

/// `thrum validate [--strict] FILE...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check pattern files and list every problem found.",
        discussion: """
            Prints one line per diagnostic, `FILE: error|warning: LOCATION: message`, where LOCATION is \
            a path into the file such as Pattern[3].Event.EventParameters[1].ParameterValue. The default \
            mode reads files the way Core Haptics does (unknown keys ignored, out-of-range values clamped \
            with a warning); --strict turns warnings into errors and adds lint checks. Exits 0 when no \
            file has an error, 1 otherwise.
            """
    )

    @Flag(
        help:
            "Treat warnings as errors and add lint checks (absolute-looking curve times, continuous events over 30 s, curves over 16 points, lowercase names)."
    )
    var strict = false

    @Argument(help: "AHAP or .haptic files to check.")
    var files: [String]

    func run() throws {
        let mode: ValidationMode = strict ? .strict : .standard
        var anyErrors = false
        for file in files {
            let result = PatternFile.read(contentsOf: URL(fileURLWithPath: file), mode: mode)
            for diagnostic in result.diagnostics {
                Console.current.line("\(file): \(diagnostic)")
            }
            anyErrors = anyErrors || result.diagnostics.hasErrors || result.pattern == nil
        }
        if anyErrors { throw ExitCode.failure }
    }
}
