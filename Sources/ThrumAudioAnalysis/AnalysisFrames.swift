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

/// Short-time spectra: a Hann window of about 21 ms every 2.7 ms, transformed with kissfft, at the
/// sound's own rate (up to 48 kHz; libsamplerate brings higher rates down). Window and hop are the
/// same durations at every rate, so the same sound gives the same frames whatever its rate. Holds
/// one window of samples and two spectra, whatever the length.
final class AnalysisFrames {
    /// The hop and the window, in seconds (64 and 512 samples at 24 kHz).
    static let hopSeconds = 64.0 / 24_000
    static let windowSeconds = 512.0 / 24_000
    /// Rates above this are resampled to it: beyond, the spectrum holds nothing an actuator renders,
    /// and the window would only grow.
    static let highestRate = 48_000
    /// The highest band edge an option may name.
    static let highestBandEdge = 12_000.0
    /// Spectra this many frames apart are compared for the flux (5.3 ms).
    static let fluxLag = 2
    /// Log compression of magnitudes, log(1 + γ·m) (Klapuri 1999; Böck & Widmer 2013).
    static let compression: Float = 1000
    /// Frames centred before the first sample (on silence), so a sound that starts at once has the
    /// silence before it to rise from: its onset is found at 0.
    static let leadFrames = 8

    let sampleRate: Double
    let windowLength: Int
    let hop: Int
    let frameSeconds: Double
    private let fft: kiss_fftr_cfg
    private let window: [Float]
    private var pending: [Float]
    private var windowed: [Float]
    private var spectrum: [kiss_fft_cpx]
    /// The last `fluxLag` frames' compressed levels, a ring; `oldest` is the next to compare with.
    private var history: [[Float]]
    private var oldest = 0
    private var levels: [Float]
    private var frameIndex = 0
    private let bins: ClosedRange<Int>
    private let binFrequencies: [Float]
    private let sharpnessLow: Double
    private let sharpnessHigh: Double
    private let powerScale: Double
    private let magnitudeScale: Float

    init(band: ClosedRange<Double>, sampleRate rate: Int) {
        sampleRate = Double(rate)
        hop = max(1, Int((sampleRate * Self.hopSeconds).rounded()))
        // kissfft is fastest on sizes made of 2, 3 and 5; its real transform needs an even size.
        let wanted = Int((sampleRate * Self.windowSeconds).rounded())
        let n = Int(kiss_fft_next_fast_size(Int32((wanted + 1) / 2))) * 2
        windowLength = n
        frameSeconds = Double(hop) / sampleRate
        fft = kiss_fftr_alloc(Int32(n), 0, nil, nil)
        window = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        let windowPower = window.reduce(0) { $0 + Double($1 * $1) }
        let windowSum = window.reduce(0) { $0 + Double($1) }
        powerScale = 2 / (Double(n) * windowPower)
        magnitudeScale = Float(2 / windowSum)
        // Centre the first frame `leadFrames` hops before the first sample.
        pending = [Float](repeating: 0, count: n / 2 + Self.leadFrames * hop)
        windowed = [Float](repeating: 0, count: n)
        spectrum = [kiss_fft_cpx](repeating: kiss_fft_cpx(), count: n / 2 + 1)
        let spacing = sampleRate / Double(n)
        // The caller refuses a band that starts above the Nyquist frequency; the clamp keeps the bins in
        // the spectrum whatever it is given.
        let first = min(n / 2 - 1, max(1, Int((band.lowerBound / spacing).rounded(.up))))
        let last = min(n / 2 - 1, Int((band.upperBound / spacing).rounded(.down)))
        bins = first...max(first, last)
        levels = [Float](repeating: 0, count: bins.count)
        history = [[Float]](repeating: [Float](repeating: 0, count: bins.count), count: Self.fluxLag)
        binFrequencies = (0...n / 2).map { Float(Double($0) * spacing) }
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

    /// Takes samples at `sampleRate`; calls `body` for each frame they complete.
    func append(_ samples: [Float], _ body: (FrameFeatures) -> Void) {
        pending.append(contentsOf: samples)
        drain(body)
    }

    /// Pads the end with half a window of silence so the last samples are analysed too.
    func finish(_ body: (FrameFeatures) -> Void) {
        pending.append(contentsOf: repeatElement(0, count: windowLength / 2))
        drain(body)
    }

    private func drain(_ body: (FrameFeatures) -> Void) {
        var start = 0
        while pending.count - start >= windowLength {
            body(analyse(from: start))
            start += hop
        }
        pending.removeFirst(start)
    }

    private func analyse(from start: Int) -> FrameFeatures {
        let n = windowLength
        pending.withUnsafeBufferPointer { input in
            window.withUnsafeBufferPointer { window in
                windowed.withUnsafeMutableBufferPointer { output in
                    for index in 0..<n { output[index] = input[start + index] * window[index] }
                }
            }
        }
        windowed.withUnsafeBufferPointer { input in
            spectrum.withUnsafeMutableBufferPointer { output in
                kiss_fftr(fft, input.baseAddress, output.baseAddress)
            }
        }
        var power: Float = 0
        var weighted: Float = 0
        var magnitudeSum: Float = 0
        let (first, count, scale) = (bins.lowerBound, bins.count, magnitudeScale)
        spectrum.withUnsafeBufferPointer { spectrum in
            binFrequencies.withUnsafeBufferPointer { frequencies in
                levels.withUnsafeMutableBufferPointer { levels in
                    for slot in 0..<count {
                        let value = spectrum[first + slot]
                        let squared = value.r * value.r + value.i * value.i
                        let magnitude = squared.squareRoot() * scale
                        power += squared
                        weighted += frequencies[first + slot] * magnitude
                        magnitudeSum += magnitude
                        levels[slot] = log1p(Self.compression * magnitude)
                    }
                }
            }
        }
        // Compare with frame n - fluxLag, then keep frame n in its place in the ring.
        var flux: Float = 0
        let full = frameIndex >= Self.fluxLag
        levels.withUnsafeBufferPointer { levels in
            history[oldest].withUnsafeMutableBufferPointer { earlier in
                if full {
                    // The earlier frame's level is its largest over the bin and its two neighbours
                    // (SuperFlux's maximum filter): a noise's levels jitter from bin to bin and frame to
                    // frame, and comparing with the neighbourhood's maximum keeps that jitter out of the flux.
                    let last = count - 1
                    for slot in 0...last {
                        let reference = max(earlier[max(0, slot - 1)], earlier[slot], earlier[min(last, slot + 1)])
                        flux += max(0, levels[slot] - reference)
                    }
                }
                for slot in 0..<count { earlier[slot] = levels[slot] }
            }
        }
        oldest = (oldest + 1) % Self.fluxLag
        let time = Double(frameIndex - Self.leadFrames) * frameSeconds
        frameIndex += 1
        return FrameFeatures(
            time: time,
            amplitude: (2 * Double(power) * powerScale).squareRoot(),
            sharpness: magnitudeSum > 0 ? sharpness(ofCentroid: Double(weighted / magnitudeSum)) : 0,
            flux: Double(flux) / Double(count))
    }
}
