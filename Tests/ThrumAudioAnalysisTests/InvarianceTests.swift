import Foundation
import Testing
import ThrumAudioAnalysis
import ThrumModel

/// The same sound at 44.1, 48 and 96 kHz, mono and stereo, 16-bit WAV and FLAC gives the same pattern:
/// the same transients within 3 ms and 0.05 intensity, curves within 0.05 at every 10 ms when
/// simplified with a tolerance of 0.01 (two curves each within ε of their measurements may differ
/// by 2ε on top of what the measurements differ by).
struct InvarianceTests {
    static func drumLoop(rate: Int) -> [Float] {
        var samples = Signals.tone(
            frequency: 330, amplitude: 0.25, seconds: 2.5, rate: rate, envelope: { 0.6 + 0.4 * sin(2 * .pi * 0.8 * $0) }
        )
        for (index, time) in [0.2, 0.5, 0.8, 0.85, 1.4, 1.9].enumerated() {
            Signals.addHit(to: &samples, at: time, rate: rate, amplitude: 0.6, seed: UInt64(index))
        }
        return samples
    }

    static func compare(_ a: AudioConversion, _ b: AudioConversion, _ label: String, within bound: Float = 0.05) {
        let (ta, tb) = (
            a.pattern.events.filter { $0.type == .hapticTransient },
            b.pattern.events.filter { $0.type == .hapticTransient }
        )
        #expect(ta.count == tb.count, "\(label): \(ta.map(\.time)) vs \(tb.map(\.time))")
        let (la, lb) = (ControlLayer(authoredBy: a.pattern), ControlLayer(authoredBy: b.pattern))
        for (x, y) in zip(ta, tb) {
            #expect(abs(x.time - y.time) <= 0.003, "\(label): \(x.time) vs \(y.time)")
            let felt = { (event: HapticEvent, layer: ControlLayer) in
                event.intensity * layer.value(of: .hapticIntensityControl, at: event.time)
            }
            #expect(abs(felt(x, la) - felt(y, lb)) <= bound, "\(label) at \(x.time)")
        }
        for time in stride(from: 0.05, to: 2.45, by: 0.01) {
            for id in [DynamicParameterID.hapticIntensityControl, .hapticSharpnessControl] {
                let difference = abs(la.value(of: id, at: time) - lb.value(of: id, at: time))
                #expect(difference <= bound, "\(label): \(id) at \(time) differs by \(difference)")
            }
        }
        #expect(a.report.continuousEvents == b.report.continuousEvents, "\(label)")
    }

    @Test func rateChannelsAndEncodingDoNotChangeThePattern() throws {
        let options = AudioConversionOptions(intensityTolerance: 0.01, sharpnessTolerance: 0.01)
        let convert = { (url: URL) in try AudioToHaptics.convert(contentsOf: url, options: options) }
        let at44 = Self.drumLoop(rate: 44_100)
        let at48 = Self.drumLoop(rate: 48_000)
        let reference = try convert(SoundFixtures.writeMono("loop-44.wav", rate: 44_100, at44))
        let at48kHz = try convert(SoundFixtures.writeMono("loop-48.wav", rate: 48_000, at48))
        // Above 48 kHz libsamplerate brings the sound down to 48 kHz first.
        let resampled = try convert(SoundFixtures.writeMono("loop-96.wav", rate: 96_000, Self.drumLoop(rate: 96_000)))
        // Stereo: the sound in both channels, or unevenly in the two, mixes down to the same.
        let stereo = try convert(SoundFixtures.write("loop-stereo.wav", rate: 44_100, channels: [at44, at44]))
        let uneven = try convert(
            SoundFixtures.write(
                "loop-uneven.wav", rate: 44_100, channels: [at44.map { $0 * 1.5 }, at44.map { $0 * 0.5 }],
                encoding: .wavFloat))
        let flac = try convert(
            SoundFixtures.writeMono("loop-44.flac", rate: 44_100, at44, encoding: .flac))
        Self.compare(reference, at48kHz, "48 kHz")
        // The fixture's noise is white at each rate: at 96 kHz half its power lies above 24 kHz, out of
        // the band, so the hits' centroid moves a little. Within 0.1 there.
        Self.compare(reference, resampled, "96 kHz", within: 0.1)
        // An unusual rate (kissfft's window of 480 samples at 22.05 kHz), its noise denser in the band.
        let low = try convert(SoundFixtures.writeMono("loop-22.wav", rate: 22_050, Self.drumLoop(rate: 22_050)))
        Self.compare(reference, low, "22.05 kHz", within: 0.1)
        Self.compare(reference, stereo, "stereo")
        Self.compare(reference, uneven, "uneven stereo")
        Self.compare(reference, flac, "FLAC")
        #expect(stereo.report.channels == 2 && resampled.report.sampleRate == 96_000)
        #expect(flac.report.format.contains("FLAC"), "\(flac.report.format)")
    }

    /// Lossy codecs (Ogg Vorbis, Ogg Opus, MP3 at their default quality) keep the transients (within
    /// 3 ms) and, within 0.1, their felt intensity and the curves: they discard what is masked, which moves the band's amplitude and
    /// centroid a little.
    @Test func lossyEncodingsKeepThePattern() throws {
        let options = AudioConversionOptions(intensityTolerance: 0.01, sharpnessTolerance: 0.01)
        let loop = Self.drumLoop(rate: 48_000)
        let reference = try AudioToHaptics.convert(
            contentsOf: SoundFixtures.writeMono("lossy-reference.wav", rate: 48_000, loop), options: options)
        for (encoding, name) in [
            (SoundFixtures.Encoding.vorbis, "loop.ogg"), (.opus, "loop.opus"), (.mp3, "loop.mp3"),
        ] {
            let url = try SoundFixtures.writeMono(name, rate: 48_000, loop, encoding: encoding)
            let conversion = try AudioToHaptics.convert(contentsOf: url, options: options)
            Self.compare(reference, conversion, name, within: 0.1)
        }
    }
}
