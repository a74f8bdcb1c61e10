import ThrumModel

extension Timeline: CustomStringConvertible {
    public var description: String { describe() }

    /// Header, then one line per shape, waveform, record and keyframe, each with its byte offset.
    public func describe() -> String {
        var lines: [String] = []
        let stats = TimelineStats(self)
        lines.append("timeline v\(version), \(byteCount) bytes, checksum \(hex(checksum)), flags \(flagNames)")
        lines.append(
            "duration \(duration) ticks (\(durationSeconds) s); \(shapes.count) shapes (stride \(shapeStride)), "
                + "\(stats.events) events, \(stats.parameters) parameters, \(stats.curves) curves (\(stats.breakpoints) points), "
                + "\(keyframes.count) keyframes")
        let shapesStart = recordsStart - waveformBytes - shapes.count * shapeStride
        for (number, shape) in shapes.enumerated() {
            lines.append("@\(shapesStart + number * shapeStride) shape \(number): \(describe(shape))")
        }
        var waveformAt = recordsStart - waveformBytes
        for (number, waveform) in waveforms.enumerated() {
            lines.append("@\(waveformAt) waveform \(number): \(waveform)")
            waveformAt += Self.size(of: waveform)
        }
        for record in records {
            lines.append("@\(recordsStart + record.offset) t=\(record.time) \(describe(record.body))")
        }
        for (number, keyframe) in keyframes.enumerated() {
            let active = activeReferences(ofKeyframe: number).map { "@\(recordsStart + Int($0.recordOffset))" }
            lines.append(
                "keyframe \(number): t=\(keyframe.time) record @\(recordsStart + Int(keyframe.recordOffset)) "
                    + "base t=\(keyframe.baseTime) active [\(active.joined(separator: " "))]")
        }
        return lines.joined(separator: "\n")
    }

    private var flagNames: String {
        var names: [String] = []
        if flags.contains(.keyframes) { names.append("keyframes") }
        if flags.contains(.waveforms) { names.append("waveforms") }
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }

    private var waveformBytes: Int { waveforms.reduce(0) { $0 + Self.size(of: $1) } }

    private static func size(of waveform: Waveform) -> Int {
        switch waveform {
        case .none: return 1
        case .path(let path): return 1 + varintSize(UInt32(path.utf8.count)) + path.utf8.count
        case .resource(let id): return 1 + varintSize(id)
        }
    }

    private func describe(_ shape: Shape) -> String {
        var text = "\(shape.type.ahapName) level=\(shape.level) tone=\(shape.tone)"
        if shape.attack != 0 || shape.decay != 0 || shape.release != 0 {
            text += " attack=\(shape.attack) decay=\(shape.decay) release=\(shape.release)"
        }
        if shape.type.isAudio { text += " pitch=\(shape.pitch) pan=\(shape.pan)" }
        text += shape.sustained ? " sustained" : " not-sustained"
        if shape.hasDuration { text += " +duration" }
        if shape.useVolumeEnvelope { text += " volume-envelope" }
        if shape.loopEnabled { text += " loop" }
        return text
    }

    private func describe(_ body: RecordBody) -> String {
        switch body {
        case .event(let shape, let duration, let waveform):
            var text = "event shape=\(shape) (\(shapes[shape].type.ahapName))"
            if shapes[shape].hasDuration { text += " duration=\(duration)" }
            if let waveform { text += " waveform=\(waveform)" }
            return text
        case .parameter(let id, let raw):
            return "parameter \(id.ahapName) raw=\(raw) (\(Quantization.controlValue(id, raw)))"
        case .curve(let id, let points):
            let list = points.map { "\($0.time):\(Quantization.controlValue(id, $0.raw))" }
            return "curve \(id.ahapName) [\(list.joined(separator: " "))]"
        }
    }
}

func varintSize(_ value: UInt32) -> Int {
    var size = 1
    var rest = value >> 7
    while rest != 0 {
        size += 1
        rest >>= 7
    }
    return size
}
