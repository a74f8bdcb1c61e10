import PropertyBased
import Testing
@testable import ThrumWire

@Suite("Message codec")
struct MessageCodecTests {
    /// A random value for every field of a spec, within the field's range.
    static func randomFields(_ fields: [FieldSpec], using rng: inout SplitMix64, byteBudget: Int = 200) -> [String: FieldValue] {
        var values: [String: FieldValue] = [:]
        for field in fields {
            switch field.type {
            case .u8: values[field.name] = .int(Int64.random(in: 0...0xFF, using: &rng))
            case .u16: values[field.name] = .int(Int64.random(in: 0...0xFFFF, using: &rng))
            case .u32: values[field.name] = .int(Int64.random(in: 0...0xFFFF_FFFF, using: &rng))
            case .i16: values[field.name] = .int(Int64.random(in: -0x8000...0x7FFF, using: &rng))
            case .i32: values[field.name] = .int(Int64.random(in: -0x8000_0000...0x7FFF_FFFF, using: &rng))
            case .bool: values[field.name] = .bool(Bool.random(using: &rng))
            case .str(let max):
                let alphabet = Array("abcXYZ019 -é漢")
                var text = ""
                while text.utf8.count < Int.random(in: 0...max, using: &rng) { text.append(alphabet.randomElement(using: &rng)!) }
                while text.utf8.count > max { text.removeLast() }
                values[field.name] = .string(text)
            case .bytes:
                values[field.name] = .bytes((0..<Int.random(in: 0...byteBudget, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            case .list(let max, let item):
                let count = Int.random(in: 0...min(max, 8), using: &rng)
                values[field.name] = .list((0..<count).map { _ in randomFields(item, using: &rng) })
            }
        }
        return values
    }

    @Test("every message type round-trips with random field values")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let spec = MessageCatalog.all.randomElement(using: &rng)!
            let message = WireMessage(spec.type, Self.randomFields(spec.fields, using: &rng))
            let payload = try MessageCodec.encode(message)
            #expect(try MessageCodec.decode(type: spec.id, payload: payload) == message)
            if !payload.isEmpty, spec.fields.last?.type != .bytes {
                // Any shortened payload is rejected, never misread (a trailing `bytes` field may be short).
                let cut = Int(seed % UInt64(payload.count))
                #expect(throws: MessageCodecError.self) { try MessageCodec.decode(type: spec.id, payload: Array(payload[..<cut])) }
            }
        }
    }

    @Test("errors name the message, the field path and the offset")
    func errorsNameWhatAndWhere() throws {
        var rng = SplitMix64(seed: 9)
        var info = WireMessage(.info, Self.randomFields(MessageType.info.spec.fields, using: &rng))
        info["channels"] = .list([["kind": 0, "resonant_dhz": 1700, "rated_mv": 2000, "max_mv": 3300], ["kind": 1, "resonant_dhz": 0, "rated_mv": 3000, "max_mv": 3300]])
        let payload = try MessageCodec.encode(info)
        do {
            _ = try MessageCodec.decode(type: MessageType.info.rawValue, payload: Array(payload.dropLast(7)))
            Issue.record("truncated INFO decoded")
        } catch {
            #expect(error == .truncated(message: "INFO", field: "channels[1].kind", offset: payload.count - 7))
            #expect(error.description.contains("channels[1].kind"))
        }
        #expect(throws: MessageCodecError.unknownType(0xEE)) { try MessageCodec.decode(type: 0xEE, payload: []) }
        #expect(throws: MessageCodecError.trailingBytes(message: "ENGINE_START", count: 1, offset: 2)) {
            try MessageCodec.decode(type: MessageType.engineStart.rawValue, payload: [1, 0, 9])
        }
    }

    @Test("encoding refuses values that do not fit, missing fields and oversize payloads")
    func encodingChecks() {
        #expect(throws: MessageCodecError.outOfRange(message: "RESULT", field: "status", value: 256)) {
            try MessageCodec.encode(WireMessage(.result, ["tag": 1, "status": 256]))
        }
        #expect(throws: MessageCodecError.missingField(message: "RESULT", field: "status")) {
            try MessageCodec.encode(WireMessage(.result, ["tag": 1]))
        }
        #expect(throws: MessageCodecError.wrongKind(message: "PLAYER_MUTE", field: "muted", expected: "bool")) {
            try MessageCodec.encode(WireMessage(.playerMute, ["tag": 1, "player": 0, "muted": 1]))
        }
        let chunk = WireMessage(.uploadChunk, ["tag": 1, "handle": 0, "offset": 0, "data": .bytes([UInt8](repeating: 7, count: 300))])
        #expect(throws: MessageCodecError.payloadTooLarge(message: "UPLOAD_CHUNK", size: 307, max: 256)) {
            try MessageCodec.encode(chunk, maxPayload: 256)
        }
    }
}
