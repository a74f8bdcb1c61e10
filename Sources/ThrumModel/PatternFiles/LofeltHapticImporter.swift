import Foundation

/// Imports Lofelt / Meta Haptics Studio `.haptic` files (version 1) as patterns.
///
/// The mapping follows Lofelt's own converter to AHAP, without its Core Haptics limits; it is documented
/// in Protocol/HAPTIC-IMPORT.md:
/// - one `HapticContinuous` event from 0 to the last amplitude breakpoint, intensity 1, sharpness 0;
/// - the amplitude envelope becomes one `HapticIntensityControl` curve with values √amplitude (× 0.8 at
///   breakpoints that carry an emphasis, so the emphasis stands out);
/// - the frequency envelope becomes one `HapticSharpnessControl` curve with values √frequency;
/// - each emphasis becomes a `HapticTransient` with intensity √(emphasis amplitude), sharpness emphasis frequency.
/// The file is validated as Lofelt's library does: version 1.x, a non-empty amplitude envelope, values in
/// 0…1, breakpoint times that never go backwards, and emphasis amplitude not below its breakpoint's amplitude.
final class LofeltHapticImporter {
    let reader: DocumentReader
    let document: JSONDocument

    private init(reader: DocumentReader) {
        self.reader = reader
        self.document = reader.document
    }

    /// Ducking applied to the continuous amplitude at breakpoints with an emphasis (Lofelt's value).
    static let emphasisDucking: Float = 0.8

    static func read(_ reader: DocumentReader) -> (HapticPattern?, DiagnosticCollector) {
        let importer = LofeltHapticImporter(reader: reader)
        let pattern = importer.readRoot()
        return (importer.reader.diagnostics.hasErrors ? nil : pattern, importer.reader.diagnostics)
    }

    /// Lofelt's older `.vij` (version 0); see LofeltHapticImporter+V0.swift.
    static func readVersion0(_ reader: DocumentReader) -> (HapticPattern?, DiagnosticCollector) {
        let importer = LofeltHapticImporter(reader: reader)
        let pattern = importer.readVersion0Root()
        return (importer.reader.diagnostics.hasErrors ? nil : pattern, importer.reader.diagnostics)
    }

    var diagnostics: DiagnosticCollector {
        get { reader.diagnostics }
        _modify { yield &reader.diagnostics }
    }

    struct Breakpoint {
        var time: Double
        var value: Float
        var emphasis: (amplitude: Float, frequency: Float)?
    }

    private func readRoot() -> HapticPattern? {
        let root = document.root
        var versionNode: Int?
        var metadataNode: Int?
        var signalsNode: Int?
        document.forEachMember(of: root) { key, value in
            if document.stringEquals(key, "version") {
                versionNode = value
            } else if document.stringEquals(key, "metadata") {
                metadataNode = value
            } else if document.stringEquals(key, "signals") {
                signalsNode = value
            }
        }
        guard let versionNode else {
            diagnostics.error("missing `version`", at: "version", offset: reader.offset(of: root))
            return nil
        }
        guard let versionText = readVersion(versionNode) else { return nil }
        guard let signalsNode else {
            diagnostics.error("missing `signals`", at: "signals", offset: reader.offset(of: root))
            return nil
        }
        guard let envelopes = envelopesNode(signalsNode) else { return nil }
        let base: DiagnosticPath = "signals.continuous.envelopes"
        var amplitudeNode: Int?
        var frequencyNode: Int?
        document.forEachMember(of: envelopes) { key, value in
            if document.stringEquals(key, "amplitude") {
                amplitudeNode = value
            } else if document.stringEquals(key, "frequency") {
                frequencyNode = value
            }
        }
        guard let amplitudeNode else {
            diagnostics.error(
                "missing the `amplitude` envelope", at: base / "amplitude", offset: reader.offset(of: envelopes))
            return nil
        }
        let amplitude = readEnvelope(amplitudeNode, valueKey: "amplitude", emphasis: true, at: base / "amplitude")
        if document.kind(amplitudeNode) == .array, amplitude.isEmpty, !diagnostics.hasErrors {
            diagnostics.error(
                "the amplitude envelope is empty", at: base / "amplitude", offset: reader.offset(of: amplitudeNode))
        }
        let frequency =
            frequencyNode.map { readEnvelope($0, valueKey: "frequency", emphasis: false, at: base / "frequency") } ?? []
        guard !diagnostics.hasErrors else { return nil }

        var metadata = metadataNode.map(readMetadata) ?? [:]
        metadata["Source Format"] = "Lofelt .haptic \(versionText)"
        return Self.pattern(amplitude: amplitude, frequency: frequency, metadata: metadata)
    }

