/// An error reply (Protocol/SERVICE.md §4): a stable `code` a client can branch on, a sentence a
/// person can act on, and, where one field is at fault, that field's name.
public struct ServiceError: Error, Sendable, Equatable {
    public enum Code: String, Sendable, CaseIterable {
        /// The message is not JSON, or not a JSON object.
        case badJSON = "bad_json"
        /// A field is missing, of the wrong type, or out of range (`field` names it).
        case badRequest = "bad_request"
        /// A `type` the service does not know.
        case unknownType = "unknown_type"
        /// A pattern, player or flash slot that does not exist, or belongs to another client.
        case unknownID = "unknown_id"
        /// The message is larger than the service takes.
        case tooLarge = "too_large"
        /// The client sent more requests a second than its share; real-time messages are merged instead.
        case rateLimited = "rate_limited"
        /// The pattern has errors (`details.diagnostics` lists them).
        case invalidPattern = "invalid_pattern"
        /// The board or rig cannot do this (a rig's flash, a board without a trace buffer).
        case notSupported = "not_supported"
        /// `hello` asked for a protocol version the service does not speak.
        case versionMismatch = "version_mismatch"
        /// The board or the engine failed the request (`message` says how; `details.engineCode` is
        /// Core Haptics' error code).
        case board = "board"
    }

    public var code: Code
    public var message: String
    /// The request field at fault, as a path (`parameters.intensity`).
    public var field: String?
    public var details: [String: JSONValue]

    public init(_ code: Code, _ message: String, field: String? = nil, details: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.field = field
        self.details = details
    }

    /// `bad_request` for `field`: "`field` must be EXPECTED, found TYPE".
    static func wrongType(_ field: String, expected: String, found: JSONValue?) -> ServiceError {
        guard let found else {
            return ServiceError(.badRequest, "`\(field)` is missing: expected \(expected)", field: field)
        }
        return ServiceError(.badRequest, "`\(field)` must be \(expected), found \(found.typeName)", field: field)
    }

    /// The error object of an error message.
    var json: JSONValue {
        var object: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let field { object["field"] = .string(field) }
        if !details.isEmpty { object["details"] = .object(details) }
        return .object(object)
    }
}
