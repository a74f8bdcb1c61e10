import Foundation
import ThrumModel

/// Converts a sound into a haptic pattern (Protocol/AUDIO-TO-HAPTICS.md).
///
/// The file is read in blocks through libsndfile, mixed down to one channel (resampled to 48 kHz
/// with libsamplerate when its rate is higher) and analysed in 21 ms frames every 2.7 ms (kissfft). Memory stays the same
/// whatever the file's length; only the pattern grows with it.
///
/// ```swift
/// let conversion = try AudioToHaptics.convert(contentsOf: url)
/// print(conversion.report.onsets.count, conversion.pattern.events.count)
/// ```
public enum AudioToHaptics {
    /// Analyses the sound at `url`. `progress` receives the fraction read so far (0…1) after each block.
    public static func convert(
        contentsOf url: URL,
        options: AudioConversionOptions = AudioConversionOptions(),
        progress: ((Double) -> Void)? = nil
    ) throws(AudioConversionError) -> AudioConversion {
        let name = url.lastPathComponent
        if let problem = options.problem() {
            throw AudioConversionError(file: name, kind: .invalidOptions, problem: problem)
        }
        let reader = try SoundFileReader(url: url, displayName: name)
        let analysisRate = min(reader.sampleRate, AnalysisFrames.highestRate)
        guard options.band.lowerBound < Double(analysisRate) / 2 - 100 else {
            throw AudioConversionError(
                file: name, kind: .invalidOptions,
                problem:
                    "the band starts at \(options.band.lowerBound) Hz, but a sound at \(reader.sampleRate) Hz holds nothing above \(analysisRate / 2) Hz"
            )
        }
        let resampler = Resampler(from: reader.sampleRate, to: analysisRate)
        let frames = AnalysisFrames(band: options.band, sampleRate: analysisRate)
        var assembly = PatternAssembly(options: options, frameSeconds: frames.frameSeconds)
        var picker = OnsetPicker(sensitivity: options.transientSensitivity, floorAmplitude: assembly.floorAmplitude)
        var waveform = WaveformSummarizer(
            columns: options.waveformColumns, announcedFrames: reader.announcedFrames, sampleRate: reader.sampleRate)
        var statistics = SignalStatistics()
        var dcBlocker = DCBlocker(sampleRate: reader.sampleRate)

        let release = { (features: FrameFeatures) in assembly.add(features) }
        let take = { (features: FrameFeatures) in
            if let onset = picker.append(features, release: release) { assembly.add(onset) }
        }
        var block: [Float] = []
        while try reader.read(into: &block) {
            statistics.add(block)
            waveform.append(block)
            dcBlocker.process(&block)
            frames.append(resampler.process(block, last: false), take)
            if let progress, reader.announcedFrames > 0 {
                progress(min(1, Double(reader.framesRead) / Double(reader.announcedFrames)))
            }
        }
        frames.append(resampler.process([], last: true), take)
        frames.finish(take)
        for onset in picker.finish(release: release) { assembly.add(onset) }

        let duration = Double(reader.framesRead) / Double(reader.sampleRate)
        let result = assembly.finish(
            audioFile: name, duration: duration, halfWindow: Double(frames.windowLength / 2) / frames.sampleRate)
        let report = AudioAnalysisReport(
            format: reader.format, sampleRate: reader.sampleRate, channels: reader.channels, frames: reader.framesRead,
            duration: duration, peak: statistics.peak, clippedSamples: statistics.clipped,
            dcOffset: statistics.mean, peakBandAmplitude: assembly.peakAmplitude, onsets: result.onsets,
            continuousEvents: result.pattern.events.filter { $0.type == .hapticContinuous }.count,
            intensityBreakpoints: result.breakpoints.0, sharpnessBreakpoints: result.breakpoints.1,
            curves: result.curves, intensityMaxError: options.intensityTolerance,
            sharpnessMaxError: options.sharpnessTolerance)
        progress?(1)
        return AudioConversion(pattern: result.pattern, report: report, waveform: waveform.result)
    }
}

extension HapticPattern {
    /// The pattern `AudioToHaptics.convert(contentsOf:options:)` derives from the sound at `url`.
    public init(
        analyzingAudioAt url: URL, options: AudioConversionOptions = AudioConversionOptions()
    ) throws(AudioConversionError) {
        self = try AudioToHaptics.convert(contentsOf: url, options: options).pattern
    }
}

/// Peak, clipping and mean of the mixed-down signal, kept as running sums.
struct SignalStatistics {
    private(set) var peak = 0.0
    private(set) var clipped = 0
    private var sum = 0.0
    private var count = 0

    var mean: Double { count > 0 ? sum / Double(count) : 0 }

    mutating func add(_ block: [Float]) {
        var (peak, clipped, sum): (Float, Int, Double) = (Float(self.peak), 0, 0)
        block.withUnsafeBufferPointer { samples in
            for sample in samples {
                let magnitude = abs(sample)
                peak = max(peak, magnitude)
                if magnitude >= 0.999 { clipped += 1 }
                sum += Double(sample)
            }
        }
        self.peak = Double(peak)
        self.clipped += clipped
        self.sum += sum
        count += block.count
    }
}
