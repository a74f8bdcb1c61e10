import Foundation
import Testing
import ThrumModel

@testable import ThrumTimeline

/// The golden vectors of Protocol/vectors/timeline: the compiler must produce the exact bytes of
/// every valid case, the decoder must accept them, and reject every invalid case with its reason
/// and offset.
@Suite("Golden vectors")
struct VectorTests {
    static let valid = VectorTable.load("valid.json")
    static let invalid = VectorTable.load("invalid.json")

    @Test("the tables are present and well-formed")
    func tablesLoad() {
        #expect(Self.valid.count >= 10)
        #expect(Self.invalid.count >= 40)
        #expect(Self.valid.allSatisfy { $0.result == "valid" })
        #expect(Self.invalid.allSatisfy { $0.result == "invalid" })
        // Case ids are unique across both tables (firmware tests name them).
        let ids = (Self.valid + Self.invalid).map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test("compiling each valid input gives exactly its bytes", arguments: valid)
    func compilesToExactBytes(_ vector: Vector) throws {
        let pattern = try #require(vector.pattern, "\(vector.id): input does not parse")
        let bytes = try TimelineCompiler.compile(pattern, options: vector.options)
        #expect(hexString(bytes) == vector.hex, "\(vector.id)")
    }

    @Test("decoding each valid case succeeds with the stated duration and record count", arguments: valid)
    func decodesValid(_ vector: Vector) throws {
        let timeline = try TimelineDecoder.decode(vector.bytes)
        #expect(Int(timeline.duration) == vector.durationTicks, "\(vector.id)")
        #expect(timeline.records.count == vector.recordCount, "\(vector.id)")
        #expect(timeline.byteCount == vector.bytes.count)
    }

    @Test("decoding each invalid case fails with its reason and offset", arguments: invalid)
    func rejectsInvalid(_ vector: Vector) {
        do {
            let timeline = try TimelineDecoder.decode(vector.bytes)
            Issue.record("\(vector.id): accepted, \(timeline.records.count) records")
        } catch {
            #expect(error.reason.rawValue == vector.error, "\(vector.id): \(error)")
            #expect(error.offset == vector.offset, "\(vector.id): \(error)")
        }
    }

    @Test("every reason code the decoder can give is exercised by some invalid vector")
    func everyReasonCovered() {
        let covered = Set(Self.invalid.compactMap(\.error))
        for reason in TimelineDecodeError.Reason.allCases {
            #expect(covered.contains(reason.rawValue), "no vector for \(reason.rawValue)")
        }
    }
}

struct Vector: Sendable, CustomTestStringConvertible {
    var id: String
    var result: String
    var hex: String
    var bytes: [UInt8]
    var pattern: HapticPattern?
    var options: CompileOptions
    var durationTicks: Int?
    var recordCount: Int?
    var error: String?
    var offset: Int?

    var testDescription: String { id }
}

enum VectorTable {
    static func load(_ name: String) -> [Vector] {
        let url = Fixtures.vectorsFolder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url),
            let table = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = table["cases"] as? [[String: Any]]
        else { return [] }
        return cases.map { entry in
            let hex = entry["bytes"] as? String ?? ""
            let decoded = entry["decoded"] as? [String: Any]
            return Vector(
                id: entry["id"] as? String ?? "?", result: entry["result"] as? String ?? "?", hex: hex,
                bytes: bytes(fromHex: hex), pattern: (entry["input"] as? [String: Any]).flatMap(pattern),
                options: options(entry["options"] as? [String: Any]),
                durationTicks: decoded?["duration_ticks"] as? Int, recordCount: decoded?["records"] as? Int,
                error: entry["error"] as? String, offset: entry["offset"] as? Int)
        }
    }

    static func bytes(fromHex hex: String) -> [UInt8] {
        hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
    }

    static func options(_ json: [String: Any]?) -> CompileOptions {
        var options = CompileOptions()
        switch json?["keyframes"] as? String {
        case "always": options.keyframes = .always
        case "never": options.keyframes = .never
        default: break
        }
        if let interval = json?["keyframeInterval"] as? Double { options.keyframeInterval = interval }
        return options
    }

    /// The vectors' own small pattern notation (see the table's description).
    static func pattern(_ json: [String: Any]) -> HapticPattern? {
        var pattern = HapticPattern()
        for event in json["events"] as? [[String: Any]] ?? [] {
            guard let type = (event["type"] as? String).flatMap(HapticEventType.init(rawValue:)),
                let time = event["time"] as? Double
            else { return nil }
            var parameters: [EventParameter] = []
            for (name, value) in (event["parameters"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let id = EventParameterID(rawValue: name), let value = value as? Double else { return nil }
                parameters.append(EventParameter(id, Float(value)))
            }
            var waveform: AudioWaveform?
            if let json = event["waveform"] as? [String: Any] {
                waveform = AudioWaveform(
                    path: json["path"] as? String, resourceID: json["resourceID"] as? Int,
                    useVolumeEnvelope: json["useVolumeEnvelope"] as? Bool ?? true,
                    loopEnabled: json["loopEnabled"] as? Bool ?? false)
            }
            pattern.events.append(
                HapticEvent(
                    type, time: time, duration: event["duration"] as? Double ?? 0, parameters: parameters,
                    waveform: waveform))
        }
        for parameter in json["parameters"] as? [[String: Any]] ?? [] {
            guard let id = (parameter["id"] as? String).flatMap(DynamicParameterID.init(rawValue:)),
                let time = parameter["time"] as? Double, let value = parameter["value"] as? Double
            else { return nil }
            pattern.parameters.append(DynamicParameter(id, value: Float(value), time: time))
        }
        for curve in json["curves"] as? [[String: Any]] ?? [] {
            guard let id = (curve["id"] as? String).flatMap(DynamicParameterID.init(rawValue:)),
                let time = curve["time"] as? Double, let points = curve["points"] as? [[Double]]
            else { return nil }
            pattern.parameterCurves.append(
                ParameterCurve(
                    id, time: time,
                    controlPoints: points.map {
                        ControlPoint(time: $0[0], value: Float($0[1]))
                    }))
        }
        return pattern
    }
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { hex($0) }.joined(separator: " ")
}

@Suite("Truncation")
struct TruncationTests {
    @Test(
        "every proper prefix of a valid timeline is rejected, as truncated or by its checksum",
        arguments: VectorTests.valid)
    func prefixesRejected(_ vector: Vector) {
        for length in 0..<vector.bytes.count {
            do {
                _ = try TimelineDecoder.decode(vector.bytes.prefix(length))
                Issue.record("\(vector.id): prefix of \(length) bytes accepted")
            } catch {
                #expect([.truncated, .badChecksum].contains(error.reason), "\(vector.id) prefix \(length): \(error)")
            }
        }
    }

    /// With the checksum recomputed a prefix can only be accepted when it ends on a record
    /// boundary and the dropped records did not set the duration: then it decodes to exactly the
    /// leading records (the checksum is what catches such a cut in practice).
    @Test("prefixes with a recomputed checksum are rejected or decode to leading records", arguments: VectorTests.valid)
    func prefixesWithChecksum(_ vector: Vector) throws {
        let full = try TimelineDecoder.decode(vector.bytes)
        for length in 0..<vector.bytes.count {
            var bytes = Array(vector.bytes.prefix(length))
            Generators.fixChecksum(&bytes)
            guard let partial = try? TimelineDecoder.decode(bytes) else { continue }
            #expect(
                partial.records == Array(full.records.prefix(partial.records.count)), "\(vector.id) prefix \(length)")
            #expect(partial.records.count < full.records.count)
        }
    }
}
