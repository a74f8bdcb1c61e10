/// Reads and checks the keyframe index against the records already decoded.
enum KeyframeDecoding {
    static func read(
        _ reader: inout ByteReader, keyframeCount: Int, activeCount: Int, records: [Timeline.Record]
    ) throws(TimelineDecodeError) -> ([Timeline.Keyframe], [Timeline.ActiveReference]) {
        // Record offsets are increasing, so a binary search maps an offset to its record.
        func record(at offset: UInt32) -> Int? {
            var (low, high) = (0, records.count)
            while low < high {
                let middle = (low + high) / 2
                if records[middle].offset < Int(offset) { low = middle + 1 } else { high = middle }
            }
            return low < records.count && records[low].offset == Int(offset) ? low : nil
        }

        var keyframes: [Timeline.Keyframe] = []
        keyframes.reserveCapacity(keyframeCount)
        for number in 0..<keyframeCount {
            let at = reader.position
            let keyframe = Timeline.Keyframe(
                time: try reader.uint32("keyframe \(number)"), recordOffset: try reader.uint32("keyframe \(number)"),
                baseTime: try reader.uint32("keyframe \(number)"), activeFirst: try reader.uint32("keyframe \(number)"))
            guard let index = record(at: keyframe.recordOffset) else {
                throw TimelineDecodeError(
                    .badKeyframe, at: at + 4,
                    "keyframe \(number): offset \(keyframe.recordOffset) is not the start of a record")
            }
            let base = index == 0 ? 0 : records[index - 1].time
            guard records[index].time == keyframe.time, index == 0 || base < keyframe.time else {
                throw TimelineDecodeError(
                    .badKeyframe, at: at,
                    "keyframe \(number): time \(keyframe.time) is not that of the first record, at \(records[index].time) ticks"
                )
            }
            guard keyframe.baseTime == base else {
                throw TimelineDecodeError(
                    .badKeyframe, at: at + 8,
                    "keyframe \(number): base time \(keyframe.baseTime), the previous record is at \(base)")
            }
            if let previous = keyframes.last, previous.time >= keyframe.time {
                throw TimelineDecodeError(
                    .badKeyframe, at: at,
                    "keyframe \(number): time \(keyframe.time) is not after the previous keyframe's \(previous.time)")
            }
            let expectedFirst = keyframes.last?.activeFirst ?? 0
            guard keyframes.isEmpty ? keyframe.activeFirst == 0 : keyframe.activeFirst >= expectedFirst,
                Int(keyframe.activeFirst) <= activeCount
            else {
                throw TimelineDecodeError(
                    .badKeyframe, at: at + 12,
                    "keyframe \(number): first active entry \(keyframe.activeFirst) out of order or past \(activeCount)"
                )
            }
            keyframes.append(keyframe)
        }

        var active: [Timeline.ActiveReference] = []
        active.reserveCapacity(activeCount)
        var owner = 0
        for number in 0..<activeCount {
            let at = reader.position
            let reference = Timeline.ActiveReference(
                recordOffset: try reader.uint32("active entry \(number)"),
                time: try reader.uint32("active entry \(number)"))
            while owner + 1 < keyframes.count && Int(keyframes[owner + 1].activeFirst) <= number { owner += 1 }
            guard !keyframes.isEmpty else {
                throw TimelineDecodeError(.badKeyframe, at: at, "active entry \(number) belongs to no keyframe")
            }
            guard let index = record(at: reference.recordOffset), reference.recordOffset < keyframes[owner].recordOffset
            else {
                throw TimelineDecodeError(
                    .indexOutOfRange, at: at,
                    "active entry \(number): offset \(reference.recordOffset) is not a record before keyframe \(owner)")
            }
            guard records[index].time == reference.time else {
                throw TimelineDecodeError(
                    .badKeyframe, at: at + 4,
                    "active entry \(number): time \(reference.time), the record starts at \(records[index].time)")
            }
            active.append(reference)
        }
        return (keyframes, active)
    }
}
