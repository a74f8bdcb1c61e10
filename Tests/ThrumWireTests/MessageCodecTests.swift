import PropertyBased
import Testing

@testable import ThrumWire

@Suite("Message codec")
struct MessageCodecTests {
    /// A random payload laid out by the schema (messages.json, through `MessageSpec`): an encoder of
    /// its own, independent of the generated one, so the two check each other.
    static func randomPayload(_ fields: [FieldSpec], using rng: inout SplitMix64, byteBudget: Int = 200) -> [UInt8] {
        var out: [UInt8] = []
        func random(_ count: Int) { for _ in 0..<count { out.append(UInt8.random(in: 0...255, using: &rng)) } }
        for field in fields {
            switch field.type {
            case .u8: random(1)
            case .u16, .i16: random(2)
            case .u32, .i32: random(4)
            case .bool: out.append(Bool.random(using: &rng) ? 1 : 0)
            case .str(let max):
                let alphabet = Array("abcXYZ019 -é漢")
                var text = ""
                while text.utf8.count < Int.random(in: 0...max, using: &rng) {
                    text.append(alphabet.randomElement(using: &rng)!)
                }
                while text.utf8.count > max { text.removeLast() }
                out.append(UInt8(text.utf8.count))
                out += Array(text.utf8)
            case .bytes: random(Int.random(in: 0...byteBudget, using: &rng))
            case .list(let max, let item):
                let count = Int.random(in: 0...min(max, 8), using: &rng)
                out.append(UInt8(count))
                for _ in 0..<count { out += randomPayload(item, using: &rng) }
            }
        }
        return out
    }

    @Test("every message type decodes a random payload laid out by the schema and encodes it back byte for byte")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen.uint64()) { seed in
            var rng = SplitMix64(seed: seed)
            let spec = MessageCatalog.all.randomElement(using: &rng)!
            let payload = Self.randomPayload(spec.fields, using: &rng)
            let message = try MessageCodec.decode(type: spec.id, payload: payload)
            #expect(message.type == spec.type)
            #expect(try MessageCodec.encode(message) == payload)
            if !payload.isEmpty, spec.fields.last?.type != .bytes {
                // Any shortened payload is rejected, never misread (a trailing `bytes` field may be short).
                let cut = Int(seed % UInt64(payload.count))
                #expect(throws: MessageCodecError.self) {
                    try MessageCodec.decode(type: spec.id, payload: Array(payload[..<cut]))
                }
            }
        }
    }

    static let info = WireMessage.info(
        nonce: 7, major: 1, minor: 0, firmware: "fw", board: "b", serial: "s", maxPayload: 512, window: 8, tickHz: 1000,
        timelineMemory: 4096, maxTimelines: 4, players: 4, maxCurvePoints: 16, flashSlots: 4, flashSlotSize: 1024,
        triggerInputs: 0,
        audio: .none, audioRateHz: 0, keepaliveMs: 500, streamMaxSamples: 64,
        channels: [
            .init(kind: .lra, resonantDhz: 1700, ratedMv: 2000, maxMv: 3300),
            .init(kind: .erm, resonantDhz: 0, ratedMv: 3000, maxMv: 3300),
        ])

    @Test("errors name the message, the field path and the offset")
    func errorsNameWhatAndWhere() throws {
        let payload = try MessageCodec.encode(Self.info)
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
        #expect(throws: MessageCodecError.invalidBool(message: "PLAYER_MUTE", field: "muted", value: 2, offset: 3)) {
            try MessageCodec.decode(type: MessageType.playerMute.rawValue, payload: [1, 0, 0, 2])
        }
    }

    @Test("an enum value this host does not know decodes and keeps its number")
    func openEnums() throws {
        let message = try MessageCodec.decode(type: MessageType.result.rawValue, payload: [5, 0, 200])
        #expect(message == .result(tag: 5, status: WireStatus(rawValue: 200)))
        #expect(message.status?.name == nil && "\(message.status!)" == "status 200")
        #expect(WireStatus.noMemory.name == "no_memory" && WireStatus.known.count == 15)
    }

    @Test("encoding refuses strings and lists longer than their fields, and oversize payloads")
    func encodingChecks() {
        #expect(throws: MessageCodecError.outOfRange(message: "LOG", field: "text", value: 201)) {
            try MessageCodec.encode(.log(level: .info, text: String(repeating: "a", count: 201)))
        }
        let points = [WireMessage.PlayerCurve.Point](repeating: .init(time: 0, value: 0), count: 65)
        #expect(throws: MessageCodecError.outOfRange(message: "PLAYER_CURVE", field: "points", value: 65)) {
            try MessageCodec.encode(
                .playerCurve(tag: 1, player: 0, parameter: .intensityControl, atTime: 0, points: points))
        }
        let chunk = WireMessage.uploadChunk(tag: 1, handle: 0, offset: 0, data: [UInt8](repeating: 7, count: 300))
        #expect(throws: MessageCodecError.payloadTooLarge(message: "UPLOAD_CHUNK", size: 307, max: 256)) {
            try MessageCodec.encode(chunk, maxPayload: 256)
        }
    }

    @Test("tag and status read the same field of every message that has one")
    func crossCuttingFields() throws {
        #expect(WireMessage.playerStart(tag: 9, player: 0, handle: 1, atTime: 0, position: 0).tag == 9)
        #expect(
            WireMessage.uploadStatus(tag: 3, status: .hashMismatch, handle: 0, nextOffset: 0).status == .hashMismatch)
        #expect(WireMessage.ping(id: 1, hostTime: 0, reserved0: 0, reserved1: 0).tag == nil)
        #expect(Self.info.description.hasPrefix("INFO(nonce: 7, major: 1"))
    }
}
