/// One layer of controls (a pattern's `Parameter`/`ParameterCurve` entries, or a player's run-time
/// controls): for each dynamic parameter, what value it has at any time (Protocol/SEMANTICS.md §3).
///
/// - The entry that applies at `t` is the one with the latest start ≤ t; it supersedes every
///   earlier entry of the same ID, whether that was a step or a curve still running.
/// - Among entries with equal start the last one given wins (pattern parameters are given before
///   pattern curves, so a curve wins a tie: it carries more information).
/// - A curve holds its first value before its first point and its last value after its last;
///   between points it interpolates linearly. Points are taken in time order (stable); points
///   sharing a time make a step whose value at that exact time is the later point's.
/// - Without any entry at or before `t` the control is neutral (1 for intensity/volume, 0 else).
/// - Values are clamped to the control's range; curves without points and entries with
///   non-finite times are ignored.
public struct ControlLayer: Sendable {
    enum Shape: Sendable {
        case step(Float)
        case curve(times: [Double], values: [Float])
    }

    struct Entry: Sendable {
        var start: Double
        var shape: Shape
    }

    /// Entries per control, indexed by `DynamicParameterID.index` (an array: the renderer asks
    /// several times per sample, and hashing the String raw value each time is slow).
    private var tracks = [[Entry]?](repeating: nil, count: DynamicParameterID.allCases.count)

    /// An empty layer: every control neutral.
    public init() {}

    /// The authored layer of `pattern` with all times divided by `playbackRate` (times are then
    /// seconds from the playback's start). A non-positive or non-finite rate counts as 1.
    public init(authoredBy pattern: HapticPattern, playbackRate: Float = 1) {
        let scale = Self.timeScale(playbackRate)
        var list: [(DynamicParameterID, Entry)] = []
        for parameter in pattern.parameters {
            list.append((parameter.id, Entry(start: parameter.time * scale, shape: .step(parameter.value))))
        }
        for curve in pattern.parameterCurves {
            guard let shape = Self.curveShape(curve.controlPoints, timeScale: scale) else { continue }
            list.append((curve.id, Entry(start: curve.time * scale, shape: shape)))
        }
        self.init(list)
    }

    /// The run-time layer of a player, in board time.
    public init(runtime controls: [RuntimeControl]) {
        var list: [(DynamicParameterID, Entry)] = []
        for control in controls {
            switch control.change {
            case .value(let value):
                list.append((control.id, Entry(start: control.boardTime, shape: .step(value))))
            case .curve(let points):
                guard let shape = Self.curveShape(points, timeScale: 1) else { continue }
                list.append((control.id, Entry(start: control.boardTime, shape: shape)))
            }
        }
        self.init(list)
    }

    private init(_ list: [(DynamicParameterID, Entry)]) {
        var grouped: [DynamicParameterID: [Entry]] = [:]
        for (id, entry) in list where entry.start.isFinite {
            grouped[id, default: []].append(clamped(entry, to: id.range))
        }
        for (id, entries) in grouped { tracks[id.index] = stableSorted(entries) { $0.start } }
    }

    /// Whether any entry exists for `id` (a layer without one is neutral for it at all times).
    public func hasEntries(for id: DynamicParameterID) -> Bool { tracks[id.index] != nil }

    /// Whether an entry for `id` starts at or before `time`.
    func hasEntry(for id: DynamicParameterID, atOrBefore time: Double) -> Bool {
        guard let first = tracks[id.index]?.first else { return false }
        return TimeResolution.snap(first.start - time) <= 0
    }

    /// Whether the layer holds any attack/decay/release control (haptic or audio).
    var hasTimingEntries: Bool {
        DynamicParameterID.allCases.contains { id in
            tracks[id.index] != nil && [.attackTime, .decayTime, .releaseTime].contains(id.target)
        }
    }

    /// The control's value at `time` (same time base as the layer); neutral where nothing applies.
    public func value(of id: DynamicParameterID, at time: Double) -> Float {
        guard let entries = tracks[id.index], time.isFinite else { return id.neutralValue }
        let after = upperBound(entries.count) { TimeResolution.snap(entries[$0].start - time) > 0 }
        guard after > 0 else { return id.neutralValue }
        let entry = entries[after - 1]
        switch entry.shape {
        case .step(let value):
            return value
        case .curve(let times, let values):
            return Self.interpolate(times: times, values: values, at: time - entry.start)
        }
    }

    static func interpolate(times: [Double], values: [Float], at elapsed: Double) -> Float {
        let after = upperBound(times.count) { TimeResolution.snap(times[$0] - elapsed) > 0 }
        if after == 0 { return values[0] }
        if after == times.count { return values[after - 1] }
        let (t0, t1) = (times[after - 1], times[after])
        let (v0, v1) = (Double(values[after - 1]), Double(values[after]))
        let fraction = min(1, max(0, (elapsed - t0) / (t1 - t0)))
        return Float(v0 + (v1 - v0) * fraction)
    }

    private static func curveShape(_ points: [ControlPoint], timeScale: Double) -> Shape? {
        let sorted = stableSorted(points.filter { $0.time.isFinite }) { $0.time }
        guard !sorted.isEmpty else { return nil }
        return .curve(times: sorted.map { $0.time * timeScale }, values: sorted.map(\.value))
    }

    static func timeScale(_ playbackRate: Float) -> Double {
        playbackRate.isFinite && playbackRate > 0 ? 1 / Double(playbackRate) : 1
    }
}

private func clamped(_ entry: ControlLayer.Entry, to range: ParameterRange) -> ControlLayer.Entry {
    var copy = entry
    switch entry.shape {
    case .step(let value): copy.shape = .step(range.clamp(value))
    case .curve(let times, let values): copy.shape = .curve(times: times, values: values.map(range.clamp))
    }
    return copy
}

/// The first index in 0..<count for which `isAfter` holds, given that it is monotone (false…true).
func upperBound(_ count: Int, _ isAfter: (Int) -> Bool) -> Int {
    var (low, high) = (0, count)
    while low < high {
        let middle = (low + high) / 2
        if isAfter(middle) { high = middle } else { low = middle + 1 }
    }
    return low
}
