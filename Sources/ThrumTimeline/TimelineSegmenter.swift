import ThrumModel

/// One piece of a timeline cut for a board whose memory cannot hold the whole (PROTOCOL.md §5.4,
/// streaming): a timeline of its own, played from position `start` at the board time where the
/// whole would reach `start`, until the next piece takes over at `end`.
public struct TimelineSegment: Sendable, Hashable {
    /// Ticks into the whole timeline where this piece takes over (0 for the first).
    public var start: UInt32
    /// Where the next piece takes over; nil for the last, which plays to the end.
    public var end: UInt32?
    public var bytes: [UInt8]

    public init(start: UInt32, end: UInt32?, bytes: [UInt8]) {
        self.start = start
        self.end = end
        self.bytes = bytes
    }
}

/// Why a timeline cannot be cut into pieces of the size asked.
public struct SegmentationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Ticks into the timeline where no piece fits.
    public var tick: UInt32
    public var needed: Int
    public var available: Int

    public var description: String {
        let seconds = String(format: "%.3f", Quantization.seconds(tick))
        return "at \(seconds) s the pattern needs \(needed) bytes on the board at once (the events sounding there, "
            + "the controls in force and the records starting on that tick), more than the \(available) bytes a piece may use"
    }
}

/// Cuts a timeline into pieces of at most `maximumBytes` each, cut at record starts and curve points.
///
/// Piece k, taking over at `T`, holds the records starting in `[T, next cut)`, every earlier event
/// still audible at `T` (so its envelope carries on), and for each control the latest earlier
/// record (the value in force at `T`), a curve cut to the points the piece needs. The board starts
/// a piece at position `T`, applying its earlier records at once as for a seek, so pieces played
/// back to back sound as the whole. The last piece also keeps the record that sets the whole's
/// duration, so it finishes when the whole would.
public enum TimelineSegmenter {
    public static func segments(of timeline: Timeline, maximumBytes: Int) throws -> [TimelineSegment] {
        let cuts = cutTicks(timeline.records)
        let timed = hasTimingControls(timeline)
        var pieces: [TimelineSegment] = []
        var first = 0  // index into `cuts` of the piece being built
        while first < cuts.count {
            // What the piece carries in depends only on where it starts: worked out once for all probes.
            let start = cuts[first]
            let firstRecord = firstIndex(in: timeline.records, atOrAfter: start)
            let carriedIn = carried(timeline, before: firstRecord, into: start, timingControls: timed)
            func piece(through: Int) throws -> TimelineSegment {
                try Self.piece(
                    timeline, cuts: cuts, from: first, through: through, firstRecord: firstRecord, carried: carriedIn)
            }
            // The longest piece that fits: grow by doubling, then bisect.
            var best = try piece(through: first)
            guard best.bytes.count <= maximumBytes else {
                throw SegmentationError(tick: cuts[first], needed: best.bytes.count, available: maximumBytes)
            }
            var fits = first, tooBig = cuts.count, step = 1, bisecting = false
            while fits + 1 < tooBig {
                let probe = bisecting ? (fits + tooBig) / 2 : min(fits + step, tooBig - 1)
                let candidate = try piece(through: probe)
                if candidate.bytes.count <= maximumBytes {
                    (fits, best) = (probe, candidate)
                    step *= 2
                } else {
                    tooBig = probe
                    bisecting = true
                }
            }
            pieces.append(best)
            first = fits + 1
        }
        return pieces
    }

    /// Where a piece may take over, in ticks from 0: every record's start and every curve point's
    /// instant (so a long curve can be cut between its points).
    static func cutTicks(_ records: [Timeline.Record]) -> [UInt32] {
        var ticks: Set<UInt32> = [0]
        for record in records {
            ticks.insert(record.time)
            if case .curve(_, let points) = record.body {
                for point in points { ticks.insert(record.time + point.time) }
            }
        }
        return ticks.sorted()
    }

    /// The piece from cut `from` up to (not including) cut `through + 1`; `firstRecord` is the first
    /// record at or after its start, `carried` the earlier ones it keeps.
    private static func piece(
        _ timeline: Timeline, cuts: [UInt32], from: Int, through: Int, firstRecord: Int, carried: [Int]
    ) throws -> TimelineSegment {
        let records = timeline.records
        let start = cuts[from]
        let end = through + 1 < cuts.count ? cuts[through + 1] : nil
        let endRecord = end.map { firstIndex(in: records, atOrAfter: $0) } ?? records.count
        var chosen = carried
        if end == nil, let ender = durationRecord(of: timeline, before: firstRecord), !chosen.contains(ender) {
            chosen.append(ender)
            chosen.sort()
        }
        chosen += Array(firstRecord..<endRecord)
        return TimelineSegment(
            start: start, end: end,
            bytes: try compile(timeline, records: chosen.map { trimmed(records[$0], from: start, to: end) }))
    }

