import Foundation
import ThrumSerial

/// Where a board is: the embedded simulator, a serial device (or pseudo-terminal) path, or a USB
/// identity. Written as text: `sim`, `/dev/ttyACM0`, `/dev/pts/3`, `usb:2e8a:000a[:SERIAL]`.
public enum DeviceAddress: Sendable, Hashable, CustomStringConvertible {
    /// A simulated board in this process, running the firmware core.
    case simulator
    /// A serial device or pseudo-terminal path (libserialport, or termios when libserialport refuses it).
    case path(String)
    /// The one USB serial port with this identity.
    case usb(USBDeviceAddress)

    /// The environment variable that names the default device.
    public static let environmentVariable = "THRUM_DEVICE"

    /// `THRUM_DEVICE` when set and not empty, else the embedded simulator.
    public static var `default`: DeviceAddress {
        get throws {
            guard let text = ProcessInfo.processInfo.environment[environmentVariable], !text.isEmpty else {
                return .simulator
            }
            return try DeviceAddress(parsing: text)
        }
    }

    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "sim" || trimmed == "simulator" {
            self = .simulator
        } else if USBDeviceAddress.isUSBAddress(trimmed) {
            do { self = .usb(try USBDeviceAddress(parsing: trimmed)) } catch {
                throw HapticEngineError.badDeviceAddress(trimmed, cause: .init(error))
            }
        } else if trimmed.hasPrefix("/") || trimmed.hasPrefix(".") {
            self = .path(trimmed)
        } else {
            throw HapticEngineError.badDeviceAddress(trimmed)
        }
    }

    public var description: String {
        switch self {
        case .simulator: "sim"
        case .path(let path): path
        case .usb(let address): address.description
        }
    }
}
