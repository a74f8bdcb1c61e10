/// A finding about a pattern or its source file.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var severity: Severity
    /// Where in the source, as a path like `Pattern[3].Event.EventParameters[1].ParameterValue`.
    public var location: DiagnosticPath
    public var message: String
    /// Where in the source text, when the finding came from a file (line and column, 1-based).
    public var position: SourcePosition?

    public init(_ severity: Severity, at location: DiagnosticPath, _ message: String, position: SourcePosition? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.position = position
    }

    /// `error: Pattern[3].Event.Time: message` — the form `thrum validate` prints after the file name;
    /// with a source position it follows the message: `error: Pattern[3].Event.Time: message (line 12, column 9)`.
    public var description: String {
        let head = "\(severity.rawValue): \(location): \(message)"
        guard let position else { return head }
        return "\(head) (\(position))"
    }
}

/// A place in a source text: 1-based line and column (column counted in UTF-8 bytes), and the byte offset.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// Byte offset from the start of the file (0-based).
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line 12, column 9`
    public var description: String { "line \(line), column \(column)" }
}

/// A location inside a source document: keys and array indices from the root.
public struct DiagnosticPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public init(stringLiteral value: String) {
        components = value.isEmpty ? [] : value.split(separator: ".").map { .key(String($0)) }
    }

    public static let root = DiagnosticPath()

    public func appending(_ key: String) -> DiagnosticPath { DiagnosticPath(components + [.key(key)]) }
    public func appending(index: Int) -> DiagnosticPath { DiagnosticPath(components + [.index(index)]) }
    public static func / (path: DiagnosticPath, key: String) -> DiagnosticPath { path.appending(key) }
    public subscript(index: Int) -> DiagnosticPath { appending(index: index) }

    /// `Pattern[3].Event.EventParameters[1].ParameterValue`; the root prints as `(root)`.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(root)" : text
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
    public var errors: [Diagnostic] { filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}
