import ThrumModel
import ThrumSimulator
import ThrumTimeline

/// SEMANTICS.md §10: the firmware's rendering (the simulator's trace) against the reference
/// renderer at the tick instants. The reference renders the *decoded* timeline, so what remains
/// is the firmware's fixed-point arithmetic and its tick timing; a time quantised to the tick may
/// move an edge by one tick, so a sample also passes when it lies within the reference's range
/// over the neighbouring ticks.
public struct DifferentialReport: Sendable, CustomStringConvertible {
    public struct Worst: Sendable {
        public var value: Float = 0
        public var time: Double = 0
        public var firmware: Float = 0
        public var reference: Float = 0
    }

    public var name: String
    public var ticks = 0
    /// |firmware − reference| at the same tick, intensity (edges included).
    public var intensitySameTick = Worst()
    /// Distance from the reference's range over ±1 tick (the value error).
    public var intensity = Worst()
    /// The same for sharpness, where both intensities exceed `sharpnessFloor`.
    public var sharpness = Worst()
    /// Largest shift (seconds) needed to bring a sample within the bound (the timing error).
    public var timing = Worst()

    /// The bound: Q15 rounding of fixed-point envelopes and products (0.01, as the C tests use)
    /// after a timing allowance of one tick (§10).
    public static let valueBound: Float = 0.01
    public static let timingBoundTicks = 1
    public static let sharpnessFloor: Float = 0.05

    public var passed: Bool {
        intensity.value <= Self.valueBound && sharpness.value <= Self.valueBound
            && Double(timing.value) <= Double(Self.timingBoundTicks) * tickPeriod + 1e-9
    }
    var tickPeriod = 0.001

    public var description: String {
        func at(_ w: Worst) -> String {
            String(format: "%.5f at t=%.4f s (firmware %.5f, reference %.5f)", w.value, w.time, w.firmware, w.reference)
        }
        return """
            \(name): \(ticks) ticks; intensity \(at(intensity)); same tick \(at(intensitySameTick)); \
            sharpness \(at(sharpness)); timing \(String(format: "%.4f s at t=%.4f s", Float(timing.value), timing.time))
            """
    }
}

public enum DifferentialComparison {
    /// Compiles `pattern`, plays it on a simulated board and compares with the reference
    /// renderer of the decoded timeline over [0, seconds] (default: to the end of its tails,
    /// at most `maximumSeconds`).
    public static func compare(
        _ pattern: HapticPattern, name: String, tickRate: Int = 1000, maximumSeconds: Double = 30,
        perturb: (inout FirmwareRendering.Lanes) -> Void = { _ in }
    ) throws -> DifferentialReport {
        let bytes = try TimelineCompiler.compile(pattern)
        let decoded = try TimelineDecoder.decode(bytes).toPattern()
        let end = min(maximumSeconds, ReferenceRenderer.renderedDuration(of: decoded) + 0.05)
        var firmware = try FirmwareRendering.render(timeline: bytes, seconds: end, tickRate: tickRate)
        perturb(&firmware)
        // The board reads a decay's timing control at its first tick after the attack (§10).
        let playback = Playback(pattern: decoded, startTime: 0, decayReadTick: 1 / Double(tickRate))
        let reference = ReferenceRenderer.render(
            [playback], channels: 1, sampleRate: Double(tickRate), from: 0, to: end)[0]
        return compare(firmware: firmware, reference: reference, name: name)
    }

    static func compare(
        firmware: FirmwareRendering.Lanes, reference: RenderedChannel, name: String
    ) -> DifferentialReport {
        var report = DifferentialReport(name: name)
        let period = 1 / firmware.tickRate
        report.tickPeriod = period
        let ri = reference.intensity.values, rs = reference.sharpness.values
        let count = min(ri.count, firmware.intensity.count)
        report.ticks = count
        func distance(_ value: Float, _ lane: [Float], around k: Int, ticks: Int) -> Float {
            let from = max(0, k - ticks), to = min(count - 1, k + ticks)
            var lo = lane[from], hi = lane[from]
            for index in from...to {
                lo = min(lo, lane[index])
                hi = max(hi, lane[index])
            }
            return max(lo - value, value - hi, 0)
        }
        for k in 0..<count {
            let t = Double(k) * period
            let fi = firmware.intensity[k]
            let same = abs(fi - ri[k])
            if same > report.intensitySameTick.value {
                report.intensitySameTick = .init(value: same, time: t, firmware: fi, reference: ri[k])
            }
            let windowed = distance(fi, ri, around: k, ticks: DifferentialReport.timingBoundTicks)
            if windowed > report.intensity.value {
                report.intensity = .init(value: windowed, time: t, firmware: fi, reference: ri[k])
            }
            // Timing: the smallest shift that brings the sample within the value bound.
            if same > DifferentialReport.valueBound {
                var shift = 1
                while shift < 50, distance(fi, ri, around: k, ticks: shift) > DifferentialReport.valueBound {
                    shift += 1
                }
                let seconds = Double(shift) * period
                if Float(seconds) > report.timing.value {
                    report.timing = .init(value: Float(seconds), time: t, firmware: fi, reference: ri[k])
                }
            }
            let from = max(0, k - 1), to = min(count - 1, k + 1)
            if (from...to).allSatisfy({
                ri[$0] > DifferentialReport.sharpnessFloor && firmware.intensity[$0] > DifferentialReport.sharpnessFloor
            }) {
                let fs = firmware.sharpness[k]
                let error = distance(fs, rs, around: k, ticks: 1)
                if error > report.sharpness.value {
                    report.sharpness = .init(value: error, time: t, firmware: fs, reference: rs[k])
                }
            }
        }
        return report
    }
}
