import ArgumentParser
import Foundation
import Synchronization
import ThrumTesting

@testable import ThrumCommands

/// What a command printed and how it ended, as a user would see it.
struct CommandOutcome {
    var stdout: String
    var stderr: String
    var exitCode: Int32
}

/// Runs `thrum ARGS...` in-process with captured output (commands that run synchronously).
func runThrum(_ arguments: [String]) -> CommandOutcome {
    let capture = Capture()
    let code: Int32 = Console.$current.withValue(capture.console) {
        do {
            var command = try ThrumCommand.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            return capture.exitCode(for: error)
        }
    }
    return capture.outcome(code)
}

/// Runs `thrum ARGS...` in-process with captured output, awaiting commands that are async
/// (those that talk to a board), as `thrum`'s async entry point does.
func runThrumAsync(_ arguments: [String]) async -> CommandOutcome {
    let capture = Capture()
    let code: Int32 = await Console.$current.withValue(capture.console) {
        do {
            var command = try ThrumCommand.parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return capture.exitCode(for: error)
        }
    }
    return capture.outcome(code)
}

private final class Capture: Sendable {
    let out = Mutex("")
    let err = Mutex("")
    var console: Console {
        Console(
            writeOut: { text in self.out.withLock { $0 += text } },
            writeErr: { text in self.err.withLock { $0 += text } })
    }

    func exitCode(for error: any Error) -> Int32 {
        let message = ThrumCommand.fullMessage(for: error)
        if !message.isEmpty { console.writeErr(message + "\n") }
        return ThrumCommand.exitCode(for: error).rawValue
    }

    func outcome(_ code: Int32) -> CommandOutcome {
        CommandOutcome(stdout: out.withLock { $0 }, stderr: err.withLock { $0 }, exitCode: code)
    }
}

let packageRoot = Repository.root

func example(_ name: String) -> String { packageRoot.appendingPathComponent("Examples/\(name)").path }

/// A fresh scratch folder per test.
func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
