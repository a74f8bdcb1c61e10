import Foundation

/// Writes a property-list value (`[String: Any]`, arrays, strings, numbers, booleans, string-valued
/// `RawRepresentable`s) as JSON bytes, so that a dictionary goes through the same reader as a file.
/// Values JSON cannot hold are written so that the reader reports them: non-finite numbers as
/// strings ("nan"), other objects as `null`.
enum PropertyListJSON {
    static func encode(_ value: Any) -> [UInt8] {
        var output: [UInt8] = []
        write(value, depth: 0, to: &output)
        return output
    }

    private static func write(_ value: Any, depth: Int, to output: inout [UInt8]) {
        guard depth < 100 else {
            output += Array("null".utf8)
            return
        }
        // A Foundation number object (what JSONSerialization, PropertyListSerialization and
        // NSDictionary hold) says by its type code whether it is a boolean. Casting it to Bool
        // first would not do: on Linux an NSNumber 0 or 1 casts to Bool, so `"Time": 0.0` would
        // read as `false`.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            if String(cString: number.objCType) == "c" {
                output += Array((number.boolValue ? "true" : "false").utf8)
            } else {
                writeNumber(number.doubleValue, to: &output)
            }
            return
        }
        switch value {
        case let bool as Bool: output += Array((bool ? "true" : "false").utf8)
        case let int as Int: output += Array(String(int).utf8)
        case let double as Double: writeNumber(double, to: &output)
        case let float as Float: writeNumber(Double(float), to: &output, text: float.isFinite ? float.description : nil)
        case let string as String: AHAPWriter.writeString(string, to: &output)
        // A typed name that stands for a string (Core Haptics code writes
        // `.eventType: CHHapticEvent.EventType.hapticTransient`): its string.
        case let name as any RawRepresentable<String>: AHAPWriter.writeString(name.rawValue, to: &output)
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, depth: depth + 1, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case let dictionary as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                AHAPWriter.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(dictionary[key]!, depth: depth + 1, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        default:
            output += Array("null".utf8)
        }
    }

    private static func writeNumber(_ value: Double, to output: inout [UInt8], text: String? = nil) {
        if value.isFinite {
            output += Array((text ?? value.description).utf8)
        } else {
            AHAPWriter.writeString(value.description, to: &output)
        }
    }
}
