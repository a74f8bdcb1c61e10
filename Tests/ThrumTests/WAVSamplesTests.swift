import Testing
import ThrumTimeline

@testable import Thrum

/// WAV sample data → one channel in −1…1 → a waveform object at a board's rate
/// (Protocol/WAVEFORM.md §2). Files come from `AudioResourceTests.wav`, whose layout puts the
/// fmt chunk's body at byte 20 and, for the 16-byte fmt chunk, the sample data at byte 60.
@Suite("WAV samples")
struct WAVSamplesTests {
    static func le(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func le(_ values: [Int], _ width: Int) -> [UInt8] { values.flatMap { le($0, width) } }
    static func float32(_ values: [Float]) -> [UInt8] { values.flatMap { le(Int($0.bitPattern), 4) } }

    @Test("8-bit PCM is unsigned, 128 the middle")
    func pcm8() throws {
        let decoded = try WAVSamples(AudioResourceTests.wav(bits: 8, data: [0, 64, 128, 192, 255]))
        #expect(decoded.sampleRate == 8000)
        #expect(decoded.samples == [-1, -0.5, 0, 0.5, 127.0 / 128] as [Float])
    }

    @Test("16-bit PCM is signed little-endian, full scale 32768")
    func pcm16() throws {
        let decoded = try WAVSamples(
            AudioResourceTests.wav(rate: 16000, data: Self.le([-32768, -16384, 0, 1, 16384, 32767], 2)))
        #expect(decoded.sampleRate == 16000)
        #expect(decoded.samples == [-1, -0.5, 0, 1.0 / 32768, 0.5, 32767.0 / 32768] as [Float])
    }

    @Test("24-bit PCM is sign-extended from its third byte")
    func pcm24() throws {
        let decoded = try WAVSamples(
            AudioResourceTests.wav(bits: 24, data: Self.le([-8_388_608, -4_194_304, -1, 0, 1, 8_388_607], 3)))
        #expect(
            decoded.samples == [-1, -0.5, -1.0 / 8_388_608, 0, 1.0 / 8_388_608, 8_388_607.0 / 8_388_608] as [Float])
    }