    /// The first record starting at or after `tick` (records are in time order).
    private static func firstIndex(in records: [Timeline.Record], atOrAfter tick: UInt32) -> Int {
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].time < tick { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Indices of the earlier records that still matter at `start`, in record order: events still
    /// audible, and the record in force for each control.
    private static func carried(
        _ timeline: Timeline, before firstRecord: Int, into start: UInt32, timingControls timed: Bool
    ) -> [Int] {
        var latestControl: [DynamicParameterID: Int] = [:]
        var events: [Int] = []
        for index in 0..<firstRecord {
            let record = timeline.records[index]
            switch record.body {
            case .event(let shape, let duration, _):
                let end = audibleEnd(
                    timeline.shapes[shape], time: record.time, duration: duration, timingControls: timed)
                if end >= UInt64(start) { events.append(index) }
            case .parameter(let id, _), .curve(let id, _):
                latestControl[id] = index
            }
        }
        return (events + latestControl.values).sorted()
    }

    /// Whether attack, decay or release controls may lengthen envelopes anywhere in `timeline`.
    private static func hasTimingControls(_ timeline: Timeline) -> Bool {
        timeline.records.contains { record in
            switch record.body {
            case .parameter(let id, _), .curve(let id, _): [.attackTime, .decayTime, .releaseTime].contains(id.target)
            case .event: false
            }
        }
    }

    /// A tick at or after the last one an event sounds on at rate 1 (SEMANTICS.md §4, §8.2): a
    /// transient lasts 20 ms; a continuous event its envelope's length, read from its shape, or
    /// when timing controls may lengthen it, the most any envelope can: a release of 1 s, an
    /// attack and decay of 2 s together. Two ticks spare cover the board's fixed-point table.
    static func audibleEnd(_ shape: Timeline.Shape, time: UInt32, duration: UInt32, timingControls: Bool) -> UInt64 {
        let start = UInt64(time), end = UInt64(time) + UInt64(duration)
        func ticks(_ raw: UInt8) -> UInt64 {
            timingControls ? 1000 : UInt64((EnvelopeTiming.seconds(for: Float(raw) / 255) * 1000).rounded(.up)) + 2
        }
        switch shape.type {
        case .hapticTransient: return start + 20
        case .audioCustom: return end
        case .hapticContinuous, .audioContinuous:
            let released = end + ticks(shape.release)
            return shape.sustained ? released : min(released, start + ticks(shape.attack) + ticks(shape.decay))
        }
    }

    /// A curve cut to the points a piece playing `[start, end)` needs: from the last point before
    /// `start` (kept strictly before, so a record of the same control at `start` still wins its
    /// tie) to the first at or after `end`; a curve cut at the front then starts at its first kept
    /// point. Values between the kept points are unchanged, so a long curve is carried piece by
    /// piece rather than whole into every piece. Other records are returned as they are.
    static func trimmed(_ record: Timeline.Record, from start: UInt32, to end: UInt32?) -> Timeline.Record {
        guard case .curve(let id, let points) = record.body, !points.isEmpty else { return record }
        let first = points.lastIndex { record.time + $0.time < start } ?? 0
        var last = points.count - 1
        if let end, let reaching = points.firstIndex(where: { record.time + $0.time >= end }) {
            last = max(reaching, first)
        }
        // Moved only when points are dropped: a curve holds its first value from its own start.
        let base = first > 0 ? points[first].time : 0
        var cut = record
        cut.time = record.time + base
        cut.body = .curve(
            id, points: points[first...last].map { Timeline.CurvePoint(time: $0.time - base, raw: $0.raw) })
        return cut
    }

    /// An earlier record ending where the whole timeline ends, when no later record does.
    private static func durationRecord(of timeline: Timeline, before firstRecord: Int) -> Int? {
        let later = timeline.records[firstRecord...].map(end).max() ?? 0
        guard later < timeline.duration else { return nil }
        return timeline.records[..<firstRecord].indices.last { end(of: timeline.records[$0]) == timeline.duration }
    }

    private static func end(of record: Timeline.Record) -> UInt32 {
        switch record.body {
        case .event(_, let duration, _): record.time + duration
        case .parameter: record.time
        case .curve(_, let points): record.time + (points.last?.time ?? 0)
        }
    }

    private static func compile(_ timeline: Timeline, records: [Timeline.Record]) throws -> [UInt8] {
        var part = timeline
        part.records = records
        part.keyframes = []
        part.activeReferences = []
        return try TimelineCompiler.compile(part.toPattern())
    }
}
