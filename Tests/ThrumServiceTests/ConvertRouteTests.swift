import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import ThrumService

/// `POST /api/convert` (Protocol/SERVICE.md §10, §9 rules 5 and 6): a sound in, an AHAP pattern,
/// the analysis and the waveform out; bad sounds and oversized ones refused, naming them.
@Suite(.timeLimit(.minutes(5))) struct ConvertRouteTests {
    /// A mono 16-bit PCM WAV at 44.1 kHz: a decaying 150 Hz thump at each of `hits` (seconds).
    static func thumps(at hits: [Double], seconds: Double) -> ByteBuffer {
        let rate = 44_100
        let samples = (0..<Int(seconds * Double(rate))).map { n -> Int16 in
            let t = Double(n) / Double(rate)
            let value = hits.reduce(0.0) { sum, hit in
                let since = t - hit
                return since >= 0 && since < 0.15 ? sum + 0.8 * exp(-since * 30) * sin(2 * .pi * 150 * since) : sum
            }
            return Int16((max(-1, min(1, value)) * 32_767).rounded())
        }
        var wav = ByteBuffer()
        let dataBytes = samples.count * 2
        wav.writeString("RIFF")
        wav.writeInteger(UInt32(36 + dataBytes), endianness: .little)
        wav.writeString("WAVEfmt ")
        wav.writeInteger(UInt32(16), endianness: .little)
        wav.writeInteger(UInt16(1), endianness: .little)  // PCM
        wav.writeInteger(UInt16(1), endianness: .little)  // mono
        wav.writeInteger(UInt32(rate), endianness: .little)
        wav.writeInteger(UInt32(rate * 2), endianness: .little)
        wav.writeInteger(UInt16(2), endianness: .little)
        wav.writeInteger(UInt16(16), endianness: .little)
        wav.writeString("data")
        wav.writeInteger(UInt32(dataBytes), endianness: .little)
        for sample in samples { wav.writeInteger(sample, endianness: .little) }
        return wav
    }

    @Test func aSoundBecomesAPatternWithItsWaveform() async throws {
        try await ServiceHarness().run { client, _ in
            let response = try await client.execute(
                uri: "/api/convert?name=drums.wav", method: .post, body: Self.thumps(at: [0.25, 0.75], seconds: 1.2))
            #expect(response.status == .ok)
            let answer = HTTPTests.json(response.body)
            #expect(answer["name"] == "drums.ahap")
            #expect(answer["summary"]?.stringValue?.contains("drums.wav") == true)
            let onsets = answer["report"]?["onsets"]?.arrayValue?.compactMap { $0["time"]?.doubleValue } ?? []
            #expect(onsets.count == 2 && zip(onsets, [0.25, 0.75]).allSatisfy { abs($0 - $1) <= 0.01 }, "\(onsets)")
            let waveform = answer["waveform"]
            let maxima = waveform?["max"]?.arrayValue?.compactMap(\.doubleValue) ?? []
            #expect(!maxima.isEmpty && maxima.count == waveform?["min"]?.arrayValue?.count)
            #expect(abs((waveform?["duration"]?.doubleValue ?? 0) - 1.2) < 0.05)
            #expect((maxima.max() ?? 0) > 0.5)

            // The AHAP is one the service reads back as valid.
            let ahap = answer["ahap"]?.stringValue ?? ""
            let valid = try await client.execute(uri: "/api/validate", method: .post, body: ByteBuffer(string: ahap))
            #expect(HTTPTests.json(valid.body)["valid"] == true)
        }
    }

    @Test func whatIsNotASoundIsRefusedNamingTheFile() async throws {
        try await ServiceHarness().run { client, _ in
            for (name, body) in [
                ("notes.wav", ByteBuffer(string: "these are not samples")),
                ("cut.wav", ByteBuffer(buffer: Self.thumps(at: [0.1], seconds: 0.5).getSlice(at: 0, length: 30)!)),
                ("empty.wav", ByteBuffer()),
            ] {
                let response = try await client.execute(uri: "/api/convert?name=\(name)", method: .post, body: body)
                #expect(response.status == .unprocessableContent, "\(name)")
                let error = HTTPTests.json(response.body)["error"]
                #expect(error?["code"] == "bad_audio")
                #expect(error?["message"]?.stringValue?.contains(name) == true, "\(error?["message"] ?? .null)")
            }
        }
    }

    @Test func aSoundPastTheLimitIsRefusedAndANameCannotClimbOut() async throws {
        var limits = ServiceLimits()
        limits.maxAudioBytes = 4096
        try await ServiceHarness(configuration: ServiceConfiguration(port: 0, limits: limits)).run { client, _ in
            let large = try await client.execute(
                uri: "/api/convert?name=long.wav", method: .post, body: Self.thumps(at: [0.1], seconds: 0.5))
            #expect(large.status == .contentTooLarge)
            #expect(HTTPTests.json(large.body)["error"]?["code"] == "too_large")
            #expect(HTTPTests.json(large.body)["error"]?["message"]?.stringValue?.contains("4096 bytes") == true)
            // A name too long for a file system is shortened, not an I/O failure: the sound is still judged.
            let long = try await client.execute(
                uri: "/api/convert?name=\(String(repeating: "a", count: 300)).wav", method: .post,
                body: ByteBuffer(string: "x"))
            #expect(long.status == .unprocessableContent)
            // A name with folders in it is only ever its last component, inside the service's own folder.
            let climbing = try await client.execute(
                uri: "/api/convert?name=..%2F..%2Fescape.wav", method: .post, body: ByteBuffer(string: "x"))
            #expect(climbing.status == .unprocessableContent)
            #expect(HTTPTests.json(climbing.body)["error"]?["message"]?.stringValue?.hasPrefix("escape.wav") == true)
        }
    }
}
