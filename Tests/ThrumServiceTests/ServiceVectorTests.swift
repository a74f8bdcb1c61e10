import Foundation
import Testing
import ThrumService
import ThrumTesting
import ThrumTransport

/// Protocol/vectors/service replayed against the service (their format: that folder's README).
@Suite(.serialized, .timeLimit(.minutes(5))) struct ServiceVectorTests {
    static let folder = Repository.url("Protocol/vectors/service")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }

    @Test func everyVectorFileIsHere() {
        #expect(Self.files.count >= 7, "vectors: \(Self.files)")
    }

    /// Every message the vectors send is a request of Protocol/service.schema.json, or refused by it
    /// where the vector says so (Tests/ServiceClients/check_vectors.py, with jsonschema).
    typealias Tools = ServiceClientsWallClockTests.Tools

    @Test(.enabled(if: Tools.runs, Tools.missingNote)) func theVectorsFollowTheSchema() async throws {
        guard Tools.ready() else { return }
        let run = try await Tools.runScript("check_vectors.py", [Repository.root.path], limit: 60)
        #expect(run.status == 0, "check_vectors.py exited \(run.status):\n\(run.output)")
        #expect(run.output.contains(" messages checked, 0 "))
    }

    @Test(arguments: files) func replay(_ file: String) async throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        guard case .success(let vector) = JSONValue.parse(data), let steps = vector["steps"]?.arrayValue else {
            Issue.record("\(file) is not a vector file")
            return
        }
        // The file `thrum serve --watch` would watch, for `writeWatched` steps.
        let watched = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-watched-\(UUID()).ahap")
        try Data("{}".utf8).write(to: watched)
        defer { try? FileManager.default.removeItem(at: watched) }
        let harness = ServiceHarness()
        try await harness.run { _, port in
            await harness.hub.watch(watched.path)
            try await ServiceSocket.connect(port: port) { socket in
                let variables = VectorVariables()
                for (index, step) in steps.enumerated() {
                    if let message = step["send"] {
                        try await socket.send(try variables.substitute(message))
                    } else if let text = step["sendText"]?.stringValue {
                        try await socket.send(text: text)
                    } else if let content = step["writeWatched"] {
                        let text = try variables.substitute(content).stringValue ?? ""
                        try Data(text.utf8).write(to: watched, options: .atomic)
                    } else if let expected = step["expect"] {
                        let snapshot = variables.snapshot
                        let received = try await socket.next { VectorMatch.matches(expected, $0, snapshot) }
                        variables.capture(expected, from: received)
                    } else {
                        Issue.record("\(file) step \(index): neither send, writeWatched nor expect")
                    }
                }
            }
        }
    }
}

/// What a vector captured (`$capture`) and uses (`$var`), and its files (`$file`).
final class VectorVariables: Sendable {
    private let values = Locked([String: JSONValue]())

    var snapshot: [String: JSONValue] { values.withLock { $0 } }

    func substitute(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .object(let fields):
            if let path = fields["$file"]?.stringValue {
                return .string(try String(contentsOf: Repository.url(path), encoding: .utf8))
            }
            if let name = fields["$var"]?.stringValue {
                guard let captured = snapshot[name] else { throw HarnessError("$var \(name) was not captured") }
                if let plus = fields["plus"]?.doubleValue { return .number((captured.doubleValue ?? 0) + plus) }
                return captured
            }
            return .object(try fields.mapValues(substitute))
        case .array(let items): return .array(try items.map(substitute))
        default: return value
        }
    }

    /// Remembers what `expected`'s `$capture`s name in `received`.
    func capture(_ expected: JSONValue, from received: JSONValue) {
        switch expected {
        case .object(let fields):
            if let name = fields["$capture"]?.stringValue {
                values.withLock { $0[name] = received }
                return
            }
            for (key, value) in fields { if let inner = received[key] { capture(value, from: inner) } }
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let inner = received.arrayValue?[safe: index] { capture(item, from: inner) }
            }
        default: break
        }
    }
}

/// Subset matching with the vectors' special values.
enum VectorMatch {
    static func matches(_ expected: JSONValue, _ received: JSONValue, _ variables: [String: JSONValue]) -> Bool {
        switch expected {
        case .object(let fields):
            if fields["$capture"] != nil { return true }
            if let type = fields["$type"]?.stringValue { return typeName(received) == type }
            if let least = fields["$atLeast"]?.doubleValue { return (received.doubleValue ?? -.infinity) >= least }
            if let name = fields["$atLeastVar"]?.stringValue {
                let bound = (variables[name]?.doubleValue ?? .infinity) + (fields["plus"]?.doubleValue ?? 0)
                return (received.doubleValue ?? -.infinity) >= bound - 1e-9
            }
            if let name = fields["$var"]?.stringValue { return variables[name] == received }
            guard let object = received.objectValue else { return false }
            return fields.allSatisfy { key, value in object[key].map { matches(value, $0, variables) } ?? false }
        case .array(let items):
            guard let array = received.arrayValue, array.count == items.count else { return false }
            return zip(items, array).allSatisfy { matches($0, $1, variables) }
        default:
            return expected == received
        }
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
