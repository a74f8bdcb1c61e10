import ThrumModel

extension EventParameterID {
    /// Position in `allCases`, for small fixed tables.
    var slot: Int {
        switch self {
        case .hapticIntensity: return 0
        case .hapticSharpness: return 1
        case .attackTime: return 2
        case .decayTime: return 3
        case .releaseTime: return 4
        case .sustained: return 5
        case .audioVolume: return 6
        case .audioPitch: return 7
        case .audioPan: return 8
        case .audioBrightness: return 9
        }
    }
}

/// One record as the keyframe index needs to know it.
struct TraceEntry {
    var offset: UInt32
    var time: UInt32
    /// Authored end plus the longest tail the event type can have (controls: their start).
    var end: UInt32
    /// Control code for parameters and curves, -1 for events.
    var control: Int8
}

/// Quantises a pattern, deduplicates shapes and waveforms, and writes the records section.
struct RecordBuilder {
    private enum Item {
        case event(Int)
        case parameter(Int)
        case curve(Int)
    }

    private struct QuantisedEvent {
        var start: UInt32
        var duration: UInt32
        var shape: Int
        var waveform: Int?
    }

    private struct QuantisedCurve {
        var start: UInt32
        var id: DynamicParameterID
        var points: [Timeline.CurvePoint]
    }

    private(set) var shapes: [Timeline.Shape] = []
    private(set) var waveforms: [Timeline.Waveform] = []
    private(set) var durationTicks: UInt32 = 0
    private(set) var trace: [TraceEntry] = []

    private var events: [QuantisedEvent] = []
    private var parameters: [(start: UInt32, id: DynamicParameterID, raw: UInt8)] = []
    private var curves: [QuantisedCurve] = []
    private var wantsTrace: Bool

    var recordCount: Int { events.count + parameters.count + curves.count }

    init(_ pattern: HapticPattern, options: CompileOptions = .init()) throws {
        // Readers hand over normalised patterns; sorting again would be the costliest step.
        let sorted = Self.isNormalized(pattern) ? pattern : pattern.normalized()
        wantsTrace = false
        var shapeIndex: [UInt64: Int] = [:]
        var waveformIndex: [Timeline.Waveform: Int] = [:]
        events.reserveCapacity(sorted.events.count)

        let here = DiagnosticPath.root / "events"
        for (index, event) in sorted.events.enumerated() {
            let start = try Self.ticks(event.time, at: here[index] / "time")
            guard event.duration.isFinite, event.duration >= 0 else {
                throw CompileError(
                    .timeOutOfRange, at: here[index] / "duration",
                    "duration \(event.duration) s is negative or not finite")
            }
            let end = try Self.ticks(event.time + event.duration, at: here[index] / "duration")
            let duration = end - start
            let shape = Self.shape(of: event, hasDuration: event.type.isContinuous || duration > 0)
            let key = Self.key(shape)
            let shapeNumber: Int
            if let known = shapeIndex[key] {
                shapeNumber = known
            } else {
                guard shapes.count < TimelineFormat.maxShapes else {
                    throw CompileError(
                        .tooManyShapes, at: here[index], "more than \(TimelineFormat.maxShapes) distinct event shapes")
                }
                shapeNumber = shapes.count
                shapeIndex[key] = shapeNumber
                shapes.append(shape)
            }
            var waveformNumber: Int?
            if event.type == .audioCustom {
                let waveform = try Self.waveform(of: event, at: here[index] / "waveform")
                if let known = waveformIndex[waveform] {
                    waveformNumber = known
                } else {
                    guard waveforms.count < TimelineFormat.maxWaveforms else {
                        throw CompileError(
                            .tooManyWaveforms, at: here[index],
                            "more than \(TimelineFormat.maxWaveforms) distinct waveforms")
                    }
                    waveformNumber = waveforms.count
                    waveformIndex[waveform] = waveforms.count
                    waveforms.append(waveform)
                }
            }
            events.append(
                QuantisedEvent(start: start, duration: duration, shape: shapeNumber, waveform: waveformNumber))
            durationTicks = max(durationTicks, end)
        }

        for (index, parameter) in sorted.parameters.enumerated() {
            let start = try Self.ticks(parameter.time, at: (DiagnosticPath.root / "parameters")[index] / "time")
            parameters.append((start, parameter.id, Quantization.control(parameter.id, parameter.value)))
            durationTicks = max(durationTicks, start)
        }

        for (index, curve) in sorted.parameterCurves.enumerated() {
            let here = (DiagnosticPath.root / "parameterCurves")[index]
            let start = try Self.ticks(curve.time, at: here / "time")
            guard curve.controlPoints.count <= TimelineFormat.maxCurvePoints else {
                throw CompileError(
                    .tooManyCurvePoints, at: here,
                    "\(curve.controlPoints.count) control points; at most \(TimelineFormat.maxCurvePoints)")
            }
            var points: [Timeline.CurvePoint] = []
            points.reserveCapacity(curve.controlPoints.count)
            // Points are kept in time order (stable), as the board walks them forwards.
            let ordered = curve.controlPoints.enumerated().sorted { lhs, rhs in
                lhs.element.time != rhs.element.time ? lhs.element.time < rhs.element.time : lhs.offset < rhs.offset
            }
            for (pointIndex, point) in ordered {
                guard point.time.isFinite, point.time >= 0 else {
                    throw CompileError(
                        .timeOutOfRange, at: (here / "controlPoints")[pointIndex] / "time",
                        "control point time \(point.time) s is negative or not finite")
                }
                let absolute = try Self.ticks(
                    curve.time + point.time, at: (here / "controlPoints")[pointIndex] / "time")
                points.append(
                    Timeline.CurvePoint(time: absolute - start, raw: Quantization.control(curve.id, point.value)))
            }
            curves.append(QuantisedCurve(start: start, id: curve.id, points: points))
            durationTicks = max(durationTicks, start + (points.last?.time ?? 0))
        }

        wantsTrace = KeyframeIndex.isWanted(recordCount: recordCount, options: options)
    }

