import ThrumModel

/// The optional seek/loop index: keyframes at roughly regular instants, each with the records
/// whose effect may still hold there (sounding events, the latest control of each ID).
struct KeyframeIndex {
    var keyframes: [Timeline.Keyframe] = []
    var active: [Timeline.ActiveReference] = []

    static func isWanted(recordCount: Int, options: CompileOptions) -> Bool {
        switch options.keyframes {
        case .never: return false
        case .always: return true
        case .automatic: return recordCount >= CompileOptions.automaticKeyframeThreshold
        }
    }

    static func build(_ trace: [TraceEntry], recordCount: Int, options: CompileOptions) throws -> KeyframeIndex? {
        guard isWanted(recordCount: recordCount, options: options) else { return nil }
        guard let interval = Quantization.ticks(options.keyframeInterval), interval > 0 else {
            throw CompileError(
                .badOption, at: "keyframeInterval",
                "keyframe interval \(options.keyframeInterval) s must be at least one tick")
        }
        do {
            return try make(trace, interval: interval)
        } catch let error as CompileError where options.keyframes == .automatic && error.reason == .tooManyActiveEvents
        {
            return nil  // automatic: a pattern too dense for the index simply goes without one
        }
    }

    private static func make(_ trace: [TraceEntry], interval: UInt32) throws -> KeyframeIndex {
        var index = KeyframeIndex()
        var sounding: [TraceEntry] = []
        let controlCount = DynamicParameterID.allCases.count
        var latestControl = [TraceEntry?](repeating: nil, count: controlCount)
        // Timing controls are read when an envelope segment begins (SEMANTICS.md §4.4), so a
        // sounding event may depend on one that has since been superseded: keep their history.
        var timingHistory = [[TraceEntry]](repeating: [], count: controlCount)
        var next: UInt64 = UInt64(interval)
        var previousTime: UInt32 = 0
        var pruneAt = 4 * TimelineFormat.maxActiveEventsPerKeyframe

        for (position, entry) in trace.enumerated() {
            let startsNewTime = position == 0 || entry.time > previousTime
            if startsNewTime, UInt64(entry.time) >= next {
                let at = entry.time
                sounding.removeAll { $0.end <= at }
                guard sounding.count <= TimelineFormat.maxActiveEventsPerKeyframe else {
                    throw CompileError(
                        .tooManyActiveEvents, at: "keyframes",
                        "\(sounding.count) events may sound at \(at) ticks; at most \(TimelineFormat.maxActiveEventsPerKeyframe)"
                    )
                }
                index.keyframes.append(
                    Timeline.Keyframe(
                        time: at, recordOffset: entry.offset, baseTime: position == 0 ? 0 : previousTime,
                        activeFirst: UInt32(index.active.count)))
                var references = sounding.map { Timeline.ActiveReference(recordOffset: $0.offset, time: $0.time) }
                let earliestStart = sounding.map(\.time).min()
                for code in 0..<controlCount {
                    if let earliestStart, Self.isTimingControl(code), !timingHistory[code].isEmpty {
                        let history = timingHistory[code]
                        let first = Self.lastIndex(in: history, atOrBefore: earliestStart) ?? 0
                        references += history[first...].map {
                            Timeline.ActiveReference(recordOffset: $0.offset, time: $0.time)
                        }
                    } else if let latest = latestControl[code] {
                        references.append(Timeline.ActiveReference(recordOffset: latest.offset, time: latest.time))
                    }
                }
                references.sort { $0.recordOffset < $1.recordOffset }
                index.active += references
                next = (UInt64(at) / UInt64(interval) + 1) * UInt64(interval)
            }
            if entry.control < 0 {
                sounding.append(entry)
                if sounding.count > pruneAt {
                    // Prune between keyframes too (amortised: only when the list has doubled).
                    sounding.removeAll { $0.end <= entry.time }
                    pruneAt = max(4 * TimelineFormat.maxActiveEventsPerKeyframe, 2 * sounding.count)
                }
            } else {
                latestControl[Int(entry.control)] = entry
                if Self.isTimingControl(Int(entry.control)) { timingHistory[Int(entry.control)].append(entry) }
            }
            previousTime = entry.time
        }
        return index
    }

    /// Attack, decay and release controls, haptic and audio.
    static func isTimingControl(_ code: Int) -> Bool {
        guard let id = DynamicParameterID(index: code) else { return false }
        return [.attackTime, .decayTime, .releaseTime].contains(id.target)
    }

    /// Index of the last entry starting at or before `time` (entries are in time order).
    static func lastIndex(in entries: [TraceEntry], atOrBefore time: UInt32) -> Int? {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    func write(to out: inout ByteWriter) {
        for keyframe in keyframes {
            out.uint32(keyframe.time)
            out.uint32(keyframe.recordOffset)
            out.uint32(keyframe.baseTime)
            out.uint32(keyframe.activeFirst)
        }
        for reference in active {
            out.uint32(reference.recordOffset)
            out.uint32(reference.time)
        }
    }
}
