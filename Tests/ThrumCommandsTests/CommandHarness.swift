import ArgumentParser
import Foundation
import Synchronization
@testable import ThrumCommands

/// What a command printed and how it ended, as a user would see it.
struct CommandOutcome {
    var stdout: String
    var stderr: String
    var exitCode: Int32
}

/// Runs `thrum ARGS...` in-process with captured output.
func runThrum(_ arguments: [String]) -> CommandOutcome {
    let out = Mutex("")
    let err = Mutex("")
    let console = Console(writeOut: { text in out.withLock { $0 += text } }, writeErr: { text in err.withLock { $0 += text } })
    let code: Int32 = Console.$current.withValue(console) {
        do {
            var command = try ThrumCommand.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = ThrumCommand.exitCode(for: error).rawValue
            let message = ThrumCommand.fullMessage(for: error)
            if !message.isEmpty { console.writeErr(message + "\n") }
            return code
        }
    }
    return CommandOutcome(stdout: out.withLock { $0 }, stderr: err.withLock { $0 }, exitCode: code)
}

/// The package root, found from this file's path, so tests do not depend on the working directory.
let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
        url.deleteLastPathComponent()
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

func example(_ name: String) -> String { packageRoot.appendingPathComponent("Examples/\(name)").path }

/// A fresh scratch folder per test.
func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
