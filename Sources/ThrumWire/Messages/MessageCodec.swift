/// Encodes and decodes message payloads by the schema (PROTOCOL.md §5). Decoding reads each field only
/// after checking that its bytes are there, checks every count against its maximum before using it, and
/// rejects trailing bytes.
public enum MessageCodec {
    public static func encode(_ message: WireMessage, maxPayload: Int = FrameLimits.absoluteMaxPayload) throws(MessageCodecError) -> [UInt8] {
        let spec = message.type.spec
        var out: [UInt8] = []
        try encodeFields(spec.fields, values: message.fields, message: spec.name, path: "", into: &out)
        guard out.count <= maxPayload else { throw .payloadTooLarge(message: spec.name, size: out.count, max: maxPayload) }
        return out
    }

    public static func decode(type id: UInt8, payload: [UInt8]) throws(MessageCodecError) -> WireMessage {
        guard let spec = MessageCatalog.spec(id: id) else { throw .unknownType(id) }
        var reader = Reader(bytes: payload, message: spec.name)
        let fields = try reader.fields(spec.fields, path: "")
        guard reader.offset == payload.count else {
            throw .trailingBytes(message: spec.name, count: payload.count - reader.offset, offset: reader.offset)
        }
        return WireMessage(spec.type, fields)
    }

    public static func decode(_ frame: Frame) throws(MessageCodecError) -> WireMessage {
        try decode(type: frame.header.type, payload: frame.payload)
    }

    // MARK: encoding

    private static func encodeFields(
        _ fields: [FieldSpec], values: [String: FieldValue], message: String, path: String, into out: inout [UInt8]
    ) throws(MessageCodecError) {
        for field in fields {
            let name = path + field.name
            guard let value = values[field.name] else { throw .missingField(message: message, field: name) }
            switch field.type {
            case .u8: try appendInt(value, bytes: 1, range: 0...0xFF, message: message, field: name, into: &out)
            case .u16: try appendInt(value, bytes: 2, range: 0...0xFFFF, message: message, field: name, into: &out)
            case .u32: try appendInt(value, bytes: 4, range: 0...0xFFFF_FFFF, message: message, field: name, into: &out)
            case .i16: try appendInt(value, bytes: 2, range: -0x8000...0x7FFF, message: message, field: name, into: &out)
            case .i32: try appendInt(value, bytes: 4, range: -0x8000_0000...0x7FFF_FFFF, message: message, field: name, into: &out)
            case .bool:
                guard let flag = value.bool else { throw .wrongKind(message: message, field: name, expected: "bool") }
                out.append(flag ? 1 : 0)
            case .str(let max):
                guard let text = value.string else { throw .wrongKind(message: message, field: name, expected: "string") }
                let utf8 = Array(text.utf8)
                guard utf8.count <= max else { throw .outOfRange(message: message, field: name, value: Int64(utf8.count)) }
                out.append(UInt8(utf8.count))
                out.append(contentsOf: utf8)
            case .bytes:
                guard let data = value.bytes else { throw .wrongKind(message: message, field: name, expected: "bytes") }
                out.append(contentsOf: data)
            case .list(let max, let item):
                guard let items = value.list else { throw .wrongKind(message: message, field: name, expected: "list") }
                guard items.count <= max else { throw .outOfRange(message: message, field: name, value: Int64(items.count)) }
                out.append(UInt8(items.count))
                for (index, element) in items.enumerated() {
                    try encodeFields(item, values: element, message: message, path: "\(name)[\(index)].", into: &out)
                }
            }
        }
    }

    private static func appendInt(
        _ value: FieldValue, bytes: Int, range: ClosedRange<Int64>, message: String, field: String, into out: inout [UInt8]
    ) throws(MessageCodecError) {
        guard let number = value.int else { throw .wrongKind(message: message, field: field, expected: "integer") }
        guard range.contains(number) else { throw .outOfRange(message: message, field: field, value: number) }
        let bits = UInt64(bitPattern: number)
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * index))) }
    }

    // MARK: decoding

    private struct Reader {
        let bytes: [UInt8]
        let message: String
        var offset = 0

        init(bytes: [UInt8], message: String) {
            self.bytes = bytes
            self.message = message
        }

        mutating func fields(_ fields: [FieldSpec], path: String) throws(MessageCodecError) -> [String: FieldValue] {
            var values: [String: FieldValue] = [:]
            for field in fields {
                values[field.name] = try value(field, name: path + field.name)
            }
            return values
        }

        mutating func take(_ count: Int, field: String) throws(MessageCodecError) -> ArraySlice<UInt8> {
            guard count <= bytes.count - offset else { throw .truncated(message: message, field: field, offset: offset) }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func unsigned(_ count: Int, field: String) throws(MessageCodecError) -> UInt64 {
            let slice = try take(count, field: field)
            var value: UInt64 = 0
            for (index, byte) in slice.enumerated() { value |= UInt64(byte) << UInt64(8 * index) }
            return value
        }

        mutating func value(_ field: FieldSpec, name: String) throws(MessageCodecError) -> FieldValue {
            let start = offset
            switch field.type {
            case .u8: return .int(Int64(try unsigned(1, field: name)))
            case .u16: return .int(Int64(try unsigned(2, field: name)))
            case .u32: return .int(Int64(try unsigned(4, field: name)))
            case .i16: return .int(Int64(Int16(truncatingIfNeeded: try unsigned(2, field: name))))
            case .i32: return .int(Int64(Int32(truncatingIfNeeded: try unsigned(4, field: name))))
            case .bool:
                let raw = UInt8(try unsigned(1, field: name))
                guard raw <= 1 else { throw .invalidBool(message: message, field: name, value: raw, offset: start) }
                return .bool(raw == 1)
            case .str(let max):
                let length = Int(try unsigned(1, field: name))
                guard length <= max else { throw .stringTooLong(message: message, field: name, length: length, max: max, offset: start) }
                let utf8 = try take(length, field: name)
                guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8(message: message, field: name, offset: start) }
                return .string(text)
            case .bytes:
                return .bytes(Array(try take(bytes.count - offset, field: name)))
            case .list(let max, let item):
                let count = Int(try unsigned(1, field: name))
                guard count <= max else { throw .listTooLong(message: message, field: name, count: count, max: max, offset: start) }
                var items: [[String: FieldValue]] = []
                for index in 0..<count { items.append(try fields(item, path: "\(name)[\(index)].")) }
                return .list(items)
            }
        }
    }
}
