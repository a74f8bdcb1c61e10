/// A board named by its USB identity: `usb:VID:PID` or `usb:VID:PID:SERIAL`, ids in hexadecimal
/// as `lsusb` prints them (`usb:2341:0043`, `usb:0x2e8a:000a:E6614C311B4A8C2F`).
/// Stable across replugging and reboots, unlike `/dev/ttyACM0`.
public struct USBDeviceAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    public var vendorID: UInt16
    public var productID: UInt16
    /// When nil, any serial number matches (and more than one such board is an error).
    public var serialNumber: String?

    public init(vendorID: UInt16, productID: UInt16, serialNumber: String? = nil) {
        self.vendorID = vendorID
        self.productID = productID
        self.serialNumber = serialNumber
    }

    /// The canonical text: `usb:2341:0043[:SERIAL]`, lowercase four-digit ids.
    public var description: String {
        var text = "usb:\(Self.hex4(vendorID)):\(Self.hex4(productID))"
        if let serialNumber { text += ":\(serialNumber)" }
        return text
    }

    /// The prefix that marks a USB address among device addresses.
    public static let scheme = "usb:"

    /// Whether `text` is meant as a USB address (starts with `usb:`, any case).
    public static func isUSBAddress(_ text: String) -> Bool {
        text.lowercased().hasPrefix(scheme)
    }

    /// Parses `usb:VID:PID[:SERIAL]`. The serial number is everything after the third colon
    /// (it may contain colons); ids are 1–4 hex digits, optionally with `0x`.
    public init(parsing text: String) throws(SerialPortLookupError) {
        guard Self.isUSBAddress(text) else {
            throw .malformedAddress(text, problem: "it does not start with 'usb:'")
        }
        let rest = text.dropFirst(Self.scheme.count)
        let parts = rest.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else {
            throw .malformedAddress(text, problem: "expected usb:VID:PID or usb:VID:PID:SERIAL")
        }
        vendorID = try Self.parseID(parts[0], what: "vendor id", in: text)
        productID = try Self.parseID(parts[1], what: "product id", in: text)
        if parts.count == 3 {
            guard !parts[2].isEmpty else {
                throw .malformedAddress(text, problem: "the serial number after the last ':' is empty")
            }
            serialNumber = String(parts[2])
        } else {
            serialNumber = nil
        }
    }

    /// Whether `identity` is this board.
    public func matches(_ identity: USBIdentity) -> Bool {
        identity.vendorID == vendorID && identity.productID == productID
            && (serialNumber == nil || identity.serialNumber == serialNumber)
    }

    /// The one port among `ports` that this address names.
    /// Throws when none matches (naming the USB ports there are) or, without a serial number,
    /// when several do (naming their serial numbers, so the user can pick one).
    public func resolve(in ports: [SerialPortInfo]) throws(SerialPortLookupError) -> SerialPortInfo {
        let matching = ports.filter { port in port.usb.map(matches) ?? false }
        switch matching.count {
        case 1: return matching[0]
        case 0: throw .noMatch(self, available: ports.filter { $0.usb != nil })
        default: throw .ambiguous(self, matches: matching)
        }
    }

    // MARK: helpers

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    private static func parseID(
        _ field: Substring, what: String, in text: String
    ) throws(SerialPortLookupError) -> UInt16 {
        var digits = field
        if digits.lowercased().hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isHexDigit),
            let value = UInt16(digits, radix: 16)
        else {
            throw .malformedAddress(text, problem: "the \(what) '\(field)' is not 1 to 4 hexadecimal digits")
        }
        return value
    }
}
