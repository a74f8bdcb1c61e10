import Foundation
import ThrumModel

/// Gathers what the frames and onsets say, as they arrive, and writes the pattern at the end
/// (Protocol/AUDIO-TO-HAPTICS.md §4). It keeps only output: breakpoints, regions, onsets.
struct PatternAssembly {
    /// Gaps of silence shorter than this join the sound on either side into one continuous event.
    static let joinGap = 0.05
    /// Core Haptics plays a continuous event for at most 30 s.
    static let longestEvent = 30.0
    /// Core Haptics devices take at most 16 points per curve.
    static let pointsPerCurve = 16

    let options: AudioConversionOptions
    let floorAmplitude: Double
    private(set) var peakAmplitude = 0.0
    private var intensity = CurveSimplifier()
    private var sharpness = CurveSimplifier()
    private var regions: [(start: Double, end: Double)] = []
    private var onsets: [OnsetPicker.Candidate] = []
    /// The time between two frames (the analysis hop).
    private let frameSeconds: Double

    init(options: AudioConversionOptions, frameSeconds: Double) {
        self.options = options
        self.frameSeconds = frameSeconds
        floorAmplitude = pow(10, options.noiseFloor / 20)
    }

    /// The raw amplitude that intensity 1 stands for: the loudest so far, or a full-scale sine.
    private var fullScale: Double {
        options.normalizes ? max(peakAmplitude, floorAmplitude) : 1
    }

    mutating func add(_ frame: FrameFeatures) {
        // The lead-in frames serve the onsets only: the pattern starts at 0.
        guard frame.time >= 0 else { return }
        let isActive = frame.amplitude >= floorAmplitude
        if isActive { peakAmplitude = max(peakAmplitude, frame.amplitude) }
        // Tolerances in raw units: the peak only grows, so the final error is at most the option's.
        let rawTolerance = options.intensityTolerance * fullScale / options.gain
        intensity.append(time: frame.time, value: isActive ? frame.amplitude : 0, tolerance: rawTolerance)
        guard isActive else { return }
        sharpness.append(time: frame.time, value: frame.sharpness, tolerance: options.sharpnessTolerance)
        let end = frame.time + frameSeconds
        if let last = regions.last, frame.time - last.end <= Self.joinGap {
            regions[regions.count - 1].end = end
        } else {
            regions.append((frame.time, end))
        }
    }

    /// An onset found up to 3 ms before the sound starts (the window's spread) is at 0.
    mutating func add(_ onset: OnsetPicker.Candidate) {
        var onset = onset
        onset.time = max(0, onset.time)
        onsets.append(onset)
    }

    /// The pattern, the onsets as reported, and the curves' counts.
    mutating func finish(
        audioFile: String, duration: Double, halfWindow: Double
    ) -> (pattern: HapticPattern, onsets: [AudioAnalysisReport.Onset], breakpoints: (Int, Int), curves: Int) {
        intensity.finish()
        sharpness.finish()
        let scale = options.gain / fullScale
        let intensityPoints = intensity.points.map { (time: $0.time, value: unit($0.value * scale)) }
        let sharpnessPoints = sharpness.points.map { (time: $0.time, value: unit($0.value)) }
        var pattern = HapticPattern(metadata: ["Source": audioFile])
        if options.keepsAudio {
            pattern.events.append(
                HapticEvent(.audioCustom, time: 0, duration: duration, waveform: AudioWaveform(path: audioFile)))
        }
        for region in regions {
            var start = region.start
            while start < region.end - 1e-9 {
                let length = min(Self.longestEvent, region.end - start)
                pattern.events.append(.continuous(at: start, duration: length, intensity: 1, sharpness: 0))
                start += length
            }
        }
        var reported: [AudioAnalysisReport.Onset] = []
        // Within half a window of the end, the flux sees the sound stop (the silence padded after
        // it), not a new one start.
        let lastOnset = duration - halfWindow
        for onset in onsets where onset.time < lastOnset {
            let strength = unit(onset.rise * scale)
            reported.append(.init(time: onset.time, strength: strength))
            // Controls act on every event: author the transient so that, after the intensity control
            // multiplies and the sharpness control adds, it is felt as measured (where 0…1 allows).
            let control = value(of: intensityPoints, at: onset.time)
            let authoredIntensity = control > 0 ? unit(strength / control) : 1
            let authoredSharpness = unit(onset.sharpness - value(of: sharpnessPoints, at: onset.time))
            pattern.events.append(
                .transient(at: onset.time, intensity: Float(authoredIntensity), sharpness: Float(authoredSharpness)))
        }
        var curves = 0
        if !regions.isEmpty {
            for (id, points) in [
                (DynamicParameterID.hapticIntensityControl, intensityPoints),
                (.hapticSharpnessControl, sharpnessPoints),
            ] {
                let chained = Self.chain(points, id: id)
                curves += chained.count
                pattern.parameterCurves += chained
            }
        }
        let counts = regions.isEmpty ? (0, 0) : (intensityPoints.count, sharpnessPoints.count)
        return (pattern.normalized(), reported, counts, curves)
    }

    /// Curves of at most 16 points, each starting at the previous one's last point: a curve
    /// supersedes the one before it from its start (SEMANTICS.md §3), so the chain is one line.
    static func chain(_ points: [(time: Double, value: Double)], id: DynamicParameterID) -> [ParameterCurve] {
        guard let first = points.first else { return [] }
        if points.count == 1 {
            return [
                ParameterCurve(id, time: first.time, controlPoints: [ControlPoint(time: 0, value: Float(first.value))])
            ]
        }
        var curves: [ParameterCurve] = []
        var start = 0
        while start < points.count - 1 {
            let end = min(start + pointsPerCurve - 1, points.count - 1)
            let origin = points[start].time
            let controls = points[start...end].map { ControlPoint(time: $0.time - origin, value: Float($0.value)) }
            curves.append(ParameterCurve(id, time: origin, controlPoints: controls))
            start = end
        }
        return curves
    }

    /// The piecewise-linear value of `points` at `time` (held before the first and after the last).
    private func value(of points: [(time: Double, value: Double)], at time: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if time <= first.time { return first.value }
        if time >= last.time { return last.value }
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if points[middle].time <= time { low = middle } else { high = middle }
        }
        let (a, b) = (points[low], points[high])
        return a.value + (b.value - a.value) * (time - a.time) / (b.time - a.time)
    }

    private func unit(_ value: Double) -> Double { min(1, max(0, value)) }
}
