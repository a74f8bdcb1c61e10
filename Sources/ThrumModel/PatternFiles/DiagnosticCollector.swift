/// Gathers diagnostics while reading or validating, applying the mode and bounding their number.
///
/// Severities: `error` stops the pattern; `warning` (clamping, ignored unknown IDs…) is an error in strict mode;
/// `lint` is only reported in strict mode, as a warning. Paths and messages are built only when a finding is kept.
struct DiagnosticCollector {
    let mode: ValidationMode
    let limit: Int
    /// Maps a byte offset to a line and column; nil when the input has no source text (patterns built in code).
    let locate: ((Int) -> SourcePosition)?
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var errorCount = 0
    private(set) var warningCount = 0

    init(mode: ValidationMode, limit: Int, locate: ((Int) -> SourcePosition)? = nil) {
        self.mode = mode
        self.limit = limit
        self.locate = locate
    }

    var hasErrors: Bool { errorCount > 0 }

    mutating func error(
        _ message: @autoclosure () -> String, at path: @autoclosure () -> DiagnosticPath, offset: Int? = nil
    ) {
        errorCount += 1
        if errorCount <= limit { append(.error, message(), path(), offset) }
    }

    mutating func warning(
        _ message: @autoclosure () -> String, at path: @autoclosure () -> DiagnosticPath, offset: Int? = nil
    ) {
        if mode == .strict {
            error(message(), at: path(), offset: offset)
        } else {
            warningCount += 1
            if warningCount <= limit { append(.warning, message(), path(), offset) }
        }
    }

    mutating func lint(
        _ message: @autoclosure () -> String, at path: @autoclosure () -> DiagnosticPath, offset: Int? = nil
    ) {
        guard mode == .strict else { return }
        warningCount += 1
        if warningCount <= limit { append(.warning, message(), path(), offset) }
    }

    private mutating func append(
        _ severity: Diagnostic.Severity, _ message: String, _ path: DiagnosticPath, _ offset: Int?
    ) {
        let position = offset.flatMap { locate?($0) }
        diagnostics.append(Diagnostic(severity, at: path, message, position: position))
    }

    /// The kept diagnostics, plus one summary line per severity that overflowed the limit.
    func finished() -> [Diagnostic] {
        var result = diagnostics
        if errorCount > limit {
            result.append(Diagnostic(.error, at: .root, "\(errorCount - limit) more errors not shown"))
        }
        if warningCount > limit {
            result.append(Diagnostic(.warning, at: .root, "\(warningCount - limit) more warnings not shown"))
        }
        return result
    }
}

/// Finds the line and column of byte offsets. The line index is built once, on the first request.
final class SourceLocator: @unchecked Sendable {
    private let bytes: UnsafeRawBufferPointer
    private var lineStarts: [Int]?

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func position(of offset: Int) -> SourcePosition {
        if lineStarts == nil {
            var starts = [0]
            for index in 0..<bytes.count where bytes[index] == 0x0A { starts.append(index + 1) }
            lineStarts = starts
        }
        let starts = lineStarts!
        // Last line start ≤ offset.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourcePosition(line: low + 1, column: offset - starts[low] + 1, offset: offset)
    }
}
