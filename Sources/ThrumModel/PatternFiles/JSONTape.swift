/// One JSON value in a flat pre-order array ("tape"). Twelve bytes per value: no per-value allocation,
/// and the text of strings and numbers stays in the source buffer until someone asks for it.
struct JSONNode {
    enum Kind: UInt8 {
        case object, array, string, escapedString, number, trueValue, falseValue, null
    }

    /// Byte offset of the value in the source. For strings, the first byte after the opening quote.
    var offset: UInt32
    /// Strings and numbers: length in bytes of the text. Containers: index one past the subtree's last node.
    var extent: UInt32
    var kind: Kind
}

/// A syntax error: the byte offset where the parser stopped and what it expected.
struct JSONSyntaxError: Error {
    var offset: Int
    var message: String
    /// Where in the document the parser was: keys and indices of the containers still open.
    var path: DiagnosticPath = .root
}

/// A parsed JSON document: the tape plus the source bytes it points into.
///
/// The bytes are borrowed; a document lives only inside the `withUnsafeBytes` call that made it.
struct JSONDocument {
    let bytes: UnsafeRawBufferPointer
    let nodes: [JSONNode]

    var root: Int { 0 }

    func kind(_ index: Int) -> JSONNode.Kind { nodes[index].kind }
    func offset(_ index: Int) -> Int { Int(nodes[index].offset) }

    /// Index of the node after `index`'s subtree.
    func next(after index: Int) -> Int {
        let node = nodes[index]
        switch node.kind {
        case .object, .array: return Int(node.extent)
        default: return index + 1
        }
    }

    /// Calls `body(keyIndex, valueIndex)` for each member of an object, in source order.
    @inline(__always)
    func forEachMember(of object: Int, _ body: (Int, Int) throws -> Void) rethrows {
        let end = Int(nodes[object].extent)
        var index = object + 1
        while index < end {
            try body(index, index + 1)
            index = next(after: index + 1)
        }
    }

    /// Calls `body(position, valueIndex)` for each element of an array.
    @inline(__always)
    func forEachElement(of array: Int, _ body: (Int, Int) throws -> Void) rethrows {
        let end = Int(nodes[array].extent)
        var index = array + 1
        var position = 0
        while index < end {
            try body(position, index)
            position += 1
            index = next(after: index)
        }
    }

    func count(of container: Int) -> Int {
        var count = 0
        if kind(container) == .object {
            forEachMember(of: container) { _, _ in count += 1 }
        } else {
            forEachElement(of: container) { _, _ in count += 1 }
        }
        return count
    }

    /// The raw bytes of a string (without quotes, escapes undecoded) or a number.
    func rawBytes(_ index: Int) -> UnsafeRawBufferPointer {
        let node = nodes[index]
        let start = Int(node.offset)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + Int(node.extent)])
    }

    /// Whether a string node holds exactly `literal` (which has no escapes); compares bytes, no allocation.
    @inline(__always)
    func stringEquals(_ index: Int, _ literal: StaticString) -> Bool {
        let node = nodes[index]
        guard node.kind == .string, Int(node.extent) == literal.utf8CodeUnitCount else {
            return node.kind == .escapedString && string(index) == literal.description
        }
        return memcmp(bytes.baseAddress! + Int(node.offset), literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    /// The decoded text of a string node.
    func string(_ index: Int) -> String {
        let raw = rawBytes(index)
        if nodes[index].kind == .string { return String(decoding: raw, as: UTF8.self) }
        return JSONStringDecoder.decode(raw)
    }

    /// The source text of any scalar node, for messages (strings without their quotes).
    func sourceText(_ index: Int, limit: Int = 40) -> String {
        switch kind(index) {
        case .object: return "{…}"
        case .array: return "[…]"
        case .trueValue: return "true"
        case .falseValue: return "false"
        case .null: return "null"
        case .string, .escapedString:
            let text = string(index)
            return text.count > limit ? String(text.prefix(limit)) + "…" : text
        case .number:
            let raw = rawBytes(index)
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw.prefix(limit)), as: UTF8.self)
            return raw.count > limit ? text + "…" : text
        }
    }

    /// "an object", "the string \"x\"", "the number 3" — for type-mismatch messages.
    func describe(_ index: Int) -> String {
        switch kind(index) {
        case .object: return "an object"
        case .array: return "an array"
        case .string, .escapedString: return "the string \"\(sourceText(index))\""
        case .number: return "the number \(sourceText(index))"
        case .trueValue, .falseValue: return "the boolean \(sourceText(index))"
        case .null: return "null"
        }
    }

    /// The value of a number node (the parser has already checked its syntax).
    func number(_ index: Int) -> Double { JSONNumberParser.double(from: rawBytes(index)) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
