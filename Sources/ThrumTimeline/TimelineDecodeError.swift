/// Why bytes are not a valid timeline: a stable reason code (the one the vectors name), the
/// byte offset where the problem was found, and a sentence for people.
public struct TimelineDecodeError: Error, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case truncated = "truncated"
        case badMagic = "bad-magic"
        case badVersion = "bad-version"
        case badFlags = "bad-flags"
        case badChecksum = "bad-checksum"
        case badVarint = "bad-varint"
        case countOutOfRange = "count-out-of-range"
        case valueOutOfRange = "value-out-of-range"
        case timeOutOfRange = "time-out-of-range"
        case badShape = "bad-shape"
        case badWaveform = "bad-waveform"
        case badRecord = "bad-record"
        case indexOutOfRange = "index-out-of-range"
        case durationMismatch = "duration-mismatch"
        case badKeyframe = "bad-keyframe"
        case trailingBytes = "trailing-bytes"
    }

    public var reason: Reason
    /// Offset from the first byte of the timeline.
    public var offset: Int
    public var detail: String

    public init(_ reason: Reason, at offset: Int, _ detail: String) {
        self.reason = reason
        self.offset = offset
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue) at byte \(offset): \(detail)" }
}
