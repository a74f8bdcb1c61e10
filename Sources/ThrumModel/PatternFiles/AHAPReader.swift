/// Interprets a parsed JSON document as an AHAP pattern, the way Apple's reader does.
///
/// Unknown keys are ignored (a lint in strict mode); `Time` may be spelled `EventTime` in events and
/// `ParameterTime` in parameters; missing `Version` means 1.0; out-of-range values are clamped with a
/// warning; unknown parameter IDs are dropped with a warning; events come out sorted by time (stable).
final class AHAPReader {
    let reader: DocumentReader
    let document: JSONDocument
    var limits: PatternLimits { reader.limits }

    init(reader: DocumentReader) {
        self.reader = reader
        self.document = reader.document
    }

    /// Returns the pattern (nil after any error) and the collector with every finding.
    static func read(_ reader: DocumentReader) -> (HapticPattern?, DiagnosticCollector) {
        let interpreter = AHAPReader(reader: reader)
        let pattern = interpreter.readRoot()
        return (interpreter.reader.diagnostics.hasErrors ? nil : pattern, interpreter.reader.diagnostics)
    }

    var diagnostics: DiagnosticCollector {
        get { reader.diagnostics }
        _modify { yield &reader.diagnostics }
    }

    // MARK: Top level

    func readRoot() -> HapticPattern? {
        let root = document.root
        guard reader.expectObject(root, at: .root) else { return nil }
        var pattern = HapticPattern()
        var versionSeen = false
        var patternNode: Int?
        var topKeys: [String] = []
        document.forEachMember(of: root) { key, value in
            if document.stringEquals(key, "Version") {
                versionSeen = true
                pattern.version = readVersion(value)
            } else if document.stringEquals(key, "Metadata") {
                pattern.metadata = readMetadata(value)
            } else if document.stringEquals(key, "Pattern") {
                patternNode = value
            } else if document.stringEquals(key, "Configuration") {
                // Apple's private playback configuration: accepted and ignored.
            } else {
                if topKeys.count < 5 { topKeys.append(document.sourceText(key)) }
                diagnostics.lint(
                    "unknown top-level key `\(document.sourceText(key))` ignored", at: .root,
                    offset: reader.offset(of: key))
            }
        }
        if !versionSeen {
            diagnostics.warning("missing `Version`; assuming 1.0", at: "Version")
        }
        guard let patternNode else {
            let found = topKeys.isEmpty ? "" : " (top-level keys: \(topKeys.joined(separator: ", ")))"
            diagnostics.error(
                "missing `Pattern`: not a complete AHAP pattern\(found)", at: "Pattern", offset: reader.offset(of: root)
            )
            return nil
        }
        readPattern(patternNode, into: &pattern)
        if !diagnostics.hasErrors, pattern.isEmpty {
            diagnostics.error(
                "the pattern is empty: it has no Event, Parameter or ParameterCurve", at: "Pattern",
                offset: reader.offset(of: patternNode))
        }
        return pattern
    }

    func readVersion(_ node: Int) -> Double {
        let isNumeric =
            document.kind(node) == .number
            || ((document.kind(node) == .string || document.kind(node) == .escapedString)
                && Double(document.string(node).trimmingSpaces)?.isFinite == true)
        switch isNumeric {
        case true:
            guard let version = reader.number(node, at: "Version") else { return 1.0 }
            if version < 1.0 || version > 1.1 {
                diagnostics.error(
                    "unsupported Version \(document.sourceText(node)); this reader knows 1.0 to 1.1", at: "Version",
                    offset: reader.offset(of: node))
            }
            return version
        case false:
            diagnostics.warning(
                "malformed `Version` (\(document.describe(node))); assuming 1.0", at: "Version",
                offset: reader.offset(of: node))
            return 1.0
        }
    }

    func readMetadata(_ node: Int) -> PatternMetadata {
        guard document.kind(node) == .object else {
            diagnostics.lint(
                "`Metadata` is \(document.describe(node)), not an object; ignored", at: "Metadata",
                offset: reader.offset(of: node))
            return [:]
        }
        var metadata: PatternMetadata = [:]
        document.forEachMember(of: node) { key, value in
            let name = document.string(key)
            switch document.kind(value) {
            case .string, .escapedString: metadata[name] = document.string(value)
            case .number, .trueValue, .falseValue: metadata[name] = document.sourceText(value, limit: .max)
            default:
                diagnostics.lint(
                    "metadata value is \(document.describe(value)), not text; ignored",
                    at: DiagnosticPath.root / "Metadata" / document.sourceText(key),
                    offset: reader.offset(of: value))
            }
        }
        return metadata
    }

    // MARK: Pattern elements

    static func elementPath(_ element: Int, _ kind: String) -> DiagnosticPath {
        DiagnosticPath([.key("Pattern"), .index(element), .key(kind)])
    }

    func readPattern(_ node: Int, into pattern: inout HapticPattern) {
        guard reader.expectArray(node, at: "Pattern") else { return }
        let elementCount = document.count(of: node)
        guard elementCount <= limits.maxPatternElements else {
            diagnostics.error(
                "the pattern has \(elementCount) elements, more than the limit of \(limits.maxPatternElements)",
                at: "Pattern", offset: reader.offset(of: node))
            return
        }
        var events: [HapticEvent] = []
        events.reserveCapacity(elementCount)
        document.forEachElement(of: node) { element, value in
            func path() -> DiagnosticPath { DiagnosticPath([.key("Pattern"), .index(element)]) }
            guard reader.expectObject(value, at: path()) else { return }
            var recognised = false
            document.forEachMember(of: value) { key, member in
                if document.stringEquals(key, "Event") {
                    recognised = true
                    if let event = readEvent(member, element: element) { events.append(event) }
                } else if document.stringEquals(key, "Parameter") {
                    recognised = true
                    if let parameter = readParameter(member, element: element) { pattern.parameters.append(parameter) }
                } else if document.stringEquals(key, "ParameterCurve") {
                    recognised = true
                    if let curve = readCurve(member, element: element) { pattern.parameterCurves.append(curve) }
                } else {
                    diagnostics.warning(
                        "unknown pattern element `\(document.sourceText(key))` ignored (expected Event, Parameter or ParameterCurve)",
                        at: path(), offset: reader.offset(of: key))
                }
            }
            if !recognised, document.count(of: value) == 0 {
                diagnostics.warning("empty pattern element ignored", at: path(), offset: reader.offset(of: value))
            }
        }
        pattern.events = Self.sortedByTime(events, time: \.time)
        pattern.parameters = Self.sortedByTime(pattern.parameters, time: \.time)
        pattern.parameterCurves = Self.sortedByTime(pattern.parameterCurves, time: \.time)
    }

    /// Stable sort, skipped when already sorted (the common case).
    static func sortedByTime<Element>(_ items: [Element], time: (Element) -> Double) -> [Element] {
        var sorted = true
        var index = 1
        while index < items.count {
            if time(items[index]) < time(items[index - 1]) {
                sorted = false
                break
            }
            index += 1
        }
        return sorted ? items : stableSorted(items, by: time)
    }
}
