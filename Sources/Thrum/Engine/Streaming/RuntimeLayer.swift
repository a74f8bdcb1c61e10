import ThrumWire

/// The run-time controls an app gave one streamed player (`sendParameters`,
/// `scheduleParameterCurve`, real-time updates), kept so that each new piece's board player can be
/// brought to the same state before it takes over (SEMANTICS.md §3.1: one run-time layer per
/// playback, whichever board player sounds it).
struct RuntimeLayer: Sendable {
    struct Step: Sendable, Equatable {
        var parameter: WireParameter
        /// Q1.14.
        var value: Int16
        /// Board microseconds.
        var at: UInt32
    }

    struct Curve: Sendable, Equatable {
        var parameter: WireParameter
        var at: UInt32
        /// Microseconds from `at`, non-decreasing; Q1.14 values.
        var points: [(time: UInt32, value: Int16)]

        static func == (lhs: Curve, rhs: Curve) -> Bool {
            lhs.parameter == rhs.parameter && lhs.at == rhs.at
                && lhs.points.elementsEqual(rhs.points) { $0.time == $1.time && $0.value == $1.value }
        }
    }

    enum Entry: Sendable, Equatable {
        case step(Step)
        case curve(Curve)

        var at: UInt32 {
            switch self {
            case .step(let step): step.at
            case .curve(let curve): curve.at
            }
        }

        var parameter: WireParameter {
            switch self {
            case .step(let step): step.parameter
            case .curve(let curve): curve.parameter
            }
        }

        /// The PLAYER_PARAM or PLAYER_CURVE that sets this entry on `boardPlayer`.
        func message(to boardPlayer: UInt8) -> MessageMaker {
            switch self {
            case .step(let step):
                return {
                    .playerParam(
                        tag: $0, player: boardPlayer, parameter: step.parameter, value: step.value, atTime: step.at)
                }
            case .curve(let curve):
                let points = curve.points.map { WireMessage.PlayerCurve.Point(time: $0.time, value: $0.value) }
                return {
                    .playerCurve(
                        tag: $0, player: boardPlayer, parameter: curve.parameter, atTime: curve.at, points: points)
                }
            }
        }
    }

    /// In the order the app gave them (a later entry wins a tie on the board).
    private(set) var entries: [Entry] = []

    /// A step at board time `at`. Steps of the same control that it supersedes by `now` are
    /// dropped, so a stream of real-time updates keeps one entry.
    mutating func record(_ step: Step, now: UInt32) {
        if Self.before(step.at, orAt: now) {
            entries.removeAll { entry in
                guard case .step(let old) = entry else { return false }
                return old.parameter == step.parameter && Self.before(old.at, orAt: step.at)
            }
        }
        entries.append(.step(step))
    }

    /// The board keeps one run-time curve per player: a new one replaces the old.
    mutating func record(_ curve: Curve) {
        entries.removeAll { if case .curve = $0 { true } else { false } }
        entries.append(.curve(curve))
    }

    /// The entries to send a board player that takes over at `handoff`, each at `handoff` or
    /// later, in an order that leaves the same entry winning on every control: earlier entries
    /// first, a curve already under way cut to what is left of it.
    func replay(at handoff: UInt32) -> [Entry] {
        let ordered = entries.enumerated().sorted { lhs, rhs in
            let difference = Int32(bitPattern: lhs.element.at &- rhs.element.at)
            return difference != 0 ? difference < 0 : lhs.offset < rhs.offset
        }
        return ordered.map { _, entry in
            switch entry {
            case .step(var step):
                if Self.before(step.at, orAt: handoff) { step.at = handoff }
                return .step(step)
            case .curve(let curve):
                return .curve(Self.remainder(of: curve, from: handoff))
            }
        }
    }

    /// What is left of `curve` from board time `time`: its value there, then the later points.
    static func remainder(of curve: Curve, from time: UInt32) -> Curve {
        let elapsed = Int64(Int32(bitPattern: time &- curve.at))
        guard elapsed > 0, let first = curve.points.first else { return curve }
        var points: [(time: UInt32, value: Int16)] = []
        if let next = curve.points.firstIndex(where: { Int64($0.time) > elapsed }) {
            let value: Int16
            if next == 0 {
                value = first.value
            } else {
                let (a, b) = (curve.points[next - 1], curve.points[next])
                let fraction = Double(elapsed - Int64(a.time)) / Double(b.time - a.time)
                value = Int16((Double(a.value) + (Double(b.value) - Double(a.value)) * fraction).rounded())
            }
            points.append((0, value))
            points += curve.points[next...].map { (UInt32(Int64($0.time) - elapsed), $0.value) }
        } else {
            points.append((0, curve.points.last!.value))
        }
        return Curve(parameter: curve.parameter, at: time, points: points)
    }

    /// Whether board time `a` is at or before `b` (times wrap after about 71 minutes).
    private static func before(_ a: UInt32, orAt b: UInt32) -> Bool { Int32(bitPattern: a &- b) <= 0 }
}
