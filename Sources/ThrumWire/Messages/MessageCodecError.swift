/// Why a payload could not be decoded, or a message not encoded. Each case names the message and the field
/// (a path such as `channels[2].kind`) and, when decoding, the payload offset.
public enum MessageCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownType(UInt8)
    case truncated(message: String, field: String, offset: Int)
    case trailingBytes(message: String, count: Int, offset: Int)
    case invalidBool(message: String, field: String, value: UInt8, offset: Int)
    case stringTooLong(message: String, field: String, length: Int, max: Int, offset: Int)
    case invalidUTF8(message: String, field: String, offset: Int)
    case listTooLong(message: String, field: String, count: Int, max: Int, offset: Int)
    /// A string or list longer than its field allows, when encoding.
    case outOfRange(message: String, field: String, value: Int64)
    case payloadTooLarge(message: String, size: Int, max: Int)
    /// A known message arrived from the side that only receives it (e.g. INFO sent to the board).
    case wrongDirection(message: String)

    /// Short reason name shared with the vectors and the C side.
    public var reason: String {
        switch self {
        case .unknownType: "unknown_type"
        case .truncated: "truncated"
        case .trailingBytes: "trailing_bytes"
        case .invalidBool: "invalid_bool"
        case .stringTooLong: "string_too_long"
        case .invalidUTF8: "invalid_utf8"
        case .listTooLong: "list_too_long"
        case .outOfRange: "out_of_range"
        case .payloadTooLarge: "payload_too_large"
        case .wrongDirection: "wrong_direction"
        }
    }

    public var description: String {
        switch self {
        case .unknownType(let id): "unknown message type \(id) (0x\(String(id, radix: 16)))"
        case .truncated(let message, let field, let offset):
            "\(message): payload ends inside field \(field) at byte \(offset)"
        case .trailingBytes(let message, let count, let offset):
            "\(message): \(count) unexpected byte(s) after the last field at byte \(offset)"
        case .invalidBool(let message, let field, let value, let offset):
            "\(message).\(field): bool must be 0 or 1, found \(value) at byte \(offset)"
        case .stringTooLong(let message, let field, let length, let max, let offset):
            "\(message).\(field): string of \(length) bytes exceeds \(max) at byte \(offset)"
        case .invalidUTF8(let message, let field, let offset): "\(message).\(field): not UTF-8 at byte \(offset)"
        case .listTooLong(let message, let field, let count, let max, let offset):
            "\(message).\(field): \(count) items exceed \(max) at byte \(offset)"
        case .outOfRange(let message, let field, let value): "\(message).\(field): \(value) does not fit the field"
        case .payloadTooLarge(let message, let size, let max):
            "\(message): payload of \(size) bytes exceeds the limit of \(max)"
        case .wrongDirection(let message): "\(message) is not accepted in this direction"
        }
    }
}
