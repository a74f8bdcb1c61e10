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
        let timingControls: Set<DynamicParameterID> = [
            .hapticAttackTimeControl, .hapticDecayTimeControl, .hapticReleaseTimeControl,
        ]
        if pattern.parameters.contains(where: { timingControls.contains($0.id) })
            || pattern.parameterCurves.contains(where: { timingControls.contains($0.id) })
        {
            worst = max(worst, steepestShift(valueError: 1.0 / 510 + 1.0 / 254))
            worst = max(worst, controlReadShift(pattern, reach: 0.001 + worst))
        }
        return 0.001 + worst
    }

    /// A segment reads its timing control when it begins (SEMANTICS.md §4.4). Rounding moves that
    /// instant relative to the control's entries by up to a tick (plus the attack's own change, for
    /// the decay), so where the control moves there, the segment may take the length of any value
    /// the control has within that reach: the largest such change over the pattern's events.
    static func controlReadShift(_ pattern: HapticPattern, reach attackReach: Double) -> Double {
        let layer = ControlLayer(authoredBy: pattern)
        var worst = 0.0
        for span in ReferenceRenderer.eventSpans(of: pattern) where span.type == .hapticContinuous {
            guard let envelope = span.envelope else { continue }
            let event = pattern.events[span.eventIndex]
            let reads: [(EventParameterID, DynamicParameterID, Double, Double)] = [
                (.attackTime, .hapticAttackTimeControl, span.start, 0.001),
                (.decayTime, .hapticDecayTimeControl, span.start + envelope.attack, attackReach),
                (.releaseTime, .hapticReleaseTimeControl, span.start + envelope.duration, 0.001),
            ]
            for (parameter, control, instant, reach) in reads where layer.hasEntries(for: control) {
                let length = { (time: Double) in
                    EnvelopeTiming.seconds(
                        for: ParameterRange.unit.clamp(event.value(of: parameter) + layer.value(of: control, at: time)))
                }
                let nominal = length(instant)
                for step in 0...400 {
                    let time = instant - reach + 2 * reach * Double(step) / 400
                    worst = max(worst, abs(length(time) - nominal))
                }
            }
        }
        return worst
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
        let end =
            max(ReferenceRenderer.renderedDuration(of: original), ReferenceRenderer.renderedDuration(of: decoded))
            + 0.05
        let a = ReferenceRenderer.render(original, sampleRate: sampleRate, duration: end)
        let b = ReferenceRenderer.render(decoded, sampleRate: sampleRate, duration: end)
        let delta = delta(for: original)
        let window = Int((delta * sampleRate).rounded(.up))
        let spans =
            ReferenceRenderer.eventSpans(of: original).filter { $0.type.isHaptic }
            + ReferenceRenderer.eventSpans(of: decoded).filter { $0.type.isHaptic }
        let count = min(a.intensity.values.count, b.intensity.values.count)
        let counts = soundingCounts(spans, samples: count, window: window)
        let peaks = midAttackPeakAllowances(of: original, delta: delta, samples: count)
        let intensityRange = eventwiseIntensityRange(of: original, samples: count, window: window)
        var sharpnessRange = windowedRange(
            a.sharpness.values, from: 0, window: window,
            extras: breakpointValues(of: original).map { ($0.time, $0.sharpness) })
        widen(&sharpnessRange, byEventSharpnessOf: original, samples: count, window: window)

        var report = Report()
        report.samples = count
        func judge(_ lane: String, _ k: Int, _ value: Float, _ range: (lo: Float, hi: Float), _ allowance: Float) {
            let ratio = max(range.lo - value, value - range.hi, 0) / allowance
            if ratio > report.worstRatio {
                report.worstRatio = ratio
                report.worstAt = Double(k) / sampleRate
                report.worstLane = lane
            }
        }
        let originalIntensity = a.intensity.values
        for k in 0..<count {
            let allowance = epsilonPerEvent * Float(max(1, counts[k])) + peaks[k]
            judge(
                "intensity", k, b.intensity.values[k], (min(1, intensityRange.lo[k]), min(1, intensityRange.hi[k])),
                allowance)
            let low = max(0, k - window), high = min(count - 1, k + window)
            if originalIntensity[k] > sharpnessFloor, b.intensity.values[k] > sharpnessFloor,
                originalIntensity[low...high].min()! > sharpnessFloor
            {
                judge("sharpness", k, b.sharpness.values[k], (sharpnessRange.lo[k], sharpnessRange.hi[k]), allowance)
            }
        }
        return report
    }

    /// The intensity range event by event and factor by factor. Rounding moves every instant on
    /// its own: one event may start ½ tick early while its neighbour ends ½ tick late, and an event
    /// may move one way while the intensity control's curve moves the other. So each event's
    /// level × gain lies within its own range over ±δ, the control within its range over ±δ, each
    /// event's contribution within the product of the two ranges (all factors are ≥ 0), and the
    /// mix within the sum of those (clipped at 1, as the mix is).
    private static func eventwiseIntensityRange(
        of pattern: HapticPattern, samples: Int, window: Int
    ) -> (lo: [Float], hi: [Float]) {
        var withoutControl = pattern
        withoutControl.parameters.removeAll { $0.id == .hapticIntensityControl }
        withoutControl.parameterCurves.removeAll { $0.id == .hapticIntensityControl }
        let control = intensityControlRange(of: pattern, samples: samples, window: window)
        var lo = [Float](repeating: 0, count: samples), hi = lo
        for span in ReferenceRenderer.eventSpans(of: pattern) where span.type.isHaptic {
            var alone = withoutControl
            alone.events = [pattern.events[span.eventIndex]]
            // Silent outside its span: render the span with a margin of a window and a sample each side.
            let first = max(0, Int((span.start * sampleRate).rounded(.down)) - window - 1)
            let last = min(samples - 1, Int((span.end * sampleRate).rounded(.up)) + window + 1)
            guard first <= last else { continue }
            let values = ReferenceRenderer.render(
                [Playback(pattern: alone, startTime: 0)], channels: 1, sampleRate: sampleRate,
                from: Double(first) / sampleRate, to: Double(last) / sampleRate)[0].intensity.values
            let extras = breakpointValues(of: alone).map { ($0.time, $0.intensity) }
            let gain = windowedRange(values, from: first, window: window, extras: extras)
            for index in 0..<values.count {
                lo[first + index] += gain.lo[index] * control.lo[first + index]
                hi[first + index] += gain.hi[index] * control.hi[first + index]
            }
        }
        return (lo, hi)
    }

    /// Sharpness is the intensity-weighted mean of the sounding events' own sharpness (SEMANTICS
    /// §2.2), so it lies within their range. Rounding moves each event's onset on its own while a
    /// sharpness curve moves with its points: a decoded event may sound a tick before the original
    /// one, when the curve already stands elsewhere, and the mean then takes a value the original
    /// mix never has near there (found by the property: seed jmGYiRJR…, a transient onset 0.3 ms
    /// after a steep sharpness curve point). So the range at each sample also spans every event's
    /// own sharpness (its parameter plus the sharpness control, clamped) over ±window wherever
    /// that event sounds.
    private static func widen(
        _ range: inout (lo: [Float], hi: [Float]), byEventSharpnessOf pattern: HapticPattern, samples: Int,
        window: Int
    ) {
        let layer = ControlLayer(authoredBy: pattern)
        let control = (0..<samples).map { layer.value(of: .hapticSharpnessControl, at: Double($0) / sampleRate) }
        for span in ReferenceRenderer.eventSpans(of: pattern) where span.type.isHaptic {
            let own = pattern.events[span.eventIndex].value(of: .hapticSharpness)
            let first = max(0, Int((span.start * sampleRate).rounded(.down)) - window)
            let last = min(samples - 1, Int((span.end * sampleRate).rounded(.up)) + window)
            guard first <= last else { continue }
            // Over a stretch reaching `window` past both ends, so each window within first...last is whole.
            let from = max(0, first - window), to = min(samples - 1, last + window)
            let sharpness = control[from...to].map { min(1, max(0, own + $0)) }
            let eventRange = windowedRange(sharpness, from: from, window: window, extras: [])
            for k in first...last {
                range.lo[k] = min(range.lo[k], eventRange.lo[k - from])
                range.hi[k] = max(range.hi[k], eventRange.hi[k - from])
            }
        }
    }

    /// The authored intensity control's range over ±window at every sample.
    private static func intensityControlRange(
        of pattern: HapticPattern, samples: Int, window: Int
    ) -> (lo: [Float], hi: [Float]) {
        let layer = ControlLayer(authoredBy: pattern)
        let value = { (time: Double) in layer.value(of: .hapticIntensityControl, at: time) }
        var instants = pattern.parameters.filter { $0.id == .hapticIntensityControl }.map(\.time)
        for curve in pattern.parameterCurves where curve.id == .hapticIntensityControl {
            instants += [curve.time] + curve.controlPoints.map { curve.time + $0.time }
        }
        let extras = Set(instants.filter(\.isFinite)).sorted().flatMap { instant in
            [(instant - 1e-9, value(instant - 1e-9)), (instant, value(instant))]
        }
        let values = (0..<samples).map { value(Double($0) / sampleRate) }
        return windowedRange(values, from: 0, window: window, extras: extras)
    }

    /// At every sample, the least and greatest of `values` (samples `from…`) over ±window samples,
    /// and of `extras` (sorted by time) in that window: a lane's values at the instants where it
    /// can jump or turn, so a gap or peak narrower than a sample period still counts.
    private static func windowedRange(
        _ values: [Float], from: Int, window: Int, extras: [(time: Double, value: Float)]
    ) -> (lo: [Float], hi: [Float]) {
        var lo = [Float](repeating: 0, count: values.count), hi = lo
        var firstExtra = 0
        for k in 0..<values.count {
            let low = max(0, k - window), high = min(values.count - 1, k + window)
            let fromTime = Double(from + k - window) / sampleRate, toTime = Double(from + k + window) / sampleRate
            var least = values[low], greatest = values[low]
            for index in low...high {
                least = min(least, values[index])
                greatest = max(greatest, values[index])
            }
            while firstExtra < extras.count && extras[firstExtra].time < fromTime { firstExtra += 1 }
            var index = firstExtra
            while index < extras.count && extras[index].time <= toTime {
                least = min(least, extras[index].value)
                greatest = max(greatest, extras[index].value)
                index += 1
            }
            lo[k] = least
            hi[k] = greatest
        }
        return (lo, hi)
    }

    /// Every instant where the original's output may jump or turn, with its value there and
    /// 1 ns before (left limit), sorted by time.
    private static func breakpointValues(
        of pattern: HapticPattern
    ) -> [(time: Double, intensity: Float, sharpness: Float)] {
        var instants: [Double] = []
        for span in ReferenceRenderer.eventSpans(of: pattern) {
            instants += [span.start, span.end]
            if span.type == .hapticTransient { instants += [span.start + 0.010, span.start + 0.020] }
            if let envelope = span.envelope {
                instants += [envelope.attack, envelope.attack + envelope.decay, envelope.duration].map {
                    span.start + $0
                }
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

    /// A release that begins during the attack stops the ramp at `I × d/A`, a level the original
    /// reaches only there. Rounding moves `d` by up to a tick and `A` by up to ΔL, so the decoded
    /// peak may stand up to `I × δ / A` above it (TIMELINE.md §2): allowed from `δ` before the
    /// release begins until `δ` after the event ends.
    private static func midAttackPeakAllowances(of pattern: HapticPattern, delta: Double, samples: Int) -> [Float] {
        var allowances = [Float](repeating: 0, count: samples)
        for span in ReferenceRenderer.eventSpans(of: pattern) where span.type.isHaptic {
            guard let envelope = span.envelope, envelope.attack > 0, envelope.duration < envelope.attack else {
                continue
            }
            let intensity = pattern.events[span.eventIndex].value(of: .hapticIntensity)
            let extra = intensity * Float(delta / envelope.attack)
            let first = max(0, Int(((span.start + envelope.duration - delta) * sampleRate).rounded(.down)))
            let last = min(samples, Int(((span.end + delta) * sampleRate).rounded(.up)) + 1)
            for index in first..<max(first, last) { allowances[index] += extra }
        }
        return allowances
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
