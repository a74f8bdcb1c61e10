/// Adaptive retransmission timeout from round-trip samples, the RFC 6298 way (PROTOCOL.md §6.2):
/// srtt and rttvar smoothed with 1/8 and 1/4, RTO = srtt + max(4·rttvar, srtt/2), clamped, doubled on every
/// timeout. The srtt/2 floor keeps a very steady line (rttvar near zero) from retransmitting spuriously,
/// which go-back-N pays for with a whole window.
/// Samples come only from frames sent once (Karn), so a retransmission never skews the estimate.
public struct RetransmissionTimer: Sendable {
    public private(set) var smoothedRTT: Duration?
    public private(set) var rttVariation: Duration = .zero
    public private(set) var timeout: Duration
    /// The shortest round trip seen, clean samples and control round trips alike: no answer to a frame can
    /// come much sooner than this after it left.
    public private(set) var fastestRoundTrip: Duration?
    let minimum: Duration
    let maximum: Duration

    let initial: Duration

    public init(initial: Duration, minimum: Duration, maximum: Duration) {
        self.initial = initial
        self.timeout = initial
        self.minimum = minimum
        self.maximum = maximum
    }

    public mutating func record(sample: Duration) {
        let sample = max(sample, .zero)
        noteRoundTrip(sample)
        if let srtt = smoothedRTT {
            let error = srtt > sample ? srtt - sample : sample - srtt
            rttVariation = rttVariation * 0.75 + error * 0.25
            smoothedRTT = srtt * 0.875 + sample * 0.125
        } else {
            smoothedRTT = sample
            rttVariation = sample / 2
        }
        timeout = base ?? initial
    }

    /// A round trip measured outside the estimate (a PING answered by its PONG): only the fastest is kept.
    public mutating func noteRoundTrip(_ roundTrip: Duration) {
        fastestRoundTrip = min(fastestRoundTrip ?? roundTrip, roundTrip)
    }

    /// Starts the estimate again from `sample`, as if it were the first.
    public mutating func restart(from sample: Duration) {
        smoothedRTT = nil
        rttVariation = .zero
        record(sample: sample)
    }

    /// Doubles the timeout (up to the maximum). Never capped below: a timeout shorter than the true round
    /// trip would resend every frame, and with every frame resent no sample could ever correct it.
    public mutating func backOff() { timeout = min(timeout * 2, maximum) }

    /// Stretches the estimate by `factor` (> 1) when larger frames than those measured start to go out:
    /// their round trip is longer, and a timeout fitted to small frames would expire on every one of them,
    /// leaving (by Karn's rule) no sample to correct it. Too long is harmless: their samples bring it down.
    public mutating func stretch(by factor: Double) {
        guard factor > 1, let srtt = smoothedRTT else { return }
        smoothedRTT = srtt * factor
        rttVariation = rttVariation * factor
        timeout = min(max(timeout * factor, minimum), maximum)
    }

    /// srtt + max(4·rttvar, srtt/2), clamped; nil before the first sample.
    private var base: Duration? {
        smoothedRTT.map { srtt in min(max(srtt + max(rttVariation * 4, srtt / 2), minimum), maximum) }
    }

    /// Halves a backed-off timeout (never below srtt + max(4·rttvar, srtt/2), or the initial timeout before
    /// the first sample) when acknowledgements flow
    /// again without a valid sample: heavy loss can leave no frame sent only once, and the timeout must still
    /// come down; halving rather than resetting keeps a queue of retransmissions from timing out spuriously.
    public mutating func relaxBackOff() {
        timeout = max(base ?? initial, timeout / 2)
    }

}
