import CSndFile
import Foundation
import Testing

@testable import ThrumModel

/// Sounds the tests synthesise and write with libsndfile into a temporary folder.
enum SoundFixtures {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-audio-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    enum Encoding {
        case wav16, wavFloat, flac, vorbis, opus, mp3

        var format: Int32 {
            switch self {
            case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .wavFloat: return Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
            case .flac: return Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .vorbis: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .opus: return Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
            case .mp3: return Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
            }
        }
    }

    /// Writes `channels` (each the same length) to `name` and returns its URL.
    static func write(
        _ name: String, rate: Int, channels: [[Float]], encoding: Encoding = .wav16
    ) throws -> URL {
        let url = folder.appendingPathComponent(name)
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = Int32(channels.count)
        info.format = encoding.format
        guard let file = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw FixtureError(message: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let frames = channels.first?.count ?? 0
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for (channel, samples) in channels.enumerated() {
            for (frame, sample) in samples.enumerated() { interleaved[frame * channels.count + channel] = sample }
        }
        let written = sf_writef_float(file, interleaved, sf_count_t(frames))
        #expect(Int(written) == frames)
        return url
    }

    static func writeMono(_ name: String, rate: Int, _ samples: [Float], encoding: Encoding = .wav16) throws -> URL {
        try write(name, rate: rate, channels: [samples], encoding: encoding)
    }

    struct FixtureError: Error { var message: String }
}

/// Signal generators, all deterministic.
enum Signals {
    static func silence(seconds: Double, rate: Int) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * Double(rate)))
    }

    static func tone(
        frequency: Double, amplitude: Double, seconds: Double, rate: Int, envelope: ((Double) -> Double)? = nil
    ) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { index in
            let time = Double(index) / Double(rate)
            return Float(amplitude * (envelope?(time) ?? 1) * sin(2 * .pi * frequency * time))
        }
    }

    /// A drum-like hit: a 1 ms attack, then a falling 120→60 Hz body (60 ms decay) and a noise burst (15 ms).
    static func addHit(to samples: inout [Float], at time: Double, rate: Int, amplitude: Double, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let start = Int(time * Double(rate))
        let length = Int(0.6 * Double(rate))  // long enough to die away: an abrupt cut is a click
        var phase = 0.0
        for offset in 0..<length where start + offset < samples.count {
            let t = Double(offset) / Double(rate)
            let attack = min(1, t / 0.001)
            phase += 2 * .pi * (60 + 60 * exp(-t / 0.03)) / Double(rate)
            let body = 0.7 * sin(phase) * exp(-t / 0.06)
            let noise = 0.5 * random.nextSigned() * exp(-t / 0.015)
            samples[start + offset] += Float(amplitude * attack * (body + noise))
        }
    }

    /// A click: a 0.5 ms burst of a decaying 3 kHz wave.
    static func addClick(to samples: inout [Float], at time: Double, rate: Int, amplitude: Double) {
        let start = Int(time * Double(rate))
        for offset in 0..<Int(0.004 * Double(rate)) where start + offset < samples.count {
            let t = Double(offset) / Double(rate)
            samples[start + offset] += Float(amplitude * sin(2 * .pi * 3000 * t) * exp(-t / 0.0008))
        }
    }

    static func noise(seconds: Double, rate: Int, amplitude: Double, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<Int(seconds * Double(rate))).map { _ in Float(amplitude * random.nextSigned()) }
    }
}

extension SplitMix64 {
    /// Uniform in -1…1.
    mutating func nextSigned() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }
}
