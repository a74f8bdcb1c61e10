import Foundation
import Testing

@testable import ThrumWire

private let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}
/// Under CI (`CI` set) these tests run, and fail, when python3 is missing (scripts/ensure-deps installs it).
private let pythonOrCI = python != nil || ProcessInfo.processInfo.environment["CI"] != nil

/// Protocol/messages.json: the generated Swift catalog matches it, and it stays compatible with the
/// released baseline (scripts/check-messages-compat, PROTOCOL.md §9).
@Suite("messages.json")
struct MessagesCompatibilityTests {
    static let root = WireVector.packageRoot

    static func json(_ relative: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(relative)))
            as! [String: Any]
    }

    static func fieldSpecs(_ fields: [[String: Any]]) -> [FieldSpec] {
        fields.map { field in
            let name = field["name"] as! String
            switch field["type"] as! String {
            case "u8": return FieldSpec(name, .u8)
            case "u16": return FieldSpec(name, .u16)
            case "u32": return FieldSpec(name, .u32)
            case "i16": return FieldSpec(name, .i16)
            case "i32": return FieldSpec(name, .i32)
            case "bool": return FieldSpec(name, .bool)
            case "str": return FieldSpec(name, .str(max: field["max"] as! Int))
            case "bytes": return FieldSpec(name, .bytes)
            case "list":
                return FieldSpec(
                    name, .list(max: field["max"] as! Int, item: fieldSpecs(field["item"] as! [[String: Any]])))
            case let other:
                Issue.record("unknown field type \(other) in \(name)")
                return FieldSpec(name, .str(max: -1))
            }
        }
    }

    @Test("the Swift catalog is generated from the current messages.json")
    func catalogMatchesJSON() throws {
        let document = try Self.json("Protocol/messages.json")
        let version = document["version"] as! [String: Int]
        #expect(Int(MessageCatalog.major) == version["major"])
        #expect(Int(MessageCatalog.minor) == version["minor"])
        let messages = document["messages"] as! [[String: Any]]
        #expect(messages.count == MessageCatalog.all.count)
        for message in messages {
            let id = UInt8(message["id"] as! Int)
            guard let spec = MessageCatalog.spec(id: id) else {
                Issue.record("message id \(id) missing from the Swift catalog: run scripts/generate/swift_messages.py")
                continue
            }
            #expect(spec.name == message["name"] as! String)
            #expect(spec.direction.rawValue == message["direction"] as! String)
            #expect(spec.channel.rawValue == message["channel"] as! String)
            #expect(spec.fields == Self.fieldSpecs(message["fields"] as! [[String: Any]]), "\(spec.name)")
        }
    }

    @Test("bytes and list fields come last; ids and names are unique")
    func schemaRules() {
        for spec in MessageCatalog.all {
            for (index, field) in spec.fields.enumerated() {
                if case .bytes = field.type { #expect(index == spec.fields.count - 1, "\(spec.name).\(field.name)") }
            }
        }
        #expect(Set(MessageCatalog.all.map(\.name)).count == MessageCatalog.all.count)
    }

    static func runCheck(current: URL) throws -> (status: Int32, output: String) {
        try run("scripts/check-messages-compat", current.path)
    }

    /// A script of scripts/ under python3, with its status and what it printed.
    static func run(_ script: String, _ arguments: String...) throws -> (status: Int32, output: String) {
        guard let python else { throw ScriptError(description: "python3 not found (scripts/ensure-deps installs it)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent(script).path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("messages.json is compatible with the released baseline", .enabled(if: pythonOrCI, "python3 not found"))
    func compatibleWithBaseline() throws {
        let result = try Self.runCheck(current: Self.root.appendingPathComponent("Protocol/messages.json"))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "the generated Swift messages and PROTOCOL.md's tables are what messages.json makes",
        .enabled(if: pythonOrCI, "python3 not found"))
    func generatedFilesAreCurrent() throws {
        let result = try Self.run("scripts/generate/swift_messages.py", "--check")
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(
        "the check catches incompatible changes unless the major version is bumped",
        .enabled(if: pythonOrCI, "python3 not found"))
    func checkFailsOnIncompatibleChange() throws {
        var document = try Self.json("Protocol/messages.json")
        var messages = document["messages"] as! [[String: Any]]
        let pongIndex = messages.firstIndex { $0["name"] as? String == "PONG" }!
        messages[pongIndex]["id"] = 99  // renumbered
        var fields = messages[pongIndex]["fields"] as! [[String: Any]]
        fields[0]["type"] = "u32"  // retyped
        fields.removeLast()  // removed
        messages[pongIndex]["fields"] = fields
        document["messages"] = messages
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-messages-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try JSONSerialization.data(withJSONObject: document).write(to: url)
        let broken = try Self.runCheck(current: url)
        #expect(broken.status == 1)
        #expect(broken.output.contains("PONG renumbered"))

        document["version"] = ["major": 2, "minor": 0]
        try JSONSerialization.data(withJSONObject: document).write(to: url)
        #expect(try Self.runCheck(current: url).status == 0)
    }
}

struct ScriptError: Error, CustomStringConvertible {
    var description: String
}