    @Test("32-bit PCM keeps its small values")
    func pcm32() throws {
        let decoded = try WAVSamples(
            AudioResourceTests.wav(
                bits: 32, data: Self.le([Int(Int32.min), -(1 << 30), 0, 1, 1 << 30, Int(Int32.max)], 4)))
        #expect(
            decoded.samples == [-1, -0.5, 0, Float(1.0 / 2_147_483_648), 0.5, Float(2_147_483_647.0 / 2_147_483_648)]
                as [Float])
    }

    @Test("32-bit float is taken as it is, clamped to −1…1, NaN as silence")
    func float32() throws {
        let values: [Float] = [-1, -0.25, 0, 0.1, 0.75, 1.5, -3, .nan, .infinity]
        let decoded = try WAVSamples(AudioResourceTests.wav(tag: 3, bits: 32, data: Self.float32(values)))
        #expect(decoded.samples == [-1, -0.25, 0, 0.1, 0.75, 1, -1, 0, 1])
    }

    @Test("WAVE_FORMAT_EXTENSIBLE decodes as the format its subformat names", arguments: [(1, 16), (1, 24), (3, 32)])
    func extensible(_ subformat: Int, _ bits: Int) throws {
        let values: [Float] = [-0.5, 0.25, 0.5, 0.75]
        let data =
            subformat == 3 ? Self.float32(values) : Self.le(values.map { Int($0 * Float(1 << (bits - 1))) }, bits / 8)
        let file = AudioResourceTests.wav(tag: subformat, channels: 2, bits: bits, extensible: true, data: data)
        let info = try WAVInfo.read(file)
        #expect(info.formatTag == subformat && info.formatTagOffset == 44 && info.dataOffset == 84)
        let decoded = try WAVSamples(file)
        #expect(decoded.samples == [-0.125, 0.625])
    }

    @Test("channels are averaged to one")
    func channelsAveraged() throws {
        let frames = [16384, -16384, 32767, 32767, 0, 16384, -32768, -32768]
        let decoded = try WAVSamples(AudioResourceTests.wav(channels: 2, data: Self.le(frames, 2)))
        #expect(decoded.samples == [0, 32767.0 / 32768, 0.25, -1] as [Float])
        let three = try WAVSamples(AudioResourceTests.wav(channels: 3, bits: 8, data: [0, 128, 224, 255, 255, 255]))
        #expect(
            three.samples.count == 2 && abs(three.samples[0] - (-1 + 0 + 0.75) / 3) < 1e-7
                && three.samples[1] == 127.0 / 128)
    }

    @Test(
        "formats §2 does not list are refused, naming the tag and bits where the tag is",
        arguments: [
            (2, 4, false, 20, "format tag 2 with 4-bit samples"),  // IMA ADPCM
            (6, 8, false, 20, "format tag 6 with 8-bit samples"),  // A-law
            (1, 12, false, 20, "format tag 1 with 12-bit samples"),
            (3, 64, false, 20, "format tag 3 with 64-bit samples"),
            (2, 16, true, 44, "format tag 2 with 16-bit samples"),  // extensible: the tag is in the subformat GUID
        ])
    func unsupported(_ tag: Int, _ bits: Int, _ extensible: Bool, _ offset: Int, _ naming: String) {
        let bytes = AudioResourceTests.wav(
            tag: tag, bits: bits, extensible: extensible, data: [UInt8](repeating: 0x11, count: 64))
        do {
            let decoded = try WAVSamples(bytes)
            Issue.record("decoded \(decoded.samples.count) samples")
        } catch {
            #expect(error.offset == offset)
            #expect(error.detail.hasPrefix(naming), "\(error)")
        }
    }

    @Test("a data chunk cut short keeps its whole frames; one without a frame has no samples")
    func truncatedData() throws {
        let whole = AudioResourceTests.wav(data: Self.le([1000, -2000, 3000, -4000], 2))
        let cut = try WAVSamples(Array(whole.dropLast(3)))  // 5 of 8 data bytes: two whole frames
        #expect(cut.samples == [1000.0 / 32768, -2000.0 / 32768])
        #expect(throws: WAVInfo.Problem(offset: 60, detail: "no samples")) {
            try WAVSamples(AudioResourceTests.wav(data: []))
        }
        #expect(throws: WAVInfo.Problem(offset: 60, detail: "no samples")) {
            try WAVSamples(AudioResourceTests.wav(data: [7]))
        }
        #expect(throws: WAVInfo.Problem(offset: 0, detail: "not a RIFF file")) {
            try WAVSamples(Array("OggS0000WAVE".utf8))
        }
    }

    @Test("16 kHz to 8 kHz takes every other sample, floor(n × 8000 / 16000) of them")
    func halfRate() {
        let source: [Float] = [0, 0.1, 0.2, -0.3, 0.4, 0.5, -0.6]
        #expect(WAVSamples.resample(source, from: 16000, to: 8000) == [0, 0.2, 0.4])
        #expect(WAVSamples.resample(Array(source.prefix(6)), from: 16000, to: 8000) == [0, 0.2, 0.4])
    }

    @Test("the same rate leaves the samples as they are")
    func sameRate() {
        let source: [Float] = [0.3, -0.7, 1, -1, 0.001]
        #expect(WAVSamples.resample(source, from: 8000, to: 8000) == source)
    }

    @Test("11025 Hz to 8000 Hz interpolates between the two source samples around k × 11025 / 8000")
    func interpolated() {
        let source: [Float] = [0, 0.5, -0.5, 1, 0, -1, 0.25, 0.75, -0.25, 0.125, -0.75, 0.5]
        // floor(12 × 8000 / 11025) = 8 samples. Positions and values, worked by hand:
        // k=1: 1.378125 → 0.5 + (−0.5 − 0.5) × 0.378125 = 0.121875;  k=2: 2.75625 → −0.5 + 1.5 × 0.75625 = 0.634375
        // k=3: 4.134375 → 0 − 0.134375;  k=4: 5.5125 → −1 + 1.25 × 0.5125 = −0.359375
        // k=5: 6.890625 → 0.25 + 0.5 × 0.890625 = 0.6953125;  k=6: 8.26875 → −0.25 + 0.375 × 0.26875 = −0.14921875
        // k=7: 9.646875 → 0.125 − 0.875 × 0.646875 = −0.441015625
        let expected: [Float] = [0, 0.121875, 0.634375, -0.134375, -0.359375, 0.6953125, -0.14921875, -0.441015625]
        let resampled = WAVSamples.resample(source, from: 11025, to: 8000)
        #expect(resampled.count == expected.count)
        for (got, want) in zip(resampled, expected) { #expect(abs(got - want) < 1e-6, "\(got) ≠ \(want)") }
        let object = WAVSamples(sampleRate: 11025, samples: source).waveformObject(resourceID: 3, rate: 8000)
        #expect(
            object == WaveformObject(resourceID: 3, sampleRate: 8000, samples: [0, 16, 81, -17, -46, 89, -19, -56]))
    }

    @Test("upsampling holds the last sample past the end; any source gives at least one sample")
    func edges() {
        #expect(WAVSamples.resample([0, 1], from: 8000, to: 16000) == [0, 0.5, 1, 1])
        #expect(WAVSamples.resample([0.25, 1], from: 44100, to: 8000) == [0.25])
        #expect(WAVSamples.resample([], from: 44100, to: 8000) == [])
    }

    @Test("a WAV file becomes the waveform object a board at 8 kHz plays")
    func fileToObject() throws {
        let file = AudioResourceTests.wav(rate: 16000, data: Self.le([-32768, 0, 16384, 0, 8192, 0, 100, 0, 32767], 2))
        let object = try WAVSamples(file).waveformObject(resourceID: 9, rate: 8000)
        #expect(object == WaveformObject(resourceID: 9, sampleRate: 8000, samples: [-128, 64, 32, 0]))
        #expect(try WaveformObject.decode(object.encoded()) == object)
    }
}
