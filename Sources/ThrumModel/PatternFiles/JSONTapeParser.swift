/// A fast, tolerant JSON parser that writes a `JSONNode` tape in one pass over the bytes.
///
/// Tolerates what real AHAP files contain and Apple's reader accepts: trailing commas before `]` and `}`,
/// a UTF-8 byte-order mark. Everything else is strict JSON, and the first problem stops the parse with its
/// byte offset. Nesting depth, string length and number length are limited.
struct JSONTapeParser {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let limits: PatternLimits
    private var position = 0
    private var nodes: [JSONNode] = []
    /// Open containers: tape index of each, and whether it is an object.
    private var openIndices: [Int] = []
    private var openIsObject: [Bool] = []

    static func parse(_ bytes: UnsafeRawBufferPointer, limits: PatternLimits) -> Result<[JSONNode], JSONSyntaxError> {
        guard let address = bytes.baseAddress, bytes.count > 0 else {
            return .failure(JSONSyntaxError(offset: 0, message: "the file is empty"))
        }
        guard bytes.count <= limits.maxFileBytes, bytes.count < Int(UInt32.max) else {
            return .failure(
                JSONSyntaxError(
                    offset: 0,
                    message: "the file is \(bytes.count) bytes, more than the limit of \(limits.maxFileBytes) bytes"))
        }
        var parser = JSONTapeParser(
            base: address.assumingMemoryBound(to: UInt8.self), count: bytes.count, limits: limits)
        do {
            try parser.run()
            return .success(parser.nodes)
        } catch {
            var located = error
            located.path = parser.openPath(bytes)
            return .failure(located)
        }
    }

    private init(base: UnsafePointer<UInt8>, count: Int, limits: PatternLimits) {
        self.base = base
        self.count = count
        self.limits = limits
        // Every value takes at least two bytes ("0,"), so this never regrows: no copying, no doubled peak.
        // Large reservations are mapped lazily by the allocator, so untouched capacity costs no memory.
        nodes.reserveCapacity(Swift.min(count / 2 + 2, limits.maxJSONValues + 1))
    }

    private enum State { case value, key, afterValue }

