/// Typed reads from a `JSONDocument` that report problems to a `DiagnosticCollector`.
/// Shared by the AHAP reader and the `.haptic` importer.
/// A class so that findings can be recorded while the document is being walked with closures.
final class DocumentReader {
    let document: JSONDocument
    let limits: PatternLimits
    var diagnostics: DiagnosticCollector

    init(document: JSONDocument, limits: PatternLimits, diagnostics: DiagnosticCollector) {
        self.document = document
        self.limits = limits
        self.diagnostics = diagnostics
    }

    /// The offset to point a diagnostic at: the opening quote for strings, the first byte otherwise.
    func offset(of node: Int) -> Int {
        let offset = document.offset(node)
        switch document.kind(node) {
        case .string, .escapedString: return offset - 1
        default: return offset
        }
    }

    func expectObject(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Bool {
        if document.kind(node) == .object { return true }
        diagnostics.error("expected an object, found \(document.describe(node))", at: path(), offset: offset(of: node))
        return false
    }

    func expectArray(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Bool {
        if document.kind(node) == .array { return true }
        diagnostics.error("expected an array, found \(document.describe(node))", at: path(), offset: offset(of: node))
        return false
    }

    /// Whether the node is a string; reports an error otherwise. Does not decode the text.
    func expectString(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Bool {
        switch document.kind(node) {
        case .string, .escapedString: return true
        default:
            diagnostics.error(
                "expected a string, found \(document.describe(node))", at: path(), offset: offset(of: node))
            return false
        }
    }

    func string(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> String? {
        switch document.kind(node) {
        case .string, .escapedString: return document.string(node)
        default:
            diagnostics.error(
                "expected a string, found \(document.describe(node))", at: path(), offset: offset(of: node))
            return nil
        }
    }

    /// A finite number. Numbers written as strings are accepted, as Apple's reader does, with a warning.
    func number(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Double? {
        switch document.kind(node) {
        case .number:
            let value = document.number(node)
            guard value.isFinite else {
                diagnostics.error(
                    "the number \(document.sourceText(node)) is too large", at: path(), offset: offset(of: node))
                return nil
            }
            return value
        case .string, .escapedString:
            let text = document.string(node).trimmingSpaces
            guard let value = Double(text), value.isFinite else {
                diagnostics.error(
                    "expected a number, found \(document.describe(node))", at: path(), offset: offset(of: node))
                return nil
            }
            diagnostics.warning(
                "a number written as a string (\"\(document.sourceText(node))\")", at: path(), offset: offset(of: node))
            return value
        default:
            diagnostics.error(
                "expected a number, found \(document.describe(node))", at: path(), offset: offset(of: node))
            return nil
        }
    }

    /// A boolean; the numbers 0 and 1 are accepted too (property lists often store booleans as numbers).
    func bool(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Bool? {
        switch document.kind(node) {
        case .trueValue: return true
        case .falseValue: return false
        case .number:
            let value = document.number(node)
            if value == 0 || value == 1 { return value == 1 }
            fallthrough
        default:
            diagnostics.error(
                "expected true or false, found \(document.describe(node))", at: path(), offset: offset(of: node))
            return nil
        }
    }

    /// A time in seconds: finite, not negative, not later than the limit.
    func time(_ node: Int, at path: @autoclosure () -> DiagnosticPath) -> Double? {
        guard let value = number(node, at: path()) else { return nil }
        if let problem = TimeRules.problem(with: value, limits: limits) {
            diagnostics.error(problem, at: path(), offset: offset(of: node))
            return nil
        }
        return value
    }

    /// A parameter value, clamped into `range` with a warning when outside it.
    func value(_ node: Int, range: ParameterRange, at path: @autoclosure () -> DiagnosticPath) -> Float? {
        guard let value = number(node, at: path()) else { return nil }
        if value < Double(range.min) || value > Double(range.max) {
            let clamped = value < Double(range.min) ? range.min : range.max
            diagnostics.warning(
                ValueRules.clampMessage(document.sourceText(node), range: range, clamped: clamped),
                at: path(), offset: offset(of: node))
            return clamped
        }
        guard document.kind(node) == .number else { return Float(value) }
        return JSONNumberParser.float(from: document.rawBytes(node), double: value)
    }
}

/// Checks on times shared by the reader and the validator.
enum TimeRules {
    static func problem(with time: Double, limits: PatternLimits) -> String? {
        if !time.isFinite { return "the time \(time) is not a finite number" }
        if time < 0 { return "the time \(format(time)) is negative" }
        if time > limits.maxTime {
            return "the time \(format(time)) s is later than the limit of \(format(limits.maxTime)) s"
        }
        return nil
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Checks on parameter values shared by the reader and the validator.
enum ValueRules {
    static func clampMessage(_ written: String, range: ParameterRange, clamped: Float) -> String {
        "the value \(written) is outside \(format(range.min))…\(format(range.max)); clamped to \(format(clamped))"
    }

    static func format(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e7 ? String(Int(value)) : String(value)
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