    /// Writes the records in time order: at equal ticks events first, then parameters, then curves.
    mutating func writeRecords() -> [UInt8] {
        var out = ByteWriter(capacity: events.count * 3 + parameters.count * 3 + curves.count * 8)
        if wantsTrace { trace.reserveCapacity(recordCount) }
        var (e, p, c) = (0, 0, 0)
        var previous: UInt32 = 0
        while e < events.count || p < parameters.count || c < curves.count {
            let eventTime = e < events.count ? events[e].start : UInt32.max
            let parameterTime = p < parameters.count ? parameters[p].start : UInt32.max
            let curveTime = c < curves.count ? curves[c].start : UInt32.max
            let offset = UInt32(out.count)
            if e < events.count, eventTime <= parameterTime, eventTime <= curveTime {
                let event = events[e]
                let shape = shapes[event.shape]
                let inline = min(event.shape, TimelineFormat.inlineShapeLimit)
                out.byte(UInt8(inline << 2) | RecordKind.event.rawValue)
                out.varint(event.start - previous)
                if inline == TimelineFormat.inlineShapeLimit { out.varint(UInt32(event.shape - inline)) }
                if shape.hasDuration { out.varint(event.duration) }
                if let waveform = event.waveform { out.varint(UInt32(waveform)) }
                if wantsTrace {
                    trace.append(
                        TraceEntry(
                            offset: offset, time: event.start,
                            end: event.start + event.duration + TimelineFormat.tailTicks(shape.type), control: -1))
                }
                previous = event.start
                e += 1
            } else if p < parameters.count, parameterTime <= curveTime {
                let parameter = parameters[p]
                out.byte(parameter.id.timelineCode << 2 | RecordKind.parameter.rawValue)
                out.varint(parameter.start - previous)
                out.byte(parameter.raw)
                if wantsTrace {
                    trace.append(
                        TraceEntry(
                            offset: offset, time: parameter.start, end: parameter.start,
                            control: Int8(parameter.id.timelineCode)))
                }
                previous = parameter.start
                p += 1
            } else {
                let curve = curves[c]
                let inlineCount = (1...3).contains(curve.points.count) ? UInt8(curve.points.count) : 0
                out.byte(inlineCount << 6 | curve.id.timelineCode << 2 | RecordKind.curve.rawValue)
                out.varint(curve.start - previous)
                if inlineCount == 0 { out.varint(UInt32(curve.points.count)) }
                var pointPrevious: UInt32 = 0
                for point in curve.points {
                    out.varint(point.time - pointPrevious)
                    out.byte(point.raw)
                    pointPrevious = point.time
                }
                if wantsTrace {
                    trace.append(
                        TraceEntry(
                            offset: offset, time: curve.start, end: curve.start + pointPrevious,
                            control: Int8(curve.id.timelineCode)))
                }
                previous = curve.start
                c += 1
            }
        }
        return out.bytes
    }

