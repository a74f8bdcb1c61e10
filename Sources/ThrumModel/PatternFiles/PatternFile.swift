import Foundation

/// Reading pattern files: AHAP, and Lofelt `.haptic` recognised from the content.
public enum PatternFile {
    /// Reads a pattern from bytes. Never throws: problems are diagnostics, and `pattern` is nil after an error.
    /// `name` identifies the source for callers that print the diagnostics (`FILE: error: …`); the format is
    /// recognised from the content, never from the name.
    public static func read(
        data: Data, name: String, mode: ValidationMode = .standard, limits: PatternLimits = .standard
    ) -> PatternReadResult {
        guard data.count <= limits.maxFileBytes else {
            return failure(
                "the file is \(data.count) bytes, more than the limit of \(limits.maxFileBytes) bytes", format: nil)
        }
        return data.withUnsafeBytes { bytes in read(bytes: bytes, mode: mode, limits: limits) }
    }

    /// Reads a pattern file. I/O problems (missing file, a folder, too large) become an error diagnostic.
    public static func read(
        contentsOf url: URL, mode: ValidationMode = .standard, limits: PatternLimits = .standard
    ) -> PatternReadResult {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return failure("no such file", format: nil)
        }
        guard !isFolder.boolValue else { return failure("this is a folder, not a pattern file", format: nil) }
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        // Devices and pipes (/dev/zero, a FIFO) could stream without end: only regular files are read.
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            return failure("not a regular file", format: nil)
        }
        if let size = attributes[.size] as? NSNumber, size.intValue > limits.maxFileBytes {
            return failure(
                "the file is \(size.intValue) bytes, more than the limit of \(limits.maxFileBytes) bytes", format: nil)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            return failure("cannot read the file: \(error.localizedDescription)", format: nil)
        }
        return read(data: data, name: url.lastPathComponent, mode: mode, limits: limits)
    }

    /// Loads a pattern file or throws every error found.
    public static func load(
        contentsOf url: URL, mode: ValidationMode = .standard
    ) throws(PatternLoadError) -> HapticPattern {
        let result = read(contentsOf: url, mode: mode)
        guard let pattern = result.pattern else {
            throw PatternLoadError(file: url.path, diagnostics: result.diagnostics)
        }
        return pattern
    }

    /// Loads a pattern from bytes or throws every error found; `name` names the source in messages.
    public static func load(
        data: Data, name: String, mode: ValidationMode = .standard
    ) throws(PatternLoadError) -> HapticPattern {
        let result = read(data: data, name: name, mode: mode)
        guard let pattern = result.pattern else { throw PatternLoadError(file: name, diagnostics: result.diagnostics) }
        return pattern
    }

    /// Reads an AHAP property-list dictionary (what `CHHapticPattern(dictionary:)` takes) through the same
    /// interpretation as files. Locations are reported; line and column are not, as there is no source text.
    public static func read(dictionary: [String: Any], mode: ValidationMode = .standard) -> PatternReadResult {
        let bytes = PropertyListJSON.encode(dictionary)
        var result = bytes.withUnsafeBytes { read(bytes: $0, mode: mode, limits: .standard) }
        result.diagnostics = result.diagnostics.map { diagnostic in
            var copy = diagnostic
            copy.position = nil
            return copy
        }
        return result
    }

    /// Checks only that the bytes are well-formed (tolerant) JSON within the limits: the first phase of `read`,
    /// exposed for tools and benchmarks. Returns the syntax error, or nil.
    public static func checkSyntax(data: Data, limits: PatternLimits = .standard) -> Diagnostic? {
        data.withUnsafeBytes { bytes in
            switch JSONTapeParser.parse(bytes, limits: limits) {
            case .success: return nil
            case .failure(let error):
                return Diagnostic(
                    .error, at: error.path, "invalid JSON: \(error.message)",
                    position: SourceLocator(bytes: bytes).position(of: error.offset))
            }
        }
    }

    // MARK: Internals

    static func read(bytes: UnsafeRawBufferPointer, mode: ValidationMode, limits: PatternLimits) -> PatternReadResult {
        let locator = SourceLocator(bytes: bytes)
        let collector = DiagnosticCollector(
            mode: mode, limit: limits.maxDiagnosticsPerSeverity, locate: { locator.position(of: $0) })
        let nodes: [JSONNode]
        switch JSONTapeParser.parse(bytes, limits: limits) {
        case .success(let parsed): nodes = parsed
        case .failure(let error):
            let diagnostic = Diagnostic(
                .error, at: error.path, "invalid JSON: \(error.message)", position: locator.position(of: error.offset))
            return PatternReadResult(pattern: nil, diagnostics: [diagnostic], format: nil)
        }
        let document = JSONDocument(bytes: bytes, nodes: nodes)
        let reader = DocumentReader(document: document, limits: limits, diagnostics: collector)
        guard document.kind(document.root) == .object else {
            let diagnostic = Diagnostic(
                .error, at: .root,
                "expected a pattern object at the top level, found \(document.describe(document.root))",
                position: locator.position(of: reader.offset(of: document.root)))
            return PatternReadResult(pattern: nil, diagnostics: [diagnostic], format: nil)
        }
        let format = detectFormat(document)
        let (pattern, diagnostics): (HapticPattern?, DiagnosticCollector)
        switch format {
        case .ahap: (pattern, diagnostics) = AHAPReader.read(reader)
        case .lofeltHaptic: (pattern, diagnostics) = LofeltHapticImporter.read(reader)
        case .lofeltV0: (pattern, diagnostics) = LofeltHapticImporter.readVersion0(reader)
        }
        return PatternReadResult(pattern: pattern, diagnostics: diagnostics.finished(), format: format)
    }

    /// AHAP has `Pattern`; `.haptic` v1 has `signals` or a `version` object; `.vij` has `voices`.
    /// Anything else is treated as AHAP, so that fragments are told that `Pattern` is missing.
    static func detectFormat(_ document: JSONDocument) -> PatternFileFormat {
        var hasPattern = false
        var hasSignals = false
        var hasVersionObject = false
        var hasVoices = false
        document.forEachMember(of: document.root) { key, value in
            if document.stringEquals(key, "Pattern") { hasPattern = true }
            if document.stringEquals(key, "signals") { hasSignals = true }
            if document.stringEquals(key, "version"), document.kind(value) == .object { hasVersionObject = true }
            if document.stringEquals(key, "voices") { hasVoices = true }
        }
        if hasPattern { return .ahap }
        if hasSignals || hasVersionObject { return .lofeltHaptic }
        if hasVoices { return .lofeltV0 }
        return .ahap
    }

    private static func failure(_ message: String, format: PatternFileFormat?) -> PatternReadResult {
        PatternReadResult(pattern: nil, diagnostics: [Diagnostic(.error, at: .root, message)], format: format)
    }
}
