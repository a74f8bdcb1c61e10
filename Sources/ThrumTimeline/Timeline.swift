import ThrumModel

/// A decoded timeline: every header field and record, with quantised values as stored.
/// `toPattern()` turns it back into a (dequantised) `HapticPattern`.
public struct Timeline: Sendable, Hashable {
    /// The event-independent part of an event: type, envelope flags and parameter values.
    public struct Shape: Sendable, Hashable {
        public var type: HapticEventType
        public var sustained: Bool
        /// Records using this shape carry a duration (always for continuous kinds).
        public var hasDuration: Bool
        /// `AudioCustom` only.
        public var useVolumeEnvelope: Bool
        /// `AudioCustom` only.
        public var loopEnabled: Bool
        /// Intensity (haptic) or volume (audio), UQ8.
        public var level: UInt8
        /// Sharpness (haptic) or brightness (audio), UQ8.
        public var tone: UInt8
        public var attack: UInt8
        public var decay: UInt8
        public var release: UInt8
        /// Audio only, SQ8.
        public var pitch: Int8
        /// Audio only, SQ8.
        public var pan: Int8

        public init(
            type: HapticEventType, sustained: Bool = true, hasDuration: Bool = false,
            useVolumeEnvelope: Bool = false, loopEnabled: Bool = false,
            level: UInt8, tone: UInt8, attack: UInt8 = 0, decay: UInt8 = 0, release: UInt8 = 0,
            pitch: Int8 = 0, pan: Int8 = 0
        ) {
            self.type = type
            self.sustained = sustained
            self.hasDuration = hasDuration
            self.useVolumeEnvelope = useVolumeEnvelope
            self.loopEnabled = loopEnabled
            self.level = level
            self.tone = tone
            self.attack = attack
            self.decay = decay
            self.release = release
            self.pitch = pitch
            self.pan = pan
        }

        /// The smallest stride that holds this shape: 3, 6 (envelope) or 8 (pitch/pan).
        var minimumStride: Int {
            if pitch != 0 || pan != 0 { return 8 }
            if attack != 0 || decay != 0 || release != 0 { return 6 }
            return 3
        }
    }

    /// What an `AudioCustom` event plays.
    public enum Waveform: Sendable, Hashable {
        case none
        case path(String)
        case resource(UInt32)
    }

    public struct CurvePoint: Sendable, Hashable {
        /// Ticks from the curve's start.
        public var time: UInt32
        /// UQ8 or SQ8 by the control (see `Quantization.controlValue`).
        public var raw: UInt8

        public init(time: UInt32, raw: UInt8) {
            self.time = time
            self.raw = raw
        }
    }

    public enum RecordBody: Sendable, Hashable {
        case event(shape: Int, duration: UInt32, waveform: Int?)
        case parameter(DynamicParameterID, raw: UInt8)
        case curve(DynamicParameterID, points: [CurvePoint])
    }

    public struct Record: Sendable, Hashable {
        /// Byte offset from the start of the records section (what keyframes refer to).
        public var offset: Int
        /// Absolute start, in ticks.
        public var time: UInt32
        public var body: RecordBody
    }

    public struct Keyframe: Sendable, Hashable {
        /// The time of the first record at `recordOffset`; every earlier record is earlier.
        public var time: UInt32
        public var recordOffset: UInt32
        /// Absolute time of the record before `recordOffset` (0 for the first), to resume delta decoding.
        public var baseTime: UInt32
        /// Index of this keyframe's first entry in `activeReferences`.
        public var activeFirst: UInt32
    }

    /// A record before a keyframe whose effect may still hold at the keyframe.
    public struct ActiveReference: Sendable, Hashable {
        public var recordOffset: UInt32
        public var time: UInt32
    }

    public var version: UInt8
    public var flags: TimelineFlags
    public var checksum: UInt32
    /// Ticks, per `HapticPattern.duration`.
    public var duration: UInt32
    public var shapeStride: Int
    public var shapes: [Shape]
    public var waveforms: [Waveform]
    public var records: [Record]
    public var keyframes: [Keyframe]
    public var activeReferences: [ActiveReference]
    /// Byte offset of the records section within the timeline.
    public var recordsStart: Int
    /// Total size of the encoded timeline.
    public var byteCount: Int

    public var durationSeconds: Double { Quantization.seconds(duration) }

    /// Event records with their shapes resolved.
    public var events: [(time: UInt32, duration: UInt32, shape: Shape, waveform: Waveform?)] {
        records.compactMap { record in
            guard case .event(let shape, let duration, let waveform) = record.body else { return nil }
            return (record.time, duration, shapes[shape], waveform.map { waveforms[$0] })
        }
    }

    public var parameters: [(time: UInt32, id: DynamicParameterID, raw: UInt8)] {
        records.compactMap { record in
            guard case .parameter(let id, let raw) = record.body else { return nil }
            return (record.time, id, raw)
        }
    }

    public var curves: [(time: UInt32, id: DynamicParameterID, points: [CurvePoint])] {
        records.compactMap { record in
            guard case .curve(let id, let points) = record.body else { return nil }
            return (record.time, id, points)
        }
    }

    public var stats: TimelineStats { TimelineStats(self) }

    /// Active entries of keyframe `index` (they run to the next keyframe's first entry).
    public func activeReferences(ofKeyframe index: Int) -> ArraySlice<ActiveReference> {
        let first = Int(keyframes[index].activeFirst)
        let end = index + 1 < keyframes.count ? Int(keyframes[index + 1].activeFirst) : activeReferences.count
        return activeReferences[first..<end]
    }
}

/// Sizes, for `thrum inspect` and the compactness figures.
public struct TimelineStats: Sendable, Hashable {
    public var events: Int
    public var parameters: Int
    public var curves: Int
    public var breakpoints: Int
    public var shapes: Int
    public var keyframes: Int
    public var bytes: Int

    public init(_ timeline: Timeline) {
        var events = 0, parameters = 0, curves = 0, breakpoints = 0
        for record in timeline.records {
            switch record.body {
            case .event: events += 1
            case .parameter: parameters += 1
            case .curve(_, let points):
                curves += 1
                breakpoints += points.count
            }
        }
        self.events = events
        self.parameters = parameters
        self.curves = curves
        self.breakpoints = breakpoints
        self.shapes = timeline.shapes.count
        self.keyframes = timeline.keyframes.count
        self.bytes = timeline.byteCount
    }
}
