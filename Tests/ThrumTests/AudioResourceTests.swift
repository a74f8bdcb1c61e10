import Foundation
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// Registered audio files: their length sets how long an `AudioCustom` event sounds on a board's
/// audio lane (SEMANTICS.md §6.2).
@Suite("Audio resources")
struct AudioResourceTests {
    /// A 16-bit mono WAV file of `seconds` of silence at 8 kHz, with an extra chunk before the data.
    static func wav(seconds: Double, rate: Int = 8000) -> [UInt8] {
        wav(rate: rate, data: [UInt8](repeating: 0, count: Int(seconds * Double(rate)) * 2))
    }

    /// A WAV file whose fmt chunk states `tag`, `channels`, `rate` and `bits`, with `data` as its
    /// sample data and an odd-length chunk between the two. `extensible` writes the 40-byte
    /// WAVE_FORMAT_EXTENSIBLE form, with `tag` as the start of its subformat GUID.
    static func wav(
        tag: Int = 1, channels: Int = 1, rate: Int = 8000, bits: Int = 16, extensible: Bool = false, data: [UInt8]
    ) -> [UInt8] {
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func u16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let block = channels * bits / 8
        var fmt =
            u16(extensible ? 0xFFFE : tag) + u16(channels) + u32(rate) + u32(rate * block) + u16(block) + u16(bits)
        if extensible {
            // cbSize 22, valid bits, channel mask, then the subformat GUID: tag, 00 00 00 00 10 00 80 00 00 AA 00 38 9B 71.
            fmt +=
                u16(22) + u16(bits) + u32(0) + u16(tag) + [0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]
        }
        let list = Array("INFOabc".utf8)  // odd length: padded to even
        let body =
            Array("WAVE".utf8) + Array("fmt ".utf8) + u32(fmt.count) + fmt
            + Array("LIST".utf8) + u32(list.count) + list + [0]
            + Array("data".utf8) + u32(data.count) + data
        return Array("RIFF".utf8) + u32(body.count) + body
    }

    static func file(_ bytes: [UInt8], named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a WAV file's length comes from its fmt and data chunks, past other chunks")
    func wavLength() throws {
        let info = try WAVInfo.read(Self.wav(seconds: 0.25))
        #expect(info.sampleRate == 8000 && info.channels == 1 && info.bitsPerSample == 16)
        #expect(abs(info.seconds - 0.25) < 1e-9)
    }

    @Test("a resource's registration options become the flags of the events that play it")
    func registrationOptions() throws {
        let url = try Self.file(Self.wav(seconds: 0.1), named: "loop.wav")
        var resources = AudioResources()
        let looping = try resources.register(url, useVolumeEnvelope: false, loopEnabled: true)
        let plain = try resources.register(url)
        let pattern = HapticPattern(
            events: [looping, plain].map {
                HapticEvent(.audioCustom, time: 0, duration: 0, parameters: [], waveform: AudioWaveform(resourceID: $0))
            })
        let flags = try resources.resolve(pattern).events.map {
            ($0.waveform!.useVolumeEnvelope, $0.waveform!.loopEnabled)
        }
        #expect(flags.map { [$0.0, $0.1] } == [[false, true], [true, false]])
    }

    @Test("a file that is not a WAV file is refused, saying what and where")
    func malformed() throws {
        #expect(throws: WAVInfo.Problem(offset: 0, detail: "not a RIFF file")) {
            try WAVInfo.read(Array("OggS0000WAVE".utf8))
        }
        #expect(throws: WAVInfo.Problem(offset: 4, detail: "too short for a RIFF header (4 bytes)")) {
            try WAVInfo.read(Array("RIFF".utf8))
        }
        let noData = Array(Self.wav(seconds: 0.1).prefix(36))
        #expect(throws: WAVInfo.Problem(offset: 36, detail: "no data chunk")) { try WAVInfo.read(noData) }
    }

    @Test("an AudioCustom event without a duration sounds for its registered file's length on the board's audio lane")
    func registeredLengthPlays() async throws {
        let (engine, tap, clock) = try tappedBoard()
        try await withVirtualTime(clock) { try await engine.start() }
        let id = try await engine.registerAudioResource(try Self.file(Self.wav(seconds: 0.25), named: "chime.wav"))
        var event = HapticEvent(.audioCustom, time: 0, duration: 0, parameters: [EventParameter(.audioVolume, 0.5)])
        event.waveform = AudioWaveform(resourceID: id)
        let player = try await engine.makePlayer(with: HapticPattern(events: [event]))
        let startedAt = clock.now.offset.secondsDouble
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await advance(clock, by: .milliseconds(400))
        let sounding = tap.ticks.filter { $0.seconds >= startedAt && $0.audio > 0 }
        #expect((245...255).contains(sounding.count), "\(sounding.count) ticks of audio")
        #expect(sounding.allSatisfy { abs($0.audio - 0.5) < 0.01 })

        try await engine.unregisterAudioResource(id)
        await #expect(
            throws: HapticEngineError.audioResource(
                "events[0] plays audio resource \(id), which is not registered (registerAudioResource)")
        ) {
            _ = try await engine.makePlayer(with: HapticPattern(events: [event]))
        }
        await #expect(throws: HapticEngineError.audioResource("audio resource \(id) is not registered")) {
            try await engine.unregisterAudioResource(id)
        }
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a .wav file that is not one is refused at registration, naming the file")
    func badFileIsRefused() async throws {
        let engine = HapticEngine(manualClock: ManualClock())
        let url = try Self.file(Array("not audio, just text".utf8), named: "broken.wav")
        await #expect(
            throws: HapticEngineError.audioResource(
                "\(url.path): not a WAV file Thrum can read: not a RIFF file at byte 0")
        ) {
            _ = try await engine.registerAudioResource(url)
        }
    }
}
