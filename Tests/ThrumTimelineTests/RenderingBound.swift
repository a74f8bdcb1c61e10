@testable import ThrumModel
@testable import ThrumTimeline

/// The rendered error bound of TIMELINE.md §2: render the authored pattern and the decoded one
/// with the reference renderer; every decoded sample must lie within the original's range over
/// a window of ±δ, widened by ε per sounding event.
enum RenderingBound {
    static let sampleRate = 1000.0
    /// Level × control error of one event: (1/510 + 1/510) plus their product.
    static let epsilonPerEvent: Float = 2 / 510 + 1 / (255 * 255)
    /// Sharpness is only compared where both intensities exceed this.
    static let sharpnessFloor: Float = 0.05

    struct Report {
        var samples = 0
        /// Worst excess over the allowed range divided by the allowance (≤ 1 passes).
        var worstRatio: Float = 0
        var worstAt = 0.0
        var worstLane = ""
        var passed: Bool { worstRatio <= 1 }
    }

    /// δ in seconds: ½ tick + ½ tick of rounding on the other side, plus the largest envelope
    /// segment-length change any of the pattern's envelope values can suffer.
    static func delta(for pattern: HapticPattern) -> Double {
        var worst = 0.0
        for event in pattern.events {
            for id in [EventParameterID.attackTime, .decayTime, .releaseTime] {
                let value = event.value(of: id)
                let quantised = Quantization.unitValue(Quantization.unit(value))
                worst = max(worst, abs(EnvelopeTiming.seconds(for: value) - EnvelopeTiming.seconds(for: quantised)))
            }
        }
        // A timing control (attack, decay or release control, SQ8) moves the effective value by up
        // to 1/254 more, wherever on the table the sum lands: take the steepest such shift.
        let timingControls: Set<DynamicParameterID> = [.hapticAttackTimeControl, .hapticDecayTimeControl, .hapticReleaseTimeControl]
        if pattern.parameters.contains(where: { timingControls.contains($0.id) })
            || pattern.parameterCurves.contains(where: { timingControls.contains($0.id) }) {
            worst = max(worst, steepestShift(valueError: 1.0 / 510 + 1.0 / 254))
        }
        return 0.001 + worst
    }

    /// The largest |T(x + e) − T(x)| over the attack/decay/release table for values 0…1.
    static func steepestShift(valueError: Double) -> Double {
        var worst = 0.0
        for step in 0...1000 {
            let x = Float(step) / 1000
            let shifted = min(1, x + Float(valueError))
            worst = max(worst, abs(EnvelopeTiming.seconds(for: shifted) - EnvelopeTiming.seconds(for: x)))
        }
        return worst
    }

    static func check(original: HapticPattern, decoded: HapticPattern) -> Report {
        let end = max(ReferenceRenderer.renderedDuration(of: original), ReferenceRenderer.renderedDuration(of: decoded)) + 0.05
        let a = ReferenceRenderer.render(original, sampleRate: sampleRate, duration: end)
        let b = ReferenceRenderer.render(decoded, sampleRate: sampleRate, duration: end)
        let window = Int((delta(for: original) * sampleRate).rounded(.up))
        let spans = ReferenceRenderer.eventSpans(of: original).filter { $0.type.isHaptic } + ReferenceRenderer.eventSpans(of: decoded).filter { $0.type.isHaptic }
        let counts = soundingCounts(spans, samples: a.intensity.values.count, window: window)

        // The original between samples: its values at every breakpoint and just before it, so a
        // gap or peak narrower than a sample period still counts as part of its range.
        let extra = breakpointValues(of: original)
        var report = Report()
        let count = min(a.intensity.values.count, b.intensity.values.count)
        report.samples = count
        var first = 0
        let extraTimes = extra.map(\.time)
        let originalIntensity = a.intensity.values, originalSharpness = a.sharpness.values
        for k in 0..<count {
            let low = max(0, k - window), high = min(count - 1, k + window)
            let from = Double(low) / sampleRate, to = Double(high) / sampleRate
            while first < extra.count && extraTimes[first] < from { first += 1 }
            var last = first
            while last < extra.count && extraTimes[last] <= to { last += 1 }
            let allowance = epsilonPerEvent * Float(max(1, counts[k]))
            func judge(_ lane: String, _ original: [Float], _ value: Float, _ extraValue: (Int) -> Float) {
                var lo = original[low], hi = original[low]
                for index in low...high {
                    lo = min(lo, original[index])
                    hi = max(hi, original[index])
                }
                for index in first..<last {
                    lo = min(lo, extraValue(index))
                    hi = max(hi, extraValue(index))
                }
                let excess = max(lo - value, value - hi, 0)
                let ratio = excess / allowance
                if ratio > report.worstRatio {
                    report.worstRatio = ratio
                    report.worstAt = Double(k) / sampleRate
                    report.worstLane = lane
                }
            }
            judge("intensity", originalIntensity, b.intensity.values[k]) { extra[$0].intensity }
            if originalIntensity[k] > sharpnessFloor, b.intensity.values[k] > sharpnessFloor,
               originalIntensity[low...high].min()! > sharpnessFloor {
                judge("sharpness", originalSharpness, b.sharpness.values[k]) { extra[$0].sharpness }
            }
        }
        return report
    }

    /// Every instant where the original's output may jump or turn, with its value there and
    /// 1 ns before (left limit), sorted by time.
    private static func breakpointValues(of pattern: HapticPattern) -> [(time: Double, intensity: Float, sharpness: Float)] {
        var instants: [Double] = []
        for span in ReferenceRenderer.eventSpans(of: pattern) {
            instants += [span.start, span.end]
            if span.type == .hapticTransient { instants += [span.start + 0.010, span.start + 0.020] }
            if let envelope = span.envelope {
                instants += [envelope.attack, envelope.attack + envelope.decay, envelope.duration].map { span.start + $0 }
            }
        }
        for event in pattern.events { instants.append(event.time + event.duration) }
        for parameter in pattern.parameters { instants.append(parameter.time) }
        for curve in pattern.parameterCurves {
            instants.append(curve.time)
            instants += curve.controlPoints.map { curve.time + $0.time }
        }
        guard let prepared = PreparedPlayback(Playback(pattern: pattern, startTime: 0)) else { return [] }
        var values: [(time: Double, intensity: Float, sharpness: Float)] = []
        for instant in Set(instants.filter(\.isFinite)).sorted() {
            for time in [instant - 1e-9, instant] {
                let mix = ReferenceRenderer.mixed([prepared], at: time)
                values.append((time, mix.intensity, mix.sharpness))
            }
        }
        return values
    }

    /// How many events may sound within ±window samples of each sample (either pattern).
    private static func soundingCounts(_ spans: [EventSpan], samples: Int, window: Int) -> [Int] {
        var change = [Int](repeating: 0, count: samples + 1)
        for span in spans {
            let first = max(0, Int((span.start * sampleRate).rounded(.down)) - window)
            let last = min(samples, Int((span.end * sampleRate).rounded(.up)) + window + 1)
            guard first < last else { continue }
            change[first] += 1
            change[last] -= 1
        }
        var running = 0
        return (0..<samples).map { index in
            running += change[index]
            return running
        }
    }
}
