import Foundation
import ThrumTesting

@testable import ThrumWire

/// Loads Protocol/vectors/wire/*.json and turns the JSON into the Swift values they describe.
struct WireVector: Sendable, CustomStringConvertible {
    struct ExpectedFrame: Sendable, Equatable {
        var header: FrameHeader
        var message: WireMessage
    }

    var file: String
    var id: String
    var bytes: [UInt8]
    var valid: Bool
    var maxPayload: Int
    var frames: [ExpectedFrame]
    var reasons: [String]

    var description: String { "\(file):\(id)" }

    static let packageRoot = Repository.root
    static let files = ["messages.json", "frames.json", "payloads.json"]

    static func load(_ file: String) throws -> [WireVector] {
        let url = packageRoot.appendingPathComponent("Protocol/vectors/wire/\(file)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return try (document["cases"] as! [[String: Any]]).map { try WireVector(file: file, json: $0) }
    }

    static func all() throws -> [WireVector] { try files.flatMap(load) }

    init(file: String, json: [String: Any]) throws {
        self.file = file
        id = json["id"] as! String
        bytes = try hexBytes(json["hex"] as! String)
        valid = (json["result"] as! String) == "valid"
        maxPayload = json["max_payload"] as? Int ?? FrameLimits.absoluteMaxPayload
        reasons = json["reasons"] as! [String]
        frames = try (json["frames"] as! [[String: Any]]).map { frame in
            let typeName = frame["type"] as! String
            let type = MessageType.allCases.first { $0.name == typeName }!
            let header = FrameHeader(
                channel: Channel.allCases.first { $0.description == frame["channel"] as! String }!,
                nak: frame["nak"] as! Bool, epoch: UInt16(frame["epoch"] as! Int), seq: UInt8(frame["seq"] as! Int),
                ack: UInt8(frame["ack"] as! Int), window: UInt8(frame["window"] as! Int), type: type.rawValue)
            let fields = try jsonFields(type.spec.fields, frame["message"] as! [String: Any])
            let json = try JSONSerialization.data(withJSONObject: fields)
            return ExpectedFrame(
                header: header, message: try JSONDecoder().decode(VectorMessage.self, from: json, type: type))
        }
    }
}

struct VectorFormatError: Error { var what: String }

func hexBytes(_ hex: String) throws -> [UInt8] {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { throw VectorFormatError(what: "odd hex length") }
    return try stride(from: 0, to: digits.count, by: 2).map { index in
        guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
            throw VectorFormatError(what: "bad hex at \(index)")
        }
        return byte
    }
}

/// The vector's fields in the JSON form the typed messages decode (`WireMessage(_:from:)`): the
/// same names and numbers, `bytes` fields from hex text to arrays of numbers.
private func jsonFields(_ specs: [FieldSpec], _ json: [String: Any]) throws -> [String: Any] {
    var values = json
    for spec in specs {
        guard let raw = json[spec.name] else { throw VectorFormatError(what: "missing \(spec.name)") }
        switch spec.type {
        case .bytes: values[spec.name] = try hexBytes(raw as! String).map(Int.init)
        case .list(_, let item): values[spec.name] = try (raw as! [[String: Any]]).map { try jsonFields(item, $0) }
        default: continue
        }
    }
    return values
}

/// Decodes a message of a type known beforehand from its fields' JSON.
private struct VectorMessage: Decodable {
    static let typeKey = CodingUserInfoKey(rawValue: "type")!
    let message: WireMessage

    init(from decoder: any Decoder) throws {
        message = try WireMessage(decoder.userInfo[Self.typeKey] as! MessageType, from: decoder)
    }
}

extension JSONDecoder {
    fileprivate func decode(_: VectorMessage.Type, from data: Data, type: MessageType) throws -> WireMessage {
        userInfo[VectorMessage.typeKey] = type
        return try decode(VectorMessage.self, from: data).message
    }
}

/// What a receiver makes of a byte stream: the frames with their messages, and every rejection in order.
struct StreamOutcome: Equatable {
    var frames: [WireVector.ExpectedFrame] = []
    var reasons: [String] = []
}

func decodeStream(_ chunks: [ArraySlice<UInt8>], maxPayload: Int) -> StreamOutcome {
    var decoder = FrameDecoder(maxPayload: maxPayload)
    var outcome = StreamOutcome()
    for chunk in chunks {
        for output in decoder.feed(chunk) {
            switch output {
            case .rejected(let reason): outcome.reasons.append(reason.rawValue)
            case .frame(let frame):
                do {
                    let message = try MessageCodec.decode(frame)
                    outcome.frames.append(.init(header: frame.header, message: message))
                } catch {
                    outcome.reasons.append(error.reason)
                }
            }
        }
    }
    return outcome
}

/// Deterministic generator for tests and simulations that need reproducible randomness.
func chunked(_ bytes: [UInt8], seed: UInt64, maxChunk: Int) -> [ArraySlice<UInt8>] {
    var rng = SplitMix64(seed: seed)
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    while start < bytes.count {
        let length = 1 + Int(rng.next() % UInt64(maxChunk))
        let end = min(bytes.count, start + length)
        chunks.append(bytes[start..<end])
        start = end
    }
    return chunks
}

extension WireMessage {
    /// An UPLOAD_CHUNK's data (the link tests move uploads through simulated lines).
    var chunkData: [UInt8]? {
        if case .uploadChunk(let chunk) = self { chunk.data } else { nil }
    }
}
