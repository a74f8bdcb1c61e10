import ThrumModel

/// Reads the records section: tags, delta times, shape/waveform indices, curve points.
struct RecordDecoding {
    let shapes: [Timeline.Shape]
    let waveformCount: Int
    /// Byte offset of the records section (record offsets are relative to it).
    let start: Int
    private(set) var records: [Timeline.Record] = []
    /// The latest authored end seen: event start + duration, parameter time, curve end.
    private(set) var latestEnd: UInt32 = 0
    private var time: UInt32 = 0

    init(shapes: [Timeline.Shape], waveformCount: Int, start: Int) {
        self.shapes = shapes
        self.waveformCount = waveformCount
        self.start = start
    }

    mutating func read(_ reader: inout ByteReader) throws(TimelineDecodeError) {
        while !reader.isAtLimit {
            let at = reader.position
            let number = records.count
            let tag = try reader.byte("record \(number)")
            let deltaAt = reader.position
            let delta = try reader.varint("record \(number) delta time")
            time = try add(time, delta, at: deltaAt, "record \(number) start")
            let body: Timeline.RecordBody
            switch tag & 3 {
            case RecordKind.event.rawValue:
                body = try readEvent(tag, number, tagAt: at, &reader)
            case RecordKind.parameter.rawValue:
                guard tag & 0xC0 == 0, let id = DynamicParameterID(timelineCode: (tag >> 2) & 0x0F) else {
                    throw TimelineDecodeError(
                        .badRecord, at: at, "record \(number): parameter tag \(hex(tag)) names no control")
                }
                let valueAt = reader.position
                let raw = try reader.byte("record \(number) value")
                try checkControl(id, raw, at: valueAt, "record \(number)")
                latestEnd = max(latestEnd, time)
                body = .parameter(id, raw: raw)
            case RecordKind.curve.rawValue:
                body = try readCurve(tag, number, &reader)
            default:
                throw TimelineDecodeError(.badRecord, at: at, "record \(number): kind 3 is reserved (tag \(hex(tag)))")
            }
            records.append(Timeline.Record(offset: at - start, time: time, body: body))
        }
    }

    private mutating func readEvent(
        _ tag: UInt8, _ number: Int, tagAt: Int, _ reader: inout ByteReader
    ) throws(TimelineDecodeError) -> Timeline.RecordBody {
        var shapeNumber = Int(tag >> 2)
        let indexAt = reader.position
        if shapeNumber == TimelineFormat.inlineShapeLimit {
            shapeNumber += Int(try reader.varint("record \(number) shape index"))
        }
        guard shapeNumber < shapes.count else {
            throw TimelineDecodeError(
                .indexOutOfRange, at: shapeNumber >= TimelineFormat.inlineShapeLimit ? indexAt : tagAt,
                "record \(number): shape \(shapeNumber) of \(shapes.count)")
        }
        let shape = shapes[shapeNumber]
        var duration: UInt32 = 0
        if shape.hasDuration {
            let durationAt = reader.position
            duration = try reader.varint("record \(number) duration")
            latestEnd = max(latestEnd, try add(time, duration, at: durationAt, "record \(number) end"))
        } else {
            latestEnd = max(latestEnd, time)
        }
        var waveform: Int?
        if shape.type == .audioCustom {
            let waveformAt = reader.position
            let value = Int(try reader.varint("record \(number) waveform index"))
            guard value < waveformCount else {
                throw TimelineDecodeError(
                    .indexOutOfRange, at: waveformAt, "record \(number): waveform \(value) of \(waveformCount)")
            }
            waveform = value
        }
        return .event(shape: shapeNumber, duration: duration, waveform: waveform)
    }

    private mutating func readCurve(
        _ tag: UInt8, _ number: Int, _ reader: inout ByteReader
    ) throws(TimelineDecodeError) -> Timeline.RecordBody {
        let tagAt = reader.position - 1
        guard let id = DynamicParameterID(timelineCode: (tag >> 2) & 0x0F) else {
            throw TimelineDecodeError(.badRecord, at: tagAt, "record \(number): curve tag \(hex(tag)) names no control")
        }
        var count = Int(tag >> 6)
        if count == 0 {
            let countAt = reader.position
            count = Int(try reader.varint("record \(number) point count"))
            guard !(1...3).contains(count) else {
                throw TimelineDecodeError(
                    .badRecord, at: countAt, "record \(number): \(count) points must be stated in the tag")
            }
            guard count <= TimelineFormat.maxCurvePoints else {
                throw TimelineDecodeError(
                    .countOutOfRange, at: countAt,
                    "record \(number): \(count) points; at most \(TimelineFormat.maxCurvePoints)")
            }
            // Each point takes at least two bytes: refuse before reserving memory for them.
            guard count * 2 <= reader.remaining else {
                throw TimelineDecodeError(
                    .truncated, at: reader.limit,
                    "record \(number): \(count) points cannot fit in the \(reader.remaining) bytes left")
            }
        }
        var points: [Timeline.CurvePoint] = []
        points.reserveCapacity(count)
        var pointTime: UInt32 = 0
        for point in 0..<count {
            let deltaAt = reader.position
            let delta = try reader.varint("record \(number) point \(point) time")
            pointTime = try add(pointTime, delta, at: deltaAt, "record \(number) point \(point)")
            _ = try add(time, pointTime, at: deltaAt, "record \(number) point \(point)")
            let valueAt = reader.position
            let raw = try reader.byte("record \(number) point \(point) value")
            try checkControl(id, raw, at: valueAt, "record \(number) point \(point)")
            points.append(Timeline.CurvePoint(time: pointTime, raw: raw))
        }
        latestEnd = max(latestEnd, time + pointTime)
        return .curve(id, points: points)
    }

    private func checkControl(
        _ id: DynamicParameterID, _ raw: UInt8, at offset: Int, _ what: String
    ) throws(TimelineDecodeError) {
        if !id.isUnsignedInTimeline && raw == 0x80 {
            throw TimelineDecodeError(.valueOutOfRange, at: offset, "\(what): 0x80 (−128) is not an SQ8 value")
        }
    }

    private func add(
        _ base: UInt32, _ delta: UInt32, at offset: Int, _ what: String
    ) throws(TimelineDecodeError) -> UInt32 {
        let sum = UInt64(base) + UInt64(delta)
        guard sum <= UInt64(TimelineFormat.maxTicks) else {
            throw TimelineDecodeError(
                .timeOutOfRange, at: offset, "\(what) at \(sum) ticks is past \(TimelineFormat.maxTicks)")
        }
        return UInt32(sum)
    }

}
