/// Why a `usb:VID:PID[:SERIAL]` address did not lead to exactly one port.
public enum SerialPortLookupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a USB address; `problem` says what is wrong with it.
    case malformedAddress(String, problem: String)
    /// No port has this identity; `available` are the USB ports present.
    case noMatch(USBDeviceAddress, available: [SerialPortInfo])
    /// Several ports match an address without a serial number.
    case ambiguous(USBDeviceAddress, matches: [SerialPortInfo])

    public var description: String {
        switch self {
        case let .malformedAddress(text, problem):
            return
                "invalid USB device address '\(text)': \(problem) (write usb:VID:PID or usb:VID:PID:SERIAL, ids in hex as lsusb shows them, e.g. usb:2341:0043)"
        case let .noMatch(address, available):
            let present =
                available.isEmpty
                ? "no USB serial ports are present"
                : "USB serial ports present: " + available.map(Self.summary).joined(separator: ", ")
            return "no USB serial port matches \(address): \(present); check the cable and the ids with 'thrum ports'"
        case let .ambiguous(address, matches):
            return "\(matches.count) USB serial ports match \(address): "
                + matches.map(Self.summary).joined(separator: ", ")
                + "; add the serial number (usb:VID:PID:SERIAL) to choose one"
        }
    }

    /// `/dev/ttyACM0 (usb:2341:0043:SERIAL)`.
    private static func summary(_ port: SerialPortInfo) -> String {
        guard let address = port.usbAddress else { return port.path }
        return "\(port.path) (\(address))"
    }
}
