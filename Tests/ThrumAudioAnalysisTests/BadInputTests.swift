import Foundation
import Testing
import ThrumAudioAnalysis

/// Bad input: a clear error naming the file and the problem, never a crash.
struct BadInputTests {
    static func error(converting url: URL) -> AudioConversionError? {
        do {
            _ = try AudioToHaptics.convert(contentsOf: url)
            return nil
        } catch {
            return error
        }
    }

    static func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = SoundFixtures.folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A RIFF/WAVE header: `formatTag` 1 is PCM; `dataBytes` is what the data chunk claims.
    static func wavHeader(formatTag: UInt16, dataBytes: UInt32) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        return Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8) + le32(16) + le16(formatTag)
            + le16(1) + le32(44_100) + le32(88_200) + le16(2) + le16(16) + Array("data".utf8) + le32(dataBytes)
    }

    @Test func notAudio() throws {
        let url = try Self.write("notes.wav", Array("These are not samples, just words.\n".utf8))
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .notAudio)
        #expect(error.description.hasPrefix("notes.wav: not a sound"), "\(error)")
    }

    @Test func missingFileAndFolder() throws {
        let missing = try #require(Self.error(converting: SoundFixtures.folder.appendingPathComponent("absent.wav")))
        #expect(missing.description == "absent.wav: no such file")
        let folder = try #require(Self.error(converting: SoundFixtures.folder))
        #expect(folder.kind == .unreadable)
    }

    @Test func truncatedWAV() throws {
        let full = try SoundFixtures.writeMono(
            "whole.wav", rate: 44_100, Signals.tone(frequency: 200, amplitude: 0.5, seconds: 1, rate: 44_100))
        let bytes = try Data(contentsOf: full)
        let url = try Self.write("truncated.wav", Array(bytes.prefix(bytes.count / 2)))
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .truncated, "\(error)")
        #expect(error.description.hasPrefix("truncated.wav: the file is truncated"), "\(error)")
    }

    @Test func truncatedFLAC() throws {
        let full = try SoundFixtures.writeMono(
            "whole.flac", rate: 44_100,
            Signals.noise(seconds: 1, rate: 44_100, amplitude: 0.5, seed: 4), encoding: .flac)
        let bytes = try Data(contentsOf: full)
        let url = try Self.write("truncated.flac", Array(bytes.prefix(bytes.count / 2)))
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .truncated, "\(error)")
        #expect(error.description.hasPrefix("truncated.flac: "), "\(error)")
    }

    @Test func unsupportedCodec() throws {
        // A WAV whose format tag (0x7777) names no codec libsndfile decodes.
        let url = try Self.write(
            "strange-codec.wav", Self.wavHeader(formatTag: 0x7777, dataBytes: 400) + [UInt8](repeating: 1, count: 400))
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .unsupportedCodec, "\(error)")
        #expect(
            error.description.hasPrefix(
                "strange-codec.wav: a WAV file in codec 0x7777, which libsndfile does not decode"),
            "\(error)")
    }

    @Test func zeroSamples() throws {
        let url = try Self.write("empty.wav", Self.wavHeader(formatTag: 1, dataBytes: 0))
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .empty, "\(error)")
        #expect(error.description == "empty.wav: the file holds no samples")
    }

    @Test func notANumberInAFloatWAV() throws {
        var samples = Signals.tone(frequency: 200, amplitude: 0.5, seconds: 1, rate: 44_100)
        samples[22_050] = .nan
        let url = try SoundFixtures.write("nan.wav", rate: 44_100, channels: [samples, samples], encoding: .wavFloat)
        let error = try #require(Self.error(converting: url))
        #expect(error.kind == .nonFiniteSample)
        #expect(
            error.description == "nan.wav: sample 22050 of channel 1 (at 0.500 s) is NaN, not a number a sound can hold"
        )
    }

    @Test func aBandAboveTheSoundsNyquistFrequency() throws {
        let url = try SoundFixtures.writeMono(
            "low-rate.wav", rate: 8000, Signals.tone(frequency: 440, amplitude: 0.5, seconds: 0.5, rate: 8000))
        do {
            _ = try AudioToHaptics.convert(contentsOf: url, options: AudioConversionOptions(band: 6000...8000))
            Issue.record("converted a band the sound cannot hold")
        } catch {
            #expect(error.kind == .invalidOptions)
            #expect(
                error.description
                    == "low-rate.wav: the band starts at 6000.0 Hz, but a sound at 8000 Hz holds nothing above 4000 Hz")
        }
    }

    @Test func optionsOutOfRange() throws {
        let url = try SoundFixtures.writeMono("fine.wav", rate: 8000, Signals.silence(seconds: 0.1, rate: 8000))
        // One case per rule, each refused as invalid options naming what is wrong (the file itself is fine).
        for (options, named) in [
            (AudioConversionOptions(band: 10...20_000), "band"), (AudioConversionOptions(band: 100...150), "band"),
            (AudioConversionOptions(band: -.infinity...200), "band"), (AudioConversionOptions(gain: 0), "gain"),
            (AudioConversionOptions(intensityTolerance: 1.5), "intensity tolerance"),
            (AudioConversionOptions(sharpnessTolerance: -0.1), "sharpness tolerance"),
            (AudioConversionOptions(transientSensitivity: 2), "transient sensitivity"),
            (AudioConversionOptions(noiseFloor: 3), "noise floor"),
            (AudioConversionOptions(waveformColumns: 8), "columns"),
        ] {
            let error = #expect(throws: AudioConversionError.self) {
                try AudioToHaptics.convert(contentsOf: url, options: options)
            }
            #expect(error?.kind == .invalidOptions, "\(named)")
            #expect(error?.problem.contains(named) == true, "\(error?.problem ?? "")")
        }
        #expect(throws: Never.self) { try AudioToHaptics.convert(contentsOf: url) }
    }
}
