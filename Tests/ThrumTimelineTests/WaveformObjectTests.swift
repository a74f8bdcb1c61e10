import Foundation
import Testing

@testable import ThrumTimeline

/// Waveform objects (Protocol/WAVEFORM.md) against the vectors of Protocol/vectors/waveform,
/// which the reference firmware's `thr_wf_validate` is checked against too.
@Suite("Waveform objects")
struct WaveformObjectTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var result: String
        var bytes: [UInt8]
        var decoded: WaveformObject?
        var error: String?
        var offset: Int?
        var testDescription: String { id }
    }

    static func load(_ name: String) -> [Case] {
        let url = Fixtures.packageRoot.appendingPathComponent("Protocol/vectors/waveform").appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url),
            let table = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            table["format"] as? String == "thrum-waveform",
            let cases = table["cases"] as? [[String: Any]]
        else { return [] }
        return cases.map { entry in
            var decoded: WaveformObject?
            if let json = entry["decoded"] as? [String: Any], let resource = json["resource"] as? Int,
                let rate = json["rate"] as? Int, let samples = json["samples"] as? [Int]
            {
                decoded = WaveformObject(
                    resourceID: UInt32(resource), sampleRate: UInt32(rate), samples: samples.map { Int8($0) })
            }
            return Case(
                id: entry["id"] as? String ?? "?", result: entry["result"] as? String ?? "?",
                bytes: VectorTable.bytes(fromHex: entry["bytes"] as? String ?? ""), decoded: decoded,
                error: entry["error"] as? String, offset: entry["offset"] as? Int)
        }
    }

    static let valid = load("valid.json")
    static let invalid = load("invalid.json")

    @Test("the tables are present and cover every rule of the layout")
    func tablesLoad() {
        #expect(Self.valid.count >= 4 && Self.valid.allSatisfy { $0.result == "valid" && $0.decoded != nil })
        #expect(Self.invalid.count >= 10 && Self.invalid.allSatisfy { $0.result == "invalid" })
        let ids = (Self.valid + Self.invalid).map(\.id) + VectorTests.valid.map(\.id) + VectorTests.invalid.map(\.id)
        #expect(Set(ids).count == ids.count, "case ids are unique, also against the timeline vectors")
        let reasons: Set<String> = ["truncated", "bad-magic", "bad-version", "bad-flags", "value-out-of-range"]
        #expect(Set(Self.invalid.compactMap(\.error)) == reasons)
    }

    @Test("each valid case decodes to its fields and encodes back to its exact bytes", arguments: valid)
    func decodesValid(_ vector: Case) throws {
        let object = try WaveformObject.decode(vector.bytes)
        #expect(object == vector.decoded, "\(vector.id)")
        #expect(object.encoded() == vector.bytes, "\(vector.id)")
    }

    @Test("each invalid case fails with exactly its reason and offset", arguments: invalid)
    func rejectsInvalid(_ vector: Case) {
        do {
            let object = try WaveformObject.decode(vector.bytes)
            Issue.record("\(vector.id): accepted, \(object.samples.count) samples")
        } catch {
            #expect(error.reason.rawValue == vector.error, "\(vector.id): \(error)")
            #expect(error.offset == vector.offset, "\(vector.id): \(error)")
        }
    }

    @Test(
        "every prefix of a valid object short of one sample is truncated at its own length; longer ones are valid",
        arguments: valid)
    func prefixesTruncated(_ vector: Case) throws {
        for length in WaveformObject.headerSize + 1..<vector.bytes.count {
            #expect(
                try WaveformObject.decode(vector.bytes.prefix(length)).samples
                    == vector.decoded?.samples.prefix(length - 12).map { $0 })
        }
        for length in 0...WaveformObject.headerSize {
            do {
                let object = try WaveformObject.decode(vector.bytes.prefix(length))
                Issue.record("\(vector.id) prefix \(length): accepted, \(object.samples.count) samples")
            } catch {
                #expect(error.reason == .truncated && error.offset == length, "\(vector.id) prefix \(length): \(error)")
            }
        }
    }

    @Test("encoding then decoding gives the object back, header fields little-endian")
    func roundTrip() throws {
        let object = WaveformObject(resourceID: 0x0102_0304, sampleRate: 44_100, samples: (-128...127).map { Int8($0) })
        let bytes = object.encoded()
        #expect(bytes.count == 12 + 256)
        #expect(Array(bytes.prefix(12)) == [0x57, 0x46, 1, 0, 0x04, 0x03, 0x02, 0x01, 0x44, 0xAC, 0x00, 0x00])
        #expect(bytes[12] == 0x80 && bytes.last == 0x7F)
        #expect(try WaveformObject.decode(bytes) == object)
        // Any collection of bytes decodes, not only arrays starting at index 0.
        let slice = ([0xEE] + bytes)[1...]
        #expect(try WaveformObject.decode(slice) == object)
    }

    @Test(
        "objects the decoder refuses still encode, so the refusal is the reader's",
        arguments: [
            (
                WaveformObject(resourceID: 0, sampleRate: 8000, samples: [1]),
                TimelineDecodeError.Reason.valueOutOfRange, 4
            ),
            (WaveformObject(resourceID: 1, sampleRate: 0, samples: [1]), .valueOutOfRange, 8),
            (WaveformObject(resourceID: 1, sampleRate: 8000, samples: []), .truncated, 12),
        ])
    func refusedObjects(_ object: WaveformObject, _ reason: TimelineDecodeError.Reason, _ offset: Int) {
        do {
            _ = try WaveformObject.decode(object.encoded())
            Issue.record("\(object) accepted")
        } catch {
            #expect(error.reason == reason && error.offset == offset, "\(error)")
        }
    }

    static let quantised: [(Float, Int8)] = [
        (0, 0), (1, 127), (-1, -128), (0.5, 64), (-0.5, -64),
        (127.0 / 128, 127), (-127.0 / 128, -127), (2, 127), (-2, -128),
        (.infinity, 127), (-.infinity, -128), (.nan, 0), (-0.0, 0),
        (0.5 / 128, 1), (-0.5 / 128, -1), (0.49 / 128, 0), (1.5 / 128, 2), (126.5 / 128, 127), (-127.5 / 128, -128),
        (.leastNonzeroMagnitude, 0), (.greatestFiniteMagnitude, 127),
    ]

    @Test("quantise is round(v × 128), halves away from zero, clamped to −128…127", arguments: quantised)
    func quantise(_ value: Float, _ expected: Int8) {
        #expect(WaveformObject.quantise(value) == expected, "\(value)")
    }
}
