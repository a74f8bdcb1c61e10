import ThrumModel

/// The constants of the binary timeline format (Protocol/TIMELINE.md). One place, so the
/// compiler, the decoder and the spec cannot drift apart silently.
public enum TimelineFormat {
    /// `T` `L`: the first two bytes of every timeline.
    public static let magic: (UInt8, UInt8) = (0x54, 0x4C)
    /// The only format version this module reads and writes.
    public static let version: UInt8 = 1
    /// One tick is one millisecond; every time and duration is a whole number of ticks.
    public static let ticksPerSecond: Double = 1000
    /// Magic, version, flags, CRC-32: the part of the header at fixed offsets.
    public static let fixedHeaderSize = 8
    /// The latest instant a timeline may name (about 24.8 days): any sum of two instants fits in 32 bits.
    public static let maxTicks: UInt32 = 0x7FFF_FFFF
    public static let maxShapes = 0xFF_FFFF
    public static let maxCurvePoints = 0xFFFF
    public static let maxWaveforms = 255
    public static let maxPathBytes = 255
    /// Shape indices below this fit in the record tag; larger ones follow as a varint.
    public static let inlineShapeLimit = 63
    public static let keyframeSize = 16
    public static let activeReferenceSize = 8
    /// Events listed as active at a keyframe, at most (continuous voices a board could hold).
    public static let maxActiveEventsPerKeyframe = 64
    /// How long after its authored end an event may still sound, for the keyframe index:
    /// continuous kinds up to the longest release (SEMANTICS.md §4.1: 1 s), a transient its
    /// fixed 20 ms shape (§5.1), `AudioCustom` nothing (it plays for its duration).
    public static let continuousTailTicks: UInt32 = 1000
    public static let transientTailTicks: UInt32 = 20

    static func tailTicks(_ type: HapticEventType) -> UInt32 {
        switch type {
        case .hapticContinuous, .audioContinuous: return continuousTailTicks
        case .hapticTransient: return transientTailTicks
        case .audioCustom: return 0
        }
    }
}

/// The flag byte (offset 3).
public struct TimelineFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A keyframe index follows the records (seek and loop without replaying from the start).
    public static let keyframes = TimelineFlags(rawValue: 0x01)
    /// A waveform table follows the shapes (needed by `AudioCustom` events).
    public static let waveforms = TimelineFlags(rawValue: 0x02)
    /// Bits 2–3 hold the shape stride code; bits 4–7 are reserved and must be zero.
    static let strideMask: UInt8 = 0x0C
    static let reservedMask: UInt8 = 0xF0

    /// Shape entry size for each stride code (code 3 is invalid).
    static func stride(forCode code: UInt8) -> Int? {
        switch code {
        case 0: return 3
        case 1: return 6
        case 2: return 8
        default: return nil
        }
    }

    static func code(forStride stride: Int) -> UInt8 {
        switch stride {
        case 3: return 0
        case 6: return 1
        default: return 2
        }
    }
}

/// The record kinds, in the low two bits of a record's tag byte.
enum RecordKind: UInt8 {
    case event = 0
    case parameter = 1
    case curve = 2
}

extension HapticEventType {
    /// The two-bit code of the event type inside a shape's first byte.
    var timelineCode: UInt8 {
        switch self {
        case .hapticTransient: return 0
        case .hapticContinuous: return 1
        case .audioContinuous: return 2
        case .audioCustom: return 3
        }
    }

    init(timelineCode: UInt8) {
        switch timelineCode & 3 {
        case 0: self = .hapticTransient
        case 1: self = .hapticContinuous
        case 2: self = .audioContinuous
        default: self = .audioCustom
        }
    }
}

extension DynamicParameterID {
    /// The four-bit code of a control: its `index` (declaration order).
    var timelineCode: UInt8 { UInt8(index) }

    init?(timelineCode: UInt8) { self.init(index: Int(timelineCode)) }

    /// Multiplying controls (0…1) are stored unsigned, adding controls (−1…1) signed.
    var isUnsignedInTimeline: Bool { combination == .multiply }
}
