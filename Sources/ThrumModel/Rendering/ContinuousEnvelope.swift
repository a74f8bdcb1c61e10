/// The gain envelope of one continuous event once its segment lengths are known
/// (Protocol/SEMANTICS.md §4). Times are seconds from the event's start, in board time.
///
/// gain(τ) = shape(τ) × releaseGain(τ):
/// - shape, sustained: a linear rise over `attack`, then 1;
/// - shape, not sustained: a linear rise over `attack`, then a linear fall to 0 over `decay`;
/// - releaseGain: 1 before `duration`, then a linear fall to 0 over `release`.
/// The product makes a release that begins mid-attack or mid-decay fall from wherever the
/// shape is, with no jump, and needs no special cases.
public struct ContinuousEnvelope: Sendable, Hashable {
    public var attack: Double
    public var decay: Double
    public var release: Double
    /// Seconds before the release begins (`EventDuration`, scaled by the playback rate).
    public var duration: Double
    public var sustained: Bool

    public init(attack: Double, decay: Double, release: Double, duration: Double, sustained: Bool) {
        self.attack = attack
        self.decay = decay
        self.release = release
        self.duration = duration
        self.sustained = sustained
    }

    /// Seconds from the event start to the moment the gain is 0 for good.
    public var length: Double {
        let released = duration + release
        return sustained ? released : min(attack + decay, released)
    }

    /// Gain 0…1 at `elapsed` seconds after the event start; 0 outside [0, length).
    /// Boundaries are decided on nanosecond-rounded differences (SEMANTICS.md §1.4).
    public func gain(at elapsed: Double) -> Float {
        guard !isBefore(elapsed, 0), isBefore(elapsed, length) else { return 0 }
        return Float(min(1, max(0, shape(at: elapsed) * releaseGain(at: elapsed))))
    }

    private func shape(at elapsed: Double) -> Double {
        if isBefore(elapsed, attack) { return elapsed / attack }
        if sustained { return 1 }
        guard decay > 0 else { return 0 }
        return max(0, 1 - (elapsed - attack) / decay)
    }

    private func releaseGain(at elapsed: Double) -> Double {
        if isBefore(elapsed, duration) { return 1 }
        guard release > 0 else { return 0 }
        return max(0, 1 - (elapsed - duration) / release)
    }
}
