import ThrumModel

/// How the compiler lays out a timeline.
public struct CompileOptions: Sendable, Hashable {
    /// Whether to append the keyframe index (seek/loop support).
    public enum KeyframePolicy: Sendable, Hashable {
        /// Only for timelines of at least `automaticKeyframeThreshold` records, where a linear
        /// scan from the start would cost a board milliseconds; omitted (not an error) when more
        /// than `TimelineFormat.maxActiveEventsPerKeyframe` events overlap.
        case automatic
        case never
        /// Always; compiling fails when too many events overlap at a keyframe.
        case always
    }

    public var keyframes: KeyframePolicy
    /// Spacing of keyframes, in seconds (at least one tick).
    public var keyframeInterval: Double

    public static let automaticKeyframeThreshold = 4096

    public init(keyframes: KeyframePolicy = .automatic, keyframeInterval: Double = 1.0) {
        self.keyframes = keyframes
        self.keyframeInterval = keyframeInterval
    }
}

/// Why a pattern cannot be compiled: what was wrong and where in the pattern.
public struct CompileError: Error, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        /// A time or duration is negative, not finite, or past `TimelineFormat.maxTicks`.
        case timeOutOfRange = "time-out-of-range"
        case tooManyShapes = "too-many-shapes"
        case tooManyCurvePoints = "too-many-curve-points"
        case tooManyWaveforms = "too-many-waveforms"
        case badWaveform = "bad-waveform"
        case tooManyActiveEvents = "too-many-active-events"
        case badOption = "bad-option"
    }

    public var reason: Reason
    /// Where in the pattern, e.g. `events[3].duration`.
    public var location: DiagnosticPath
    public var detail: String

    public init(_ reason: Reason, at location: DiagnosticPath, _ detail: String) {
        self.reason = reason
        self.location = location
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue) at \(location): \(detail)" }
}
