/// The shape of messages, as Protocol/messages.json states it. The catalog itself is generated from that
/// file (scripts/generate/swift_messages.py) so the Swift side cannot drift from the spec.
public indirect enum FieldType: Equatable, Hashable, Sendable {
    case u8, u16, u32, i16, i32, bool
    /// u8 byte count, then UTF-8; at most `max` bytes.
    case str(max: Int)
    /// All remaining payload bytes; last field only.
    case bytes
    /// u8 item count, then items; at most `max` items; last field only.
    case list(max: Int, item: [FieldSpec])
}

public struct FieldSpec: Equatable, Hashable, Sendable {
    public var name: String
    public var type: FieldType

    public init(_ name: String, _ type: FieldType) {
        self.name = name
        self.type = type
    }
}

public enum MessageDirection: String, Sendable {
    case hostToBoard = "host_to_board"
    case boardToHost = "board_to_host"
    case both
}

/// The channel a message travels on; `any` is ERROR, which answers on the channel of what it answers.
public enum MessageChannel: String, Sendable {
    case control, reliable, realtime, any
}

public struct MessageSpec: Equatable, Hashable, Sendable {
    public var type: MessageType
    public var direction: MessageDirection
    public var channel: MessageChannel
    public var fields: [FieldSpec]

    public var id: UInt8 { type.rawValue }
    public var name: String { type.name }
}

extension MessageType {
    public var spec: MessageSpec { MessageCatalog.spec(for: self) }
}

extension MessageCatalog {
    private static let byID: [UInt8: MessageSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    public static func spec(for type: MessageType) -> MessageSpec { byID[type.rawValue]! }

    public static func spec(id: UInt8) -> MessageSpec? { byID[id] }
}
