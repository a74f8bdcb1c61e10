/// Encodes and decodes message payloads (PROTOCOL.md §5). The generated types
/// (WireMessage.generated.swift) say which field comes where; the reader and writer here do the
/// bytes. Decoding reads each field only after checking that its bytes are there, checks every
/// count against its maximum before using it, and rejects trailing bytes.
public enum MessageCodec {
    public static func encode(
        _ message: WireMessage, maxPayload: Int = FrameLimits.absoluteMaxPayload
    ) throws(MessageCodecError) -> [UInt8] {
        var writer = PayloadWriter(message: message.type.name)
        try message.encodeFields(into: &writer)
        guard writer.bytes.count <= maxPayload else {
            throw .payloadTooLarge(message: message.type.name, size: writer.bytes.count, max: maxPayload)
        }
        return writer.bytes
    }

    public static func decode(type id: UInt8, payload: [UInt8]) throws(MessageCodecError) -> WireMessage {
        guard let type = MessageType(rawValue: id) else { throw .unknownType(id) }
        var reader = PayloadReader(bytes: payload, message: type.name)
        let message = try WireMessage.decodeFields(type, from: &reader)
        guard reader.offset == payload.count else {
            throw .trailingBytes(message: type.name, count: payload.count - reader.offset, offset: reader.offset)
        }
        return message
    }

    public static func decode(_ frame: Frame) throws(MessageCodecError) -> WireMessage {
        try decode(type: frame.header.type, payload: frame.payload)
    }
}

/// Appends fields, little-endian, as PROTOCOL.md §5 lays them out.
struct PayloadWriter {
    private(set) var bytes: [UInt8] = []
    let message: String

    init(message: String) { self.message = message }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { little(UInt64(value), count: 2) }
    mutating func u32(_ value: UInt32) { little(UInt64(value), count: 4) }
    mutating func i16(_ value: Int16) { little(UInt64(UInt16(bitPattern: value)), count: 2) }
    mutating func i32(_ value: Int32) { little(UInt64(UInt32(bitPattern: value)), count: 4) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func bytes(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    /// A u8 byte count, then the UTF-8; longer than `max` bytes is an error naming the field.
    mutating func string(_ text: String, max: Int, field: String) throws(MessageCodecError) {
        let utf8 = Array(text.utf8)
        guard utf8.count <= max else { throw .outOfRange(message: message, field: field, value: Int64(utf8.count)) }
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A u8 item count, then each item; more than `max` items is an error naming the field.
    mutating func list<Item>(
        _ items: [Item], max: Int, field: String,
        _ encode: (inout PayloadWriter, Item, String) throws(MessageCodecError) -> Void
    ) throws(MessageCodecError) {
        guard items.count <= max else { throw .outOfRange(message: message, field: field, value: Int64(items.count)) }
        bytes.append(UInt8(items.count))
        for (index, item) in items.enumerated() { try encode(&self, item, "\(field)[\(index)].") }
    }

    private mutating func little(_ value: UInt64, count: Int) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
    }
}

/// Takes fields off a payload, each only once its bytes are known to be there.
struct PayloadReader {
    let bytes: [UInt8]
    let message: String
    private(set) var offset = 0

    init(bytes: [UInt8], message: String) {
        self.bytes = bytes
        self.message = message
    }

    mutating func u8(_ field: String) throws(MessageCodecError) -> UInt8 { UInt8(try unsigned(1, field: field)) }
    mutating func u16(_ field: String) throws(MessageCodecError) -> UInt16 { UInt16(try unsigned(2, field: field)) }
    mutating func u32(_ field: String) throws(MessageCodecError) -> UInt32 { UInt32(try unsigned(4, field: field)) }
    mutating func i16(_ field: String) throws(MessageCodecError) -> Int16 {
        Int16(truncatingIfNeeded: try unsigned(2, field: field))
    }
    mutating func i32(_ field: String) throws(MessageCodecError) -> Int32 {
        Int32(truncatingIfNeeded: try unsigned(4, field: field))
    }

    mutating func bool(_ field: String) throws(MessageCodecError) -> Bool {
        let start = offset
        let raw = try u8(field)
        guard raw <= 1 else { throw .invalidBool(message: message, field: field, value: raw, offset: start) }
        return raw == 1
    }

    mutating func string(_ field: String, max: Int) throws(MessageCodecError) -> String {
        let start = offset
        let length = Int(try u8(field))
        guard length <= max else {
            throw .stringTooLong(message: message, field: field, length: length, max: max, offset: start)
        }
        let utf8 = try take(length, field: field)
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw .invalidUTF8(message: message, field: field, offset: start)
        }
        return text
    }

    /// All the bytes left (a `bytes` field is always the last).
    mutating func rest(_ field: String) throws(MessageCodecError) -> [UInt8] {
        Array(try take(bytes.count - offset, field: field))
    }

    mutating func list<Item>(
        _ field: String, max: Int, _ item: (inout PayloadReader, String) throws(MessageCodecError) -> Item
    ) throws(MessageCodecError) -> [Item] {
        let start = offset
        let count = Int(try u8(field))
        guard count <= max else {
            throw .listTooLong(message: message, field: field, count: count, max: max, offset: start)
        }
        var items: [Item] = []
        for index in 0..<count { items.append(try item(&self, "\(field)[\(index)].")) }
        return items
    }

    private mutating func take(_ count: Int, field: String) throws(MessageCodecError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - offset else { throw .truncated(message: message, field: field, offset: offset) }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    private mutating func unsigned(_ count: Int, field: String) throws(MessageCodecError) -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in try take(count, field: field).enumerated() { value |= UInt64(byte) << UInt64(8 * index) }
        return value
    }
}