    private mutating func run() throws(JSONSyntaxError) {
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        if count >= 2,
            (base[0] == 0xFF && base[1] == 0xFE) || (base[0] == 0xFE && base[1] == 0xFF)
                || (base[0] == 0 || (count >= 2 && base[1] == 0))
        {
            throw failure("the file is UTF-16 or UTF-32 text; pattern files must be UTF-8")
        }
        var state = State.value
        while true {
            switch state {
            case .value:
                skipWhitespace()
                guard position < count else { throw failure("the file ends where a value was expected") }
                let byte = base[position]
                switch byte {
                case UInt8(ascii: "{"):
                    try open(isObject: true)
                    skipWhitespace()
                    if position < count, base[position] == UInt8(ascii: "}") {
                        position += 1
                        close()
                        state = .afterValue
                    } else {
                        state = .key
                    }
                case UInt8(ascii: "["):
                    try open(isObject: false)
                    skipWhitespace()
                    if position < count, base[position] == UInt8(ascii: "]") {
                        position += 1
                        close()
                        state = .afterValue
                    } else {
                        state = .value
                    }
                case UInt8(ascii: "\""):
                    try string()
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try number()
                    state = .afterValue
                case UInt8(ascii: "t"):
                    try literal("true", .trueValue)
                    state = .afterValue
                case UInt8(ascii: "f"):
                    try literal("false", .falseValue)
                    state = .afterValue
                case UInt8(ascii: "n"):
                    try literal("null", .null)
                    state = .afterValue
                default:
                    throw unexpected(byte, expected: "a value")
                }
            case .key:
                skipWhitespace()
                guard position < count else { throw failure("the file ends inside an object; expected a key") }
                guard base[position] == UInt8(ascii: "\"") else {
                    throw unexpected(base[position], expected: "a key in double quotes")
                }
                try string()
                skipWhitespace()
                guard position < count else { throw failure("the file ends after a key; expected ':'") }
                guard base[position] == UInt8(ascii: ":") else {
                    throw unexpected(base[position], expected: "':' after the key")
                }
                position += 1
                state = .value
            case .afterValue:
                skipWhitespace()
                guard let isObject = openIsObject.last else {
                    guard position == count else {
                        throw failure("unexpected text after the end of the JSON document")
                    }
                    return
                }
                guard position < count else {
                    throw failure(
                        "the file ends inside \(isObject ? "an object" : "an array"); expected ',' or '\(isObject ? "}" : "]")'"
                    )
                }
                let byte = base[position]
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if position < count, base[position] == closer {  // trailing comma, as Apple's reader allows
                        position += 1
                        close()
                    } else {
                        state = isObject ? .key : .value
                    }
                } else if byte == closer {
                    position += 1
                    close()
                } else {
                    throw unexpected(byte, expected: "',' or '\(isObject ? "}" : "]")'")
                }
            }
        }
    }

    // MARK: Containers

    private mutating func open(isObject: Bool) throws(JSONSyntaxError) {
        guard openIndices.count < limits.maxNestingDepth else {
            throw failure("nesting deeper than \(limits.maxNestingDepth) levels")
        }
        openIndices.append(nodes.count)
        openIsObject.append(isObject)
        try checkValueCount()
        nodes.append(JSONNode(offset: UInt32(position), extent: 0, kind: isObject ? .object : .array))
        position += 1
    }

    private mutating func close() {
        let index = openIndices.removeLast()
        openIsObject.removeLast()
        nodes[index].extent = UInt32(nodes.count)
    }

    // MARK: Scalars

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) {
        let quote = position
        position += 1
        let start = position
        var escaped = false
        while true {
            // Fast scan over plain bytes.
            while position < count {
                let byte = base[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            guard position < count else {
                position = quote
                throw failure("the string that starts here is never closed")
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                throw failure("control character 0x\(String(byte, radix: 16)) inside a string (write it as an escape)")
            }
            escaped = true
            try escape()
        }
        let length = position - start
        guard length <= limits.maxStringBytes else {
            position = quote
            throw failure("a string of \(length) bytes, more than the limit of \(limits.maxStringBytes)")
        }
        try checkValueCount()
        nodes.append(JSONNode(offset: UInt32(start), extent: UInt32(length), kind: escaped ? .escapedString : .string))
        position += 1
    }

    private mutating func escape() throws(JSONSyntaxError) {
        guard position + 1 < count else { throw failure("the file ends inside an escape sequence") }
        switch base[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard position + 5 < count else { throw failure("the file ends inside a \\u escape") }
            for offset in 2...5 where !isHexDigit(base[position + offset]) {
                throw failure("a \\u escape needs four hexadecimal digits")
            }
            position += 6
        default:
            throw failure("invalid escape sequence '\\\(printable(base[position + 1]))' in a string")
        }
    }

    private mutating func number() throws(JSONSyntaxError) {
        let start = position
        if base[position] == UInt8(ascii: "-") { position += 1 }
        guard position < count, isDigit(base[position]) else {
            if position < count, base[position] == UInt8(ascii: "I") {
                throw failure("-Infinity is not a JSON number")
            }
            throw failure("invalid number: '-' must be followed by a digit")
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(base[position]) {
                position = start
                throw failure("invalid number: leading zeros are not allowed")
            }
        } else {
            while position < count, isDigit(base[position]) { position += 1 }
        }
        if position < count, base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, isDigit(base[position]) else {
                throw failure("invalid number: a digit must follow the decimal point")
            }
            while position < count, isDigit(base[position]) { position += 1 }
        }
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < count, isDigit(base[position]) else {
                throw failure("invalid number: the exponent needs digits")
            }
            while position < count, isDigit(base[position]) { position += 1 }
        }
        let length = position - start
        guard length <= limits.maxNumberCharacters else {
            position = start
            throw failure("a number of \(length) characters, more than the limit of \(limits.maxNumberCharacters)")
        }
        try checkValueCount()
        nodes.append(JSONNode(offset: UInt32(start), extent: UInt32(length), kind: .number))
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard position + length <= count,
            (0..<length).allSatisfy({ base[position + $0] == word.utf8Start[$0] })
        else { throw unexpected(base[position], expected: "a value") }
        try checkValueCount()
        nodes.append(JSONNode(offset: UInt32(position), extent: UInt32(length), kind: kind))
        position += length
    }

    // MARK: Errors

    /// The path to where parsing stopped, rebuilt from the containers still open (only done after an error).
    private func openPath(_ bytes: UnsafeRawBufferPointer) -> DiagnosticPath {
        var components: [DiagnosticPath.Component] = []
        for (depth, container) in openIndices.enumerated() {
            let end = depth + 1 < openIndices.count ? openIndices[depth + 1] : nodes.count
            var index = container + 1
            var children = 0
            var lastKey: Int?
            while index < end {
                if openIsObject[depth], children % 2 == 0 { lastKey = index }
                children += 1
                let node = nodes[index]
                let isOpen = depth + 1 < openIndices.count && index == openIndices[depth + 1]
                index = (node.kind == .object || node.kind == .array) && !isOpen ? Int(node.extent) : index + 1
            }
            if openIsObject[depth] {
                // Odd count: a key has been read and its value is in progress.
                guard children % 2 == 1, let lastKey else { break }
                let start = Int(nodes[lastKey].offset)
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<start + Int(nodes[lastKey].extent)])
                let key =
                    nodes[lastKey].kind == .string
                    ? String(decoding: raw, as: UTF8.self) : JSONStringDecoder.decode(raw)
                components.append(.key(key))
            } else {
                // The open child (if any) is not counted: it is the element at position `children`.
                components.append(.index(children))
            }
        }
        return DiagnosticPath(components)
    }

    @inline(__always)
    private func checkValueCount() throws(JSONSyntaxError) {
        if nodes.count >= limits.maxJSONValues {
            throw failure("the file holds more than \(limits.maxJSONValues) JSON values, more than the limit")
        }
    }

    private func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message)
    }

    private func unexpected(_ byte: UInt8, expected: String) -> JSONSyntaxError {
        switch byte {
        case UInt8(ascii: "/"):
            return failure("comments are not allowed in JSON; expected \(expected)")
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            return failure("NaN and Infinity are not JSON numbers; expected \(expected)")
        case UInt8(ascii: "'"):
            return failure("strings must use double quotes; expected \(expected)")
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            return failure("unexpected '\(printable(byte))'; expected \(expected)")
        default:
            return failure("unexpected character '\(printable(byte))'; expected \(expected)")
        }
    }

    private func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16)
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
