import Foundation
import ThrumModel

/// A converted sound: the pattern, what the analysis found, and the waveform to draw under it.
public struct AudioConversion: Sendable {
    public var pattern: HapticPattern
    public var report: AudioAnalysisReport
    public var waveform: WaveformSummary
}

/// What the analysis read and found.
public struct AudioAnalysisReport: Sendable, Hashable {
    /// The container and encoding as libsndfile names them, e.g. `WAV (Microsoft), Signed 16 bit PCM`.
    public var format: String
    public var sampleRate: Int
    public var channels: Int
    /// Frames (one sample per channel) read.
    public var frames: Int
    public var duration: Double
    /// The largest absolute sample of the mixed-down signal (1 = full scale).
    public var peak: Double
    /// Mixed-down samples at or beyond full scale (±0.999): a clipped recording.
    public var clippedSamples: Int
    /// The mean of the mixed-down signal, removed before analysis.
    public var dcOffset: Double
    /// The loudest band amplitude found (1 = a full-scale sine); intensity 1 when normalising.
    public var peakBandAmplitude: Double
    /// The onsets found, each a transient in the pattern.
    public var onsets: [Onset]
    /// Continuous events: one per stretch of sound above the noise floor (split at 30 s).
    public var continuousEvents: Int
    /// Breakpoints of the intensity and sharpness curves, over all chained curves.
    public var intensityBreakpoints: Int
    public var sharpnessBreakpoints: Int
    /// Parameter curves written (each at most 16 points, chained).
    public var curves: Int
    /// The guaranteed bound on the difference between each curve and what was measured.
    public var intensityMaxError: Double
    public var sharpnessMaxError: Double

    /// An onset: where new energy enters the band, and how strongly (0…1, after gain).
    public struct Onset: Sendable, Hashable {
        public var time: Double
        public var strength: Double
    }
}

/// The waveform at a fixed resolution: the lowest and highest mixed-down sample in each column.
public struct WaveformSummary: Sendable, Hashable {
    /// Source frames in each column; the last column may hold fewer.
    public var framesPerColumn: Int
    public var sampleRate: Int
    public var minimums: [Float]
    public var maximums: [Float]

    /// Seconds covered by one column.
    public var columnDuration: Double { Double(framesPerColumn) / Double(sampleRate) }
}

extension AudioAnalysisReport {
    /// One line: what was read and what it became (`thrum convert` prints it after "wrote OUT: ",
    /// the service's `POST /api/convert` after the sound's name).
    public var summary: String {
        let seconds = String(format: "%.2f", duration)
        let layout = channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"
        let counts = [Self.counted(onsets.count, "transient"), Self.counted(continuousEvents, "continuous event")]
        var line =
            "\(seconds) s of \(layout) \(sampleRate) Hz audio -> \(counts.joined(separator: ", ")), \(intensityBreakpoints) intensity and \(sharpnessBreakpoints) sharpness breakpoints in \(Self.counted(curves, "curve")) (max error \(intensityMaxError))"
        if clippedSamples > 0 { line += "; \(clippedSamples) clipped samples" }
        return line
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }
}
