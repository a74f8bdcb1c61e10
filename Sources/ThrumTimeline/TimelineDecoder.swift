import ThrumModel

/// Bytes → `Timeline`, validating everything the spec requires before any value is used:
/// every count, length, offset and index is checked against what remains or what exists.
public enum TimelineDecoder {
    public static func decode(_ bytes: some Collection<UInt8>) throws(TimelineDecodeError) -> Timeline {
        var decoder = Decoding(Array(bytes))
        return try decoder.run()
    }
}

private struct Decoding {
    let bytes: [UInt8]
    var reader: ByteReader
    var flags = TimelineFlags()
    var stride = 3

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.reader = ByteReader(bytes)
    }

    mutating func run() throws(TimelineDecodeError) -> Timeline {
        try readFixedHeader()
        let checksum = try reader.uint32("the checksum")
        let computed = CRC32.timelineChecksum(bytes)
        guard computed == checksum else {
            throw TimelineDecodeError(
                .badChecksum, at: 4, "checksum field is \(hex(checksum)), content gives \(hex(computed))")
        }

        let durationAt = reader.position
        let duration = try reader.varint("the duration")
        guard duration <= TimelineFormat.maxTicks else {
            throw TimelineDecodeError(
                .timeOutOfRange, at: durationAt, "duration \(duration) ticks exceeds \(TimelineFormat.maxTicks)")
        }
        let shapeCountAt = reader.position
        let shapeCount = Int(try reader.varint("the shape count"))
        guard shapeCount <= TimelineFormat.maxShapes else {
            throw TimelineDecodeError(
                .countOutOfRange, at: shapeCountAt, "\(shapeCount) shapes; at most \(TimelineFormat.maxShapes)")
        }
        var waveformCount = 0
        if flags.contains(.waveforms) {
            let at = reader.position
            waveformCount = Int(try reader.varint("the waveform count"))
            guard (1...TimelineFormat.maxWaveforms).contains(waveformCount) else {
                throw TimelineDecodeError(
                    .countOutOfRange, at: at,
                    "\(waveformCount) waveforms; 1…\(TimelineFormat.maxWaveforms) when the flag is set")
            }
        }
        var index: (recordsLength: Int, keyframes: Int, active: Int, at: Int)?
        if flags.contains(.keyframes) {
            let at = reader.position
            let recordsLength = Int(try reader.varint("the records length"))
            let keyframes = Int(try reader.varint("the keyframe count"))
            let active = Int(try reader.varint("the active reference count"))
            index = (recordsLength, keyframes, active, at)
        }

        guard shapeCount * stride <= reader.remaining else {
            throw TimelineDecodeError(
                .truncated, at: bytes.count,
                "\(shapeCount) shapes of \(stride) bytes need \(shapeCount * stride) bytes; \(reader.remaining) remain")
        }
        var shapes: [Timeline.Shape] = []
        shapes.reserveCapacity(shapeCount)
        for number in 0..<shapeCount { shapes.append(try readShape(number)) }

        var waveforms: [Timeline.Waveform] = []
        for number in 0..<waveformCount { waveforms.append(try readWaveform(number)) }

        let recordsStart = reader.position
        var recordsEnd = bytes.count
        if let index {
            let tail = index.keyframes * TimelineFormat.keyframeSize + index.active * TimelineFormat.activeReferenceSize
            let needed = index.recordsLength + tail
            if needed > reader.remaining {
                throw TimelineDecodeError(
                    .truncated, at: bytes.count,
                    "records (\(index.recordsLength) bytes) and keyframe index (\(tail) bytes) need \(needed) bytes; \(reader.remaining) remain"
                )
            }
            if needed < reader.remaining {
                throw TimelineDecodeError(
                    .trailingBytes, at: recordsStart + needed,
                    "\(reader.remaining - needed) bytes after the keyframe index")
            }
            recordsEnd = recordsStart + index.recordsLength
        }

        var records = RecordDecoding(shapes: shapes, waveformCount: waveformCount, start: recordsStart)
        reader.limit = recordsEnd
        try records.read(&reader)
        reader.limit = bytes.count

        guard records.latestEnd == duration else {
            throw TimelineDecodeError(
                .durationMismatch, at: durationAt,
                "header duration \(duration) ticks, but the records end at \(records.latestEnd) ticks")
        }

        var keyframes: [Timeline.Keyframe] = []
        var active: [Timeline.ActiveReference] = []
        if let index {
            (keyframes, active) = try KeyframeDecoding.read(
                &reader, keyframeCount: index.keyframes, activeCount: index.active, records: records.records)
        }

        return Timeline(
            version: bytes[2], flags: flags, checksum: checksum, duration: duration, shapeStride: stride,
            shapes: shapes, waveforms: waveforms, records: records.records, keyframes: keyframes,
            activeReferences: active, recordsStart: recordsStart, byteCount: bytes.count)
    }

    private mutating func readFixedHeader() throws(TimelineDecodeError) {
        let first = try reader.byte("the magic")
        let second = try reader.byte("the magic")
        guard first == TimelineFormat.magic.0, second == TimelineFormat.magic.1 else {
            throw TimelineDecodeError(.badMagic, at: 0, "starts with \(hex(first)) \(hex(second)), not 54 4C (\"TL\")")
        }
        let version = try reader.byte("the version")
        guard version == TimelineFormat.version else {
            throw TimelineDecodeError(
                .badVersion, at: 2, "format version \(version); this reader knows \(TimelineFormat.version)")
        }
        let raw = try reader.byte("the flags")
        guard raw & TimelineFlags.reservedMask == 0 else {
            throw TimelineDecodeError(.badFlags, at: 3, "reserved flag bits set in \(hex(raw))")
        }
        guard let stride = TimelineFlags.stride(forCode: (raw & TimelineFlags.strideMask) >> 2) else {
            throw TimelineDecodeError(.badFlags, at: 3, "shape stride code 3 is reserved")
        }
        flags = TimelineFlags(rawValue: raw & ~TimelineFlags.strideMask)
        self.stride = stride
        guard bytes.count >= TimelineFormat.fixedHeaderSize else {
            throw TimelineDecodeError(.truncated, at: bytes.count, "ends inside the checksum")
        }
    }

    private mutating func readShape(_ number: Int) throws(TimelineDecodeError) -> Timeline.Shape {
        let at = reader.position
        let first = try reader.byte("shape \(number)")
        guard first & 0xC0 == 0 else {
            throw TimelineDecodeError(.badShape, at: at, "shape \(number) sets reserved bits in \(hex(first))")
        }
        var shape = Timeline.Shape(
            type: HapticEventType(timelineCode: first & 3), sustained: first & 0x04 != 0,
            hasDuration: first & 0x08 != 0,
            useVolumeEnvelope: first & 0x10 != 0, loopEnabled: first & 0x20 != 0,
            level: try reader.byte("shape \(number)"), tone: try reader.byte("shape \(number)"))
        if stride >= 6 {
            shape.attack = try reader.byte("shape \(number)")
            shape.decay = try reader.byte("shape \(number)")
            shape.release = try reader.byte("shape \(number)")
        }
        if stride >= 8 {
            shape.pitch = Int8(bitPattern: try reader.byte("shape \(number)"))
            shape.pan = Int8(bitPattern: try reader.byte("shape \(number)"))
            guard shape.pitch != -128, shape.pan != -128 else {
                throw TimelineDecodeError(
                    .valueOutOfRange, at: at + 6, "shape \(number): pitch/pan byte 0x80 (−128) is not an SQ8 value")
            }
        }
        if shape.type.isContinuous && !shape.hasDuration {
            throw TimelineDecodeError(
                .badShape, at: at, "shape \(number) is \(shape.type.ahapName) but does not carry a duration")
        }
        if shape.type != .audioCustom && (shape.useVolumeEnvelope || shape.loopEnabled) {
            throw TimelineDecodeError(
                .badShape, at: at, "shape \(number): waveform flags on a \(shape.type.ahapName) shape")
        }
        if shape.type.isHaptic && (shape.pitch != 0 || shape.pan != 0) {
            throw TimelineDecodeError(.badShape, at: at + 6, "shape \(number): pitch/pan on a haptic shape")
        }
        return shape
    }

    private mutating func readWaveform(_ number: Int) throws(TimelineDecodeError) -> Timeline.Waveform {
        let at = reader.position
        switch try reader.byte("waveform \(number)") {
        case 0:
            return .none
        case 1:
            let lengthAt = reader.position
            let length = Int(try reader.varint("waveform \(number) path length"))
            guard (1...TimelineFormat.maxPathBytes).contains(length) else {
                throw TimelineDecodeError(
                    .badWaveform, at: lengthAt,
                    "waveform \(number): path of \(length) bytes; 1…\(TimelineFormat.maxPathBytes) allowed")
            }
            let utf8 = try reader.take(length, "waveform \(number) path")
            guard let path = String(validating: utf8, as: UTF8.self) else {
                throw TimelineDecodeError(.badWaveform, at: lengthAt + 1, "waveform \(number): path is not valid UTF-8")
            }
            return .path(path)
        case 2:
            return .resource(try reader.varint("waveform \(number) resource ID"))
        case let kind:
            throw TimelineDecodeError(.badWaveform, at: at, "waveform \(number): unknown kind \(kind)")
        }
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}

func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
