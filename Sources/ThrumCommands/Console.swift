import ArgumentParser
import Foundation

/// Where commands write. Commands never call `print` directly so that tests can capture what a
/// user would see; the default writes to the process's stdout and stderr.
public struct Console: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeErr: @Sendable (String) -> Void

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void) {
        self.writeOut = writeOut
        self.writeErr = writeErr
    }

    public static let standard = Console(
        writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeErr: { FileHandle.standardError.write(Data($0.utf8)) }
    )

    @TaskLocal public static var current: Console = .standard

    public func line(_ text: String) { writeOut(text + "\n") }
    public func error(_ text: String) { writeErr(text + "\n") }
}

/// Reports an error the user must act on as `thrum: <message>` on stderr; throw the result to exit 1.
func failure(_ message: String) -> ExitCode {
    Console.current.error("thrum: \(message)")
    return ExitCode.failure
}
