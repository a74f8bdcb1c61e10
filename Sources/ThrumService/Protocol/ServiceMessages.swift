import Thrum

/// The messages the service sends (Protocol/SERVICE.md §4): replies, error replies and events.
enum ServiceMessages {
    /// The protocol version `hello` states; a client asking for another major version is refused.
    static let protocolVersion = 1

    static func reply(_ result: JSONValue, id: JSONValue) -> JSONValue {
        ["type": "reply", "id": id, "result": result]
    }

    /// An error reply; `id` nil when the message had none (or could not be read), `request` the
    /// message's type when known.
    static func error(_ error: ServiceError, id: JSONValue?, request: String?) -> JSONValue {
        var object: [String: JSONValue] = ["type": "error", "id": id ?? .null, "error": error.json]
        if let request { object["request"] = .string(request) }
        return .object(object)
    }

    static func event(_ name: String, _ fields: [String: JSONValue], time: Double) -> JSONValue {
        var object = fields
        object["type"] = "event"
        object["event"] = .string(name)
        object["time"] = .number(time)
        return .object(object)
    }
}

extension ServiceError {
    /// Any error from below in the service's words: the engine's with its Core Haptics code.
    static func from(_ error: any Error) -> ServiceError {
        switch error {
        case let error as ServiceError: return error
        case let error as HapticEngineError:
            let code: Code =
                switch error {
                case .invalidLocality, .invalidPlayer, .invalidTime: .badRequest
                case .invalidPattern, .cannotStream, .outOfTimelineMemory: .invalidPattern
                case .flash: .badRequest
                default: .board
                }
            return ServiceError(code, error.description, details: ["engineCode": .int(error.code)])
        default:
            return ServiceError(.board, "\(error)")
        }
    }
}
