import CKissFFT
import Foundation

/// What one analysis frame measured (Protocol/AUDIO-TO-HAPTICS.md §3).
struct FrameFeatures {
    /// Seconds from the start of the sound: the frame's centre (negative for the lead-in frames).
    var time: Double
    /// The band's amplitude: √2 × its RMS, so a full-scale sine in the band is 1.
    var amplitude: Double
    /// The band's spectral centroid mapped to 0…1 (logarithmic in frequency).
    var sharpness: Double
    /// Spectral flux: the mean rise per band bin of the log-compressed magnitude since `fluxLag` frames before.
    var flux: Double
}

/// Short-time spectra of the resampled signal: a Hann window of `windowLength` samples every `hop`
/// samples, transformed with kissfft. Holds one window of samples and two spectra, whatever the length.
final class AnalysisFrames {
    /// Every sound is analysed at this rate (libsamplerate converts), so the same sound gives the same
    /// frames whatever its rate: 24 kHz keeps all of a 12 kHz band and costs little.
    static let sampleRate = 24_000.0
    static let windowLength = 512
    static let hop = 64
    /// Spectra this many frames apart are compared for the flux (5.3 ms).
    static let fluxLag = 2
    /// Log compression of magnitudes, log(1 + γ·m) (Klapuri 1999; Böck & Widmer 2013).
    static let compression: Float = 1000
    /// Frames centred before the first sample (on silence), so a sound that starts at once has the
    /// silence before it to rise from: its onset is found at 0.
    static let leadFrames = 8

    let frameSeconds = Double(hop) / sampleRate
    private let fft: kiss_fftr_cfg
    private let window: [Float]
    private var pending: [Float]
    private var windowed: [Float]
    private var spectrum: [kiss_fft_cpx]
    private var history: [[Float]]
    private var levels: [Float]
    private var frameIndex = 0
    private let bins: ClosedRange<Int>
    private let binFrequencies: [Double]
    private let sharpnessLow: Double
    private let sharpnessHigh: Double
    private let powerScale: Double
    private let magnitudeScale: Float

    init(band: ClosedRange<Double>) {
        let n = Self.windowLength
        fft = kiss_fftr_alloc(Int32(n), 0, nil, nil)
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        let windowPower = window.reduce(0) { $0 + Double($1 * $1) }
        let windowSum = window.reduce(0) { $0 + Double($1) }
        powerScale = 2 / (Double(n) * windowPower)
        magnitudeScale = Float(2 / windowSum)
        // Centre the first frame `leadFrames` hops before the first sample.
        pending = [Float](repeating: 0, count: n / 2 + Self.leadFrames * Self.hop)
        windowed = [Float](repeating: 0, count: n)
        spectrum = [kiss_fft_cpx](repeating: kiss_fft_cpx(), count: n / 2 + 1)
        history = []
        let spacing = Self.sampleRate / Double(n)
        let first = max(1, Int((band.lowerBound / spacing).rounded(.up)))
        let last = min(n / 2 - 1, Int((band.upperBound / spacing).rounded(.down)))
        bins = first...max(first, last)
        levels = [Float](repeating: 0, count: bins.count)
        binFrequencies = (0...n / 2).map { Double($0) * spacing }
        sharpnessLow = max(band.lowerBound, 50)
        sharpnessHigh = band.upperBound
    }

    deinit { free(UnsafeMutableRawPointer(fft)) }

    /// The sharpness a centroid of `frequency` hertz maps to.
    func sharpness(ofCentroid frequency: Double) -> Double {
        guard frequency > 0 else { return 0 }
        let position = log(frequency / sharpnessLow) / log(sharpnessHigh / sharpnessLow)
        return min(1, max(0, position))
    }

    /// Takes resampled samples; calls `body` for each frame they complete.
    func append(_ samples: [Float], _ body: (FrameFeatures) -> Void) {
        pending.append(contentsOf: samples)
        drain(body)
    }

    /// Pads the end with half a window of silence so the last samples are analysed too.
    func finish(_ body: (FrameFeatures) -> Void) {
        pending.append(contentsOf: repeatElement(0, count: Self.windowLength / 2))
        drain(body)
    }

    private func drain(_ body: (FrameFeatures) -> Void) {
        var start = 0
        while pending.count - start >= Self.windowLength {
            body(analyse(from: start))
            start += Self.hop
        }
        pending.removeFirst(start)
    }

    private func analyse(from start: Int) -> FrameFeatures {
        for index in 0..<Self.windowLength { windowed[index] = pending[start + index] * window[index] }
        windowed.withUnsafeBufferPointer { input in
            spectrum.withUnsafeMutableBufferPointer { output in
                kiss_fftr(fft, input.baseAddress, output.baseAddress)
            }
        }
        var power = 0.0
        var weighted = 0.0
        var magnitudeSum = 0.0
        for (slot, bin) in bins.enumerated() {
            let value = spectrum[bin]
            let squared = value.r * value.r + value.i * value.i
            let magnitude = squared.squareRoot() * magnitudeScale
            power += Double(squared)
            weighted += binFrequencies[bin] * Double(magnitude)
            magnitudeSum += Double(magnitude)
            levels[slot] = log1p(Self.compression * magnitude)
        }
        // The oldest kept spectrum is frame n - fluxLag: compare, then reuse its storage for frame n.
        let full = history.count == Self.fluxLag
        var compressed = full ? history.removeFirst() : [Float](repeating: 0, count: bins.count)
        var flux: Float = 0
        if full {
            // The earlier frame's level is its largest over the bin and its two neighbours (SuperFlux's
            // maximum filter): a noise's levels jitter from bin to bin and frame to frame, and comparing
            // with the neighbourhood's maximum keeps that jitter out of the flux.
            let last = bins.count - 1
            for slot in 0...last {
                let reference = max(compressed[max(0, slot - 1)], compressed[slot], compressed[min(last, slot + 1)])
                flux += max(0, levels[slot] - reference)
            }
        }
        for slot in 0..<bins.count { compressed[slot] = levels[slot] }
        history.append(compressed)
        let time = Double(frameIndex - Self.leadFrames) * frameSeconds
        frameIndex += 1
        return FrameFeatures(
            time: time,
            amplitude: (2 * power * powerScale).squareRoot(),
            sharpness: magnitudeSum > 0 ? sharpness(ofCentroid: weighted / magnitudeSum) : 0,
            flux: Double(flux) / Double(bins.count))
    }
}
