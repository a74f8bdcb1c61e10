import ThrumModel

/// Pattern → timeline bytes (Protocol/TIMELINE.md). Linear after the stable sort by time.
public enum TimelineCompiler {
    public static func compile(_ pattern: HapticPattern, options: CompileOptions = .init()) throws -> [UInt8] {
        var builder = try RecordBuilder(pattern, options: options)
        let records = builder.writeRecords()
        let keyframes = try KeyframeIndex.build(builder.trace, recordCount: builder.recordCount, options: options)
        return assemble(builder, records: records, keyframes: keyframes)
    }

    private static func assemble(_ builder: RecordBuilder, records: [UInt8], keyframes: KeyframeIndex?) -> [UInt8] {
        let stride = builder.shapes.map(\.minimumStride).max() ?? 3
        var flags: UInt8 = TimelineFlags.code(forStride: stride) << 2
        if keyframes != nil { flags |= TimelineFlags.keyframes.rawValue }
        if !builder.waveforms.isEmpty { flags |= TimelineFlags.waveforms.rawValue }

        var out = ByteWriter(capacity: records.count + builder.shapes.count * stride + 64)
        out.byte(TimelineFormat.magic.0)
        out.byte(TimelineFormat.magic.1)
        out.byte(TimelineFormat.version)
        out.byte(flags)
        out.uint32(0)  // checksum, filled in last
        out.varint(builder.durationTicks)
        out.varint(UInt32(builder.shapes.count))
        if !builder.waveforms.isEmpty { out.varint(UInt32(builder.waveforms.count)) }
        if let keyframes {
            out.varint(UInt32(records.count))
            out.varint(UInt32(keyframes.keyframes.count))
            out.varint(UInt32(keyframes.active.count))
        }
        for shape in builder.shapes { ShapeCoding.write(shape, stride: stride, to: &out) }
        for waveform in builder.waveforms { ShapeCoding.write(waveform, to: &out) }
        out.append(records)
        if let keyframes { keyframes.write(to: &out) }

        var bytes = out.bytes
        let crc = CRC32.timelineChecksum(bytes)
        for index in 0..<4 { bytes[4 + index] = UInt8((crc >> (8 * UInt32(index))) & 0xFF) }
        return bytes
    }
}

/// Byte layouts of shapes and waveform entries, shared by compiler and decoder docs.
enum ShapeCoding {
    static func firstByte(_ shape: Timeline.Shape) -> UInt8 {
        var byte = shape.type.timelineCode
        if shape.sustained { byte |= 0x04 }
        if shape.hasDuration { byte |= 0x08 }
        if shape.useVolumeEnvelope { byte |= 0x10 }
        if shape.loopEnabled { byte |= 0x20 }
        return byte
    }

    static func write(_ shape: Timeline.Shape, stride: Int, to out: inout ByteWriter) {
        out.byte(firstByte(shape))
        out.byte(shape.level)
        out.byte(shape.tone)
        if stride >= 6 {
            out.byte(shape.attack)
            out.byte(shape.decay)
            out.byte(shape.release)
        }
        if stride >= 8 {
            out.byte(UInt8(bitPattern: shape.pitch))
            out.byte(UInt8(bitPattern: shape.pan))
        }
    }

    static func write(_ waveform: Timeline.Waveform, to out: inout ByteWriter) {
        switch waveform {
        case .none:
            out.byte(0)
        case .path(let path):
            let utf8 = Array(path.utf8)
            out.byte(1)
            out.varint(UInt32(utf8.count))
            out.append(utf8)
        case .resource(let id):
            out.byte(2)
            out.varint(id)
        }
    }
}
