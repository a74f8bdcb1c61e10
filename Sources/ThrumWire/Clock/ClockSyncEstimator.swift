/// Estimates the board clock from ping exchanges (PROTOCOL.md §7.3): fits offset and drift through the
/// recent samples by least squares, weighting each by how close its round trip is to the fastest one
/// (a sample's offset error is at most half its round trip, and the fastest exchanges are the most symmetric).
public struct ClockSyncEstimator: Sendable {
    public struct Configuration: Sendable {
        /// Samples remembered.
        public var history = 64
        /// Round-trip excess (µs) over the fastest sample at which a sample's weight has halved.
        public var weightSoftness = 120.0
        /// Shortest time span over which drift is fitted; below it drift is taken as zero.
        public var minimumDriftSpan: Duration = .milliseconds(800)
        /// Largest believable drift: 4 %. Crystals are within ±100 ppm, but boards that run from an RC
        /// oscillator (an RP2040's ring oscillator, an ESP32's internal RC, the Nucleo port's HSI
        /// fallback) are up to ±3 % off, and the host serves them (PROTOCOL.md §7.4).
        public var maximumDrift = 0.04
        /// What is known of the drift before any sample (nil: nothing, the samples alone decide).
        public var driftPrior: DriftPrior?

        public init() {}
    }

    /// A drift known beforehand, such as a board's that rejoins: its crystal has not changed. A few
    /// seconds of samples fit drift poorly (tens of ppm off over 1.5 s), and that error grows with
    /// every second the estimate looks ahead; the prior holds the fit near `drift` until the samples
    /// span long enough to say better. They are weighed against each other as a Gaussian prior
    /// and the samples' scatter about their own fit.
    public struct DriftPrior: Equatable, Sendable {
        /// Board µs per host µs, minus one.
        public var drift: Double
        /// Its standard deviation (same unit).
        public var uncertainty: Double

        public init(drift: Double, uncertainty: Double) {
            self.drift = drift
            self.uncertainty = uncertainty
        }
    }

    public struct Estimate: Equatable, Sendable {
        /// Board minus host (µs) at `reference` host µs.
        public var offset: Double
        public var reference: Double
        /// Board µs per host µs, minus one.
        public var drift: Double
        /// Half the smallest round trip used: the worst-case error of a symmetric-path sample (µs).
        public var bound: Double
    }

    public let configuration: Configuration
    public private(set) var samples: [ClockSample] = []
    public private(set) var estimate: Estimate?

    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    public mutating func add(_ sample: ClockSample) {
        guard sample.roundTrip >= 0 else { return }  // impossible timestamps: ignore, never trust
        samples.append(sample)
        if samples.count > configuration.history { samples.removeFirst(samples.count - configuration.history) }
        refit()
    }

    /// Weighted least squares: a sample's weight falls with the square of its round trip above the smallest
    /// one seen, so near-minimal exchanges (the most symmetric) decide, and the many slow ones barely count.
    private mutating func refit() {
        guard let fastest = samples.map(\.roundTrip).min() else { return }
        let softness = configuration.weightSoftness
        var weightSum = 0.0, meanT = 0.0, meanO = 0.0
        let weights = samples.map { sample -> Double in
            let excess = (sample.roundTrip - fastest) / softness
            return 1 / (1 + excess * excess)
        }
        for (sample, weight) in zip(samples, weights) {
            weightSum += weight
            meanT += weight * sample.hostMidpoint
            meanO += weight * sample.offset
        }
        meanT /= weightSum
        meanO /= weightSum
        let times = samples.map(\.hostMidpoint)
        var drift = configuration.driftPrior?.drift ?? 0
        if times.max()! - times.min()! >= configuration.minimumDriftSpan.secondsDouble * 1e6 {
            var covariance = 0.0, variance = 0.0
            for (sample, weight) in zip(samples, weights) {
                covariance += weight * (sample.hostMidpoint - meanT) * (sample.offset - meanO)
                variance += weight * (sample.hostMidpoint - meanT) * (sample.hostMidpoint - meanT)
            }
            if variance > 0 {
                drift = covariance / variance
                if let prior = configuration.driftPrior {
                    let residuals = scatter(weights: weights, meanT: meanT, meanO: meanO, drift: drift) / weightSum
                    drift = Self.blend(prior, covariance: covariance, variance: variance, scatter: residuals)
                }
            }
            drift = min(max(drift, -configuration.maximumDrift), configuration.maximumDrift)
        }
        estimate = Estimate(offset: meanO, reference: meanT, drift: drift, bound: fastest / 2)
    }

    /// The weighted sum of squared residuals (µs²) about the line through (meanT, meanO) at `drift`.
    private func scatter(weights: [Double], meanT: Double, meanO: Double, drift: Double) -> Double {
        zip(samples, weights).reduce(0) { sum, pair in
            let residual = pair.0.offset - meanO - drift * (pair.0.hostMidpoint - meanT)
            return sum + pair.1 * residual * residual
        }
    }

    /// The drift that a Gaussian prior and the samples' least-squares fit agree on: each counts by
    /// its precision, the fit's being its weighted time variance over the samples' residual variance
    /// (a weight of 1 taken as that variance; floored at 1 µs² so a perfect line cannot divide by 0).
    static func blend(_ prior: DriftPrior, covariance: Double, variance: Double, scatter: Double) -> Double {
        guard prior.uncertainty > 0 else { return prior.drift }
        let priorWeight = max(scatter, 1) / (prior.uncertainty * prior.uncertainty)
        return (covariance + priorWeight * prior.drift) / (variance + priorWeight)
    }

    /// Board clock (µs, 64-bit) at a host instant, or nil before the first sample.
    public func boardMicroseconds(at host: MonotonicInstant) -> Double? {
        guard let estimate else { return nil }
        let t = host.microseconds
        return t + estimate.offset + estimate.drift * (t - estimate.reference)
    }

    /// The 32-bit board time to put in a command meant to act at a host instant.
    public func boardTime32(at host: MonotonicInstant) -> UInt32? {
        guard let micros = boardMicroseconds(at: host), micros >= 0 else { return nil }
        return UInt32(truncatingIfNeeded: UInt64(micros.rounded()))
    }

    /// The host instant at which the board clock reads `board` µs (64-bit), or nil before the first sample.
    public func hostInstant(atBoardMicroseconds board: Double) -> MonotonicInstant? {
        guard let estimate else { return nil }
        // board = t + offset + drift (t - ref)  =>  t = (board - offset + drift ref) / (1 + drift)
        let t = (board - estimate.offset + estimate.drift * estimate.reference) / (1 + estimate.drift)
        return MonotonicInstant(nanoseconds: UInt64(max(0, t * 1000)))
    }
}