    /// The location is built only on failure: paths allocate, and this runs per record.
    private static func ticks(_ seconds: Double, at location: @autoclosure () -> DiagnosticPath) throws -> UInt32 {
        guard let ticks = Quantization.ticks(seconds) else {
            throw CompileError(
                .timeOutOfRange, at: location(),
                "\(seconds) s is negative, not finite, or later than \(TimelineFormat.maxTicks) ticks")
        }
        return ticks
    }

    static func shape(of event: HapticEvent, hasDuration: Bool) -> Timeline.Shape {
        // One pass over the authored parameters (the last of each ID wins, as in `HapticEvent.value(of:)`).
        var authored = InlineArray<10, Float>(repeating: .signalingNaN)
        var present: UInt16 = 0
        for parameter in event.parameters {
            authored[parameter.id.slot] = parameter.value
            present |= 1 << parameter.id.slot
        }
        func value(_ id: EventParameterID) -> Float {
            guard present & (1 << id.slot) != 0 else { return id.defaultValue(for: event.type) }
            return id.range.clamp(authored[id.slot])
        }
        let isAudio = event.type.isAudio
        let waveform = event.type == .audioCustom ? (event.waveform ?? AudioWaveform()) : nil
        return Timeline.Shape(
            type: event.type,
            sustained: value(.sustained) >= 0.5,
            hasDuration: hasDuration,
            useVolumeEnvelope: waveform?.useVolumeEnvelope ?? false,
            loopEnabled: waveform?.loopEnabled ?? false,
            level: Quantization.unit(value(isAudio ? .audioVolume : .hapticIntensity)),
            tone: Quantization.unit(value(isAudio ? .audioBrightness : .hapticSharpness)),
            attack: Quantization.unit(value(.attackTime)),
            decay: Quantization.unit(value(.decayTime)),
            release: Quantization.unit(value(.releaseTime)),
            pitch: isAudio ? Quantization.signed(value(.audioPitch)) : 0,
            pan: isAudio ? Quantization.signed(value(.audioPan)) : 0
        )
    }

    /// The shape's bytes as one integer: a cheap dictionary key (the stride-8 layout is injective).
    static func key(_ shape: Timeline.Shape) -> UInt64 {
        var key = UInt64(ShapeCoding.firstByte(shape))
        key |= UInt64(shape.level) << 8 | UInt64(shape.tone) << 16 | UInt64(shape.attack) << 24
        key |= UInt64(shape.decay) << 32 | UInt64(shape.release) << 40
        key |= UInt64(UInt8(bitPattern: shape.pitch)) << 48 | UInt64(UInt8(bitPattern: shape.pan)) << 56
        return key
    }

    static func isNormalized(_ pattern: HapticPattern) -> Bool {
        func sorted(_ times: some Sequence<Double>) -> Bool {
            var previous = -Double.infinity
            for time in times {
                // NaN compares false both ways: leave such patterns to `normalized()` (then to the limit checks).
                guard time >= previous else { return false }
                previous = time
            }
            return true
        }
        return sorted(pattern.events.lazy.map(\.time)) && sorted(pattern.parameters.lazy.map(\.time))
            && sorted(pattern.parameterCurves.lazy.map(\.time))
    }

    private static func waveform(of event: HapticEvent, at location: DiagnosticPath) throws -> Timeline.Waveform {
        guard let waveform = event.waveform else { return .none }
        if let path = waveform.path {
            let length = path.utf8.count
            guard (1...TimelineFormat.maxPathBytes).contains(length) else {
                throw CompileError(
                    .badWaveform, at: location / "path",
                    "path of \(length) UTF-8 bytes; 1…\(TimelineFormat.maxPathBytes) allowed")
            }
            return .path(path)
        }
        if let id = waveform.resourceID {
            guard let resource = UInt32(exactly: id) else {
                throw CompileError(
                    .badWaveform, at: location / "resourceID", "resource ID \(id) is outside 0…\(UInt32.max)")
            }
            return .resource(resource)
        }
        return .none
    }
}
