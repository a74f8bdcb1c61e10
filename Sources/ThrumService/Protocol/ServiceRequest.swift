import Foundation
import ThrumModel

/// One message from a client (Protocol/SERVICE.md §3): its `id` (echoed in the reply; absent: no
/// reply unless it fails), its `type`, and typed access to its fields that names the field at fault.
/// Unknown fields are ignored.
public struct ServiceRequest: Sendable {
    /// A number or a string, echoed as it came; nil when the client wants no reply.
    public var id: JSONValue?
    public var type: String
    public var fields: [String: JSONValue]

    /// Reads one client message, or the error reply that answers it (with the message's id when
    /// that much could be read).
    public static func parse(_ text: String) -> Result<ServiceRequest, Unreadable> {
        let value: JSONValue
        switch JSONValue.parse(Data(text.utf8)) {
        case .success(let parsed): value = parsed
        case .failure(let failure):
            // Thrum's own JSON reader says where the text goes wrong (line and column).
            let syntax = PatternFile.checkSyntax(data: Data(text.utf8)).map {
                "\($0.message) (\($0.position.map { "\($0)" } ?? "?"))"
            }
            return .failure(Unreadable(ServiceError(.badJSON, "the message is not JSON: \(syntax ?? failure.message)")))
        }
        guard let fields = value.objectValue else {
            return .failure(
                Unreadable(ServiceError(.badJSON, "a message must be a JSON object, found \(value.typeName)")))
        }
        let id = fields["id"]
        switch id {
        case nil, .null?, .string?: break
        case .number(let number)? where number.rounded() == number: break
        case let other?:
            return .failure(
                Unreadable(
                    ServiceError(
                        .badRequest, "`id` must be an integer or a string, found \(other.encoded)", field: "id")))
        }
        let usableID = id == .null ? nil : id
        guard let type = fields["type"]?.stringValue else {
            return .failure(Unreadable(.wrongType("type", expected: "a string", found: fields["type"]), id: usableID))
        }
        return .success(ServiceRequest(id: usableID, type: type, fields: fields))
    }

    /// A message that is not a request, and its id if it had a usable one.
    public struct Unreadable: Error, Sendable {
        public var error: ServiceError
        public var id: JSONValue?

        init(_ error: ServiceError, id: JSONValue? = nil) {
            self.error = error
            self.id = id
        }
    }

    public init(id: JSONValue?, type: String, fields: [String: JSONValue]) {
        self.id = id
        self.type = type
        self.fields = fields
    }

    // MARK: typed fields

    func string(_ name: String) throws(ServiceError) -> String {
        guard let value = fields[name]?.stringValue else {
            throw .wrongType(name, expected: "a string", found: fields[name])
        }
        return value
    }

    func optionalString(_ name: String) throws(ServiceError) -> String? {
        guard let value = fields[name], value != .null else { return nil }
        return try string(name)
    }

    func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(ServiceError) -> Int {
        guard let value = fields[name]?.intValue else {
            throw .wrongType(name, expected: "an integer", found: fields[name])
        }
        return try Self.checked(value, in: range, name)
    }

    func number(_ name: String, in range: ClosedRange<Double>? = nil) throws(ServiceError) -> Double {
        guard let value = fields[name]?.doubleValue, value.isFinite else {
            throw .wrongType(name, expected: "a number", found: fields[name])
        }
        return try Self.checked(value, in: range, name)
    }

    /// `value` when `range` (if any) holds it, else `bad_request` naming the field and the range.
    private static func checked<T: Comparable>(
        _ value: T, in range: ClosedRange<T>?, _ name: String
    ) throws(ServiceError)
        -> T
    {
        guard let range, !range.contains(value) else { return value }
        throw ServiceError(
            .badRequest, "`\(name)` must be between \(range.lowerBound) and \(range.upperBound), found \(value)",
            field: name)
    }

    func optionalNumber(_ name: String, in range: ClosedRange<Double>? = nil) throws(ServiceError) -> Double? {
        guard let value = fields[name], value != .null else { return nil }
        return try number(name, in: range)
    }

    func bool(_ name: String) throws(ServiceError) -> Bool {
        guard let value = fields[name]?.boolValue else {
            throw .wrongType(name, expected: "a boolean", found: fields[name])
        }
        return value
    }

    func optionalBool(_ name: String) throws(ServiceError) -> Bool? {
        guard let value = fields[name], value != .null else { return nil }
        return try bool(name)
    }

    func object(_ name: String) throws(ServiceError) -> [String: JSONValue] {
        guard let value = fields[name]?.objectValue else {
            throw .wrongType(name, expected: "an object", found: fields[name])
        }
        return value
    }

    /// `at`: a time on the service's clock in seconds, or absent / `"now"` for as soon as possible.
    func time(_ name: String = "at") throws(ServiceError) -> ServiceTime {
        switch fields[name] {
        case nil, .null?: return .now
        case .string("now")?: return .now
        case .number(let value)? where value.isFinite && value >= 0: return .at(value)
        case let other?:
            throw ServiceError(
                .badRequest,
                "`\(name)` must be \"now\" or a time in seconds on the service's clock, found \(other.encoded)",
                field: name)
        }
    }
}

/// When a command takes effect: as soon as possible, or at a time on the service's clock (seconds).
public enum ServiceTime: Sendable, Equatable {
    case now
    case at(Double)
}
