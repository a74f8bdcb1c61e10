/// A field's value. Integers of every width are `.int`; the schema says how wide they travel.
public indirect enum FieldValue: Equatable, Hashable, Sendable {
    case int(Int64)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
    case list([[String: FieldValue]])

    public var int: Int64? { if case .int(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    public var list: [[String: FieldValue]]? { if case .list(let value) = self { value } else { nil } }
}

extension FieldValue: ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

/// One message: its type and its fields by the names messages.json gives them.
public struct WireMessage: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var type: MessageType
    public var fields: [String: FieldValue]

    public init(_ type: MessageType, _ fields: [String: FieldValue] = [:]) {
        self.type = type
        self.fields = fields
    }

    public subscript(name: String) -> FieldValue? {
        get { fields[name] }
        set { fields[name] = newValue }
    }

    /// Integer field, or nil when absent or not an integer.
    public func int(_ name: String) -> Int64? { fields[name]?.int }

    public var description: String {
        let shown = fields.keys.sorted().map { "\($0): \(fields[$0]!)" }.joined(separator: ", ")
        return "\(type.name)(\(shown))"
    }
}
