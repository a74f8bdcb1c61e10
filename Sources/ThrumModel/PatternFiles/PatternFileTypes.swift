import Foundation

/// How strictly a pattern is checked.
public enum ValidationMode: Sendable, Hashable {
    /// Like Apple's reader: tolerant, out-of-range values clamped with a warning.
    case standard
    /// For authors: every `standard` warning becomes an error, and lint warnings are added
    /// (absolute-looking curve times, continuous events over 30 s, curves over 16 points, lowercase names…).
    case strict
}

/// The kinds of pattern file Thrum reads. The kind is recognised from the content, never the extension.
public enum PatternFileFormat: String, Sendable, Hashable {
    /// Apple Haptic and Audio Pattern (JSON with `Pattern`).
    case ahap
    /// Lofelt / Meta Haptics Studio `.haptic`, version 1 (JSON with `version` and `signals`).
    case lofeltHaptic
    /// Lofelt's older `.vij`, version 0 (JSON with `voices`).
    case lofeltV0
}

/// What reading a file produced: a pattern when there were no errors, and every finding.
public struct PatternReadResult: Sendable {
    /// The normalised pattern (events sorted by time, values clamped), or nil when there was an error.
    public var pattern: HapticPattern?
    public var diagnostics: [Diagnostic]
    /// The format recognised from the content; nil when the content is not a JSON object at all.
    public var format: PatternFileFormat?

    public init(pattern: HapticPattern?, diagnostics: [Diagnostic], format: PatternFileFormat?) {
        self.pattern = pattern
        self.diagnostics = diagnostics
        self.format = format
    }
}

/// A pattern file that could not be loaded; `description` prints one `FILE: error: LOCATION: message` line per error.
public struct PatternLoadError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var diagnostics: [Diagnostic]

    public init(file: String, diagnostics: [Diagnostic]) {
        self.file = file
        self.diagnostics = diagnostics
    }

    public var description: String {
        let errors = diagnostics.errors
        let shown = errors.isEmpty ? diagnostics : errors
        return shown.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}

/// Limits that keep hostile files from exhausting time or memory. Each one, when exceeded, is a clear error.
public struct PatternLimits: Sendable, Hashable {
    /// Largest file accepted (byte offsets are kept in 32 bits).
    public var maxFileBytes: Int
    /// Deepest nesting of arrays and objects. AHAP needs 6 levels, `.haptic` 7.
    public var maxNestingDepth: Int
    /// Longest string, in UTF-8 bytes (metadata descriptions, waveform paths).
    public var maxStringBytes: Int
    /// Longest number literal, in characters.
    public var maxNumberCharacters: Int
    /// Most JSON values (objects, arrays, strings, numbers…) in one file; each costs 12 bytes while reading.
    /// A 1,000,000-event file holds about 19 million.
    public var maxJSONValues: Int
    /// Most elements (events, parameters, curves) in one pattern.
    public var maxPatternElements: Int
    /// Most control points in one curve (or breakpoints in one `.haptic` envelope).
    public var maxControlPoints: Int
    /// Latest time, in seconds, for any event start, end, parameter or control point.
    public var maxTime: Double
    /// Most diagnostics of each severity kept; the rest are counted in one summary line.
    public var maxDiagnosticsPerSeverity: Int

    public init(
        maxFileBytes: Int = 1 << 30,
        maxNestingDepth: Int = 64,
        maxStringBytes: Int = 1 << 20,
        maxNumberCharacters: Int = 400,
        maxJSONValues: Int = 48_000_000,
        maxPatternElements: Int = 2_000_000,
        maxControlPoints: Int = 1_000_000,
        maxTime: Double = 86_400,
        maxDiagnosticsPerSeverity: Int = 100
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxNestingDepth = maxNestingDepth
        self.maxStringBytes = maxStringBytes
        self.maxNumberCharacters = maxNumberCharacters
        self.maxJSONValues = maxJSONValues
        self.maxPatternElements = maxPatternElements
        self.maxControlPoints = maxControlPoints
        self.maxTime = maxTime
        self.maxDiagnosticsPerSeverity = maxDiagnosticsPerSeverity
    }

    public static let standard = PatternLimits()
}