    private func readVersion(_ node: Int) -> String? {
        guard reader.expectObject(node, at: "version") else { return nil }
        var parts: [String: Double] = [:]
        document.forEachMember(of: node) { key, value in
            let name = document.string(key)
            guard name == "major" || name == "minor" || name == "patch" else { return }
            if let number = reader.number(value, at: DiagnosticPath.root / "version" / name) { parts[name] = number }
        }
        guard let major = parts["major"] else {
            diagnostics.error("missing `version.major`", at: "version.major", offset: reader.offset(of: node))
            return nil
        }
        let text = [major, parts["minor"] ?? 0, parts["patch"] ?? 0].map { TimeRules.format($0) }.joined(separator: ".")
        guard major == 1 else {
            diagnostics.error(
                "unsupported .haptic version \(text); this reader knows version 1", at: "version.major",
                offset: reader.offset(of: node))
            return nil
        }
        return text
    }

    private func envelopesNode(_ signals: Int) -> Int? {
        guard reader.expectObject(signals, at: "signals") else { return nil }
        var continuous: Int?
        document.forEachMember(of: signals) { key, value in
            if document.stringEquals(key, "continuous") { continuous = value }
        }
        guard let continuous else {
            diagnostics.error(
                "missing `signals.continuous`", at: "signals.continuous", offset: reader.offset(of: signals))
            return nil
        }
        guard reader.expectObject(continuous, at: "signals.continuous") else { return nil }
        var envelopes: Int?
        document.forEachMember(of: continuous) { key, value in
            if document.stringEquals(key, "envelopes") { envelopes = value }
        }
        guard let envelopes else {
            diagnostics.error(
                "missing `signals.continuous.envelopes`", at: "signals.continuous.envelopes",
                offset: reader.offset(of: continuous))
            return nil
        }
        guard reader.expectObject(envelopes, at: "signals.continuous.envelopes") else { return nil }
        return envelopes
    }

    func readEnvelope(
        _ node: Int, valueKey: StaticString, emphasis allowsEmphasis: Bool, at base: DiagnosticPath
    ) -> [Breakpoint] {
        guard reader.expectArray(node, at: base) else { return [] }
        let count = document.count(of: node)
        guard count <= reader.limits.maxControlPoints else {
            diagnostics.error(
                "an envelope of \(count) breakpoints, more than the limit of \(reader.limits.maxControlPoints)",
                at: base, offset: reader.offset(of: node))
            return []
        }
        var breakpoints: [Breakpoint] = []
        breakpoints.reserveCapacity(count)
        document.forEachElement(of: node) { position, element in
            let path = base[position]
            guard reader.expectObject(element, at: path) else { return }
            let errorsBefore = diagnostics.errorCount
            var time: Double?
            var value: Float?
            var emphasis: (amplitude: Float, frequency: Float)?
            var emphasisNode: Int?
            document.forEachMember(of: element) { key, member in
                if document.stringEquals(key, "time") {
                    time = reader.time(member, at: path / "time")
                } else if document.stringEquals(key, valueKey) {
                    value = unitValue(member, at: path / valueKey.description)
                } else if allowsEmphasis, document.stringEquals(key, "emphasis") {
                    emphasisNode = member
                    emphasis = readEmphasis(member, at: path / "emphasis")
                }
            }
            guard let time else {
                if diagnostics.errorCount == errorsBefore {
                    diagnostics.error("missing `time`", at: path, offset: reader.offset(of: element))
                }
                return
            }
            guard let value else {
                if diagnostics.errorCount == errorsBefore {
                    diagnostics.error("missing `\(valueKey)`", at: path, offset: reader.offset(of: element))
                }
                return
            }
            if let previous = breakpoints.last, time < previous.time {
                diagnostics.error(
                    "breakpoint times go backwards: \(time) s comes after \(previous.time) s", at: path / "time",
                    offset: reader.offset(of: element))
            }
            if let emphasis, emphasis.amplitude < value {
                diagnostics.error(
                    "the emphasis amplitude \(emphasis.amplitude) is below the breakpoint's amplitude \(value)",
                    at: path / "emphasis" / "amplitude", offset: emphasisNode.map { reader.offset(of: $0) })
            }
            breakpoints.append(Breakpoint(time: time, value: value, emphasis: emphasis))
        }
        return breakpoints
    }

