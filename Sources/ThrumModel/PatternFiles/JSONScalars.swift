/// Decodes the escapes of a JSON string whose syntax the tape parser has already checked.
enum JSONStringDecoder {
    static func decode(_ raw: UnsafeRawBufferPointer) -> String {
        var scalars = String.UnicodeScalarView()
        var plain: [UInt8] = []
        var index = 0
        func flushPlain() {
            if !plain.isEmpty {
                scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
                plain.removeAll(keepingCapacity: true)
            }
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                plain.append(byte)
                index += 1
                continue
            }
            flushPlain()
            let code = raw[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = hex4(raw, at: index)
                index += 4
                // A surrogate pair spells one scalar; a lone surrogate becomes U+FFFD.
                if (0xD800..<0xDC00).contains(unit), index + 5 < raw.count + 0,
                    raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(raw, at: index + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(code))
            }
        }
        flushPlain()
        return String(scalars)
    }

    private static func hex4(_ raw: UnsafeRawBufferPointer, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 where index + offset < raw.count {
            let byte = raw[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            default: digit = (byte | 0x20) - UInt8(ascii: "a") + 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}

/// Converts JSON number text to `Double`, correctly rounded.
///
/// The common case (up to 19 significant digits and a small exponent, e.g. `0.25`, `1.0`, `0.123`) takes
/// Clinger's exact fast path; anything else falls back to the C library's correctly rounded conversion.
enum JSONNumberParser {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func double(from raw: UnsafeRawBufferPointer) -> Double {
        var index = 0
        let count = raw.count
        var negative = false
        if index < count, raw[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var decimalExponent = 0
        var exact = true
        while index < count, raw[index] &- UInt8(ascii: "0") < 10 {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(raw[index] &- UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
            } else {
                exact = false
            }
            index += 1
        }
        if index < count, raw[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, raw[index] &- UInt8(ascii: "0") < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(raw[index] &- UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                    decimalExponent -= 1
                } else {
                    exact = false
                }
                index += 1
            }
        }
        if index < count, raw[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, raw[index] == UInt8(ascii: "+") || raw[index] == UInt8(ascii: "-") {
                exponentNegative = raw[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            while index < count, raw[index] &- UInt8(ascii: "0") < 10 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(raw[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            decimalExponent += exponentNegative ? -exponent : exponent
        }
        if exact, mantissa <= 1 << 53, (-22...22).contains(decimalExponent) {
            var value = Double(mantissa)
            if decimalExponent < 0 {
                value /= powersOfTen[-decimalExponent]
            } else {
                value *= powersOfTen[decimalExponent]
            }
            return negative ? -value : value
        }
        if exact, mantissa == 0 { return negative ? -0.0 : 0.0 }
        return slowDouble(raw)
    }

    private static func slowDouble(_ raw: UnsafeRawBufferPointer) -> Double {
        let text = String(decoding: raw, as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The `Float` nearest to the number's text. Converting through `Double` rounds twice, which differs from
    /// rounding once only when the `Double` lies exactly halfway between two floats; then the text is reparsed.
    static func float(from raw: UnsafeRawBufferPointer, double: Double) -> Float {
        let single = Float(double)
        guard single.isFinite, Double(single) != double, isHalfwayBetweenFloats(double) else { return single }
        return Float(String(decoding: raw, as: UTF8.self)) ?? single
    }

    private static func isHalfwayBetweenFloats(_ value: Double) -> Bool {
        // A Double has 52 fraction bits, a Float 23: halfway means the 29 dropped bits are 1000…0.
        let dropped = value.significandBitPattern & ((1 << 29) - 1)
        return dropped == 1 << 28
    }
}