    private func readEmphasis(_ node: Int, at base: DiagnosticPath) -> (amplitude: Float, frequency: Float)? {
        guard reader.expectObject(node, at: base) else { return nil }
        let errorsBefore = diagnostics.errorCount
        var amplitude: Float?
        var frequency: Float?
        document.forEachMember(of: node) { key, value in
            if document.stringEquals(key, "amplitude") {
                amplitude = unitValue(value, at: base / "amplitude")
            } else if document.stringEquals(key, "frequency") {
                frequency = unitValue(value, at: base / "frequency")
            }
        }
        guard let amplitude, let frequency else {
            if diagnostics.errorCount == errorsBefore {
                diagnostics.error(
                    "an emphasis needs `amplitude` and `frequency`", at: base, offset: reader.offset(of: node))
            }
            return nil
        }
        return (amplitude, frequency)
    }

    /// A value in 0…1; Lofelt rejects values outside instead of clamping them.
    private func unitValue(_ node: Int, at path: DiagnosticPath) -> Float? {
        guard let value = reader.number(node, at: path) else { return nil }
        guard (0...1).contains(value) else {
            diagnostics.error(
                "the value \(document.sourceText(node)) is outside 0…1", at: path, offset: reader.offset(of: node))
            return nil
        }
        return Float(value)
    }

    private func readMetadata(_ node: Int) -> PatternMetadata {
        guard document.kind(node) == .object else { return [:] }
        let names = [
            "project": "Project", "description": "Description", "author": "Created By", "editor": "Editor",
            "source": "Source", "tags": "Tags",
        ]
        var metadata: PatternMetadata = [:]
        document.forEachMember(of: node) { key, value in
            guard let name = names[document.string(key)] else { return }
            var text = ""
            switch document.kind(value) {
            case .string, .escapedString: text = document.string(value)
            case .array:
                var tags: [String] = []
                document.forEachElement(of: value) { _, tag in
                    if document.kind(tag) == .string || document.kind(tag) == .escapedString {
                        tags.append(document.string(tag))
                    }
                }
                text = tags.joined(separator: ", ")
            default: break
            }
            if !text.isEmpty { metadata[name] = text }
        }
        return metadata
    }

    // MARK: Mapping

    static func pattern(amplitude: [Breakpoint], frequency: [Breakpoint], metadata: PatternMetadata) -> HapticPattern {
        var events: [HapticEvent] = []
        let end = amplitude.last?.time ?? 0
        if end > 0 {
            events.append(.continuous(at: 0, duration: end, intensity: 1, sharpness: 0))
        }
        for breakpoint in amplitude {
            guard let emphasis = breakpoint.emphasis else { continue }
            events.append(
                .transient(
                    at: breakpoint.time, intensity: emphasis.amplitude.squareRoot(), sharpness: emphasis.frequency))
        }
        var curves: [ParameterCurve] = []
        if end > 0 {
            let points = amplitude.map { breakpoint in
                let ducking = breakpoint.emphasis == nil ? 1 : emphasisDucking
                return ControlPoint(time: breakpoint.time, value: breakpoint.value.squareRoot() * ducking)
            }
            curves.append(ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: points))
            if !frequency.isEmpty {
                let points = frequency.map { ControlPoint(time: $0.time, value: $0.value.squareRoot()) }
                curves.append(ParameterCurve(.hapticSharpnessControl, time: 0, controlPoints: points))
            }
        }
        return HapticPattern(
            version: 1.0, metadata: metadata, events: AHAPReader.sortedByTime(events, time: \.time),
            parameterCurves: curves)
    }
}
