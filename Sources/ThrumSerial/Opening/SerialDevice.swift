import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a board's serial device by address, choosing the transport:
/// - a path (`/dev/ttyACM0`, `/dev/pts/3`, `/dev/serial/by-id/...`): libserialport first; when
///   libserialport refuses the device (pseudo-terminals, which it cannot open, and names it does
///   not know), termios (``TermiosTransport``) instead;
/// - `usb:VID:PID[:SERIAL]`: the one USB serial port with that identity, then as a path.
public enum SerialDevice {
    /// Which transport serves an opened device, and why.
    public enum Backend: Sendable, Equatable, CustomStringConvertible {
        case libserialport
        /// libserialport refused the path; `reason` is its error.
        case termios(reason: String)

        public var description: String {
            switch self {
            case .libserialport: "libserialport"
            case .termios(let reason): "termios (libserialport refused the device: \(reason))"
            }
        }
    }

    /// An opened device.
    public struct Opened: Sendable {
        public var transport: any ByteTransport
        public var backend: Backend
        /// The device path that was opened.
        public var path: String
        /// The port's description, when it was found by USB identity.
        public var port: SerialPortInfo?
    }

    /// Opens `address`: a `usb:` address or a device path. Throws ``TransportError`` when the
    /// device cannot be opened, ``SerialPortLookupError`` when a `usb:` address is malformed or
    /// does not name exactly one port.
    public static func open(_ address: String, settings: SerialSettings = SerialSettings()) throws -> Opened {
        try open(address, settings: settings, using: .live)
    }

    /// Opens the path, falling back to termios when libserialport refuses it.
    public static func open(path: String, settings: SerialSettings = SerialSettings()) throws(TransportError) -> Opened
    {
        try open(path: path, settings: settings, using: .live)
    }

    /// Opens the one port with this USB identity.
    public static func open(usb address: USBDeviceAddress, settings: SerialSettings = SerialSettings()) throws -> Opened
    {
        try open(usb: address, settings: settings, using: .live)
    }

    // MARK: with replaceable parts (tests)

    struct Parts: Sendable {
        var calls: LibSerialPortCalls
        var tuning: SerialPortTuning
        var openTermios:
            @Sendable (_ path: String, _ settings: SerialSettings) throws(TransportError) -> any ByteTransport
        /// The device node behind a path (`realpath(3)`), or nil when it cannot be resolved.
        var resolveSymlinks: @Sendable (_ path: String) -> String? = SerialDevice.realPath

        static let live = Parts(calls: .live, tuning: .standard) { path, settings throws(TransportError) in
            try TermiosTransport.open(path: path, settings: settings)
        }
    }

    /// `realpath(3)`: libserialport 0.1.1 finds a port by its node's name in sysfs, so a udev
    /// symlink (`/dev/serial/by-id/usb-...`) must be resolved to `/dev/ttyACM0` first.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func open(_ address: String, settings: SerialSettings, using parts: Parts) throws -> Opened {
        if USBDeviceAddress.isUSBAddress(address) {
            return try open(usb: USBDeviceAddress(parsing: address), settings: settings, using: parts)
        }
        return try open(path: address, settings: settings, using: parts)
    }

    static func open(usb address: USBDeviceAddress, settings: SerialSettings, using parts: Parts) throws -> Opened {
        let ports = try SerialPorts.list(calls: parts.calls)
        let port = try address.resolve(in: ports)
        var opened = try open(path: port.path, settings: settings, using: parts)
        opened.port = port
        return opened
    }

    static func open(path: String, settings: SerialSettings, using parts: Parts) throws(TransportError) -> Opened {
        try settings.validate(device: path)
        let node = parts.resolveSymlinks(path) ?? path
        let opened: OpenedPort
        do {
            opened = try OpenedPort.open(path: node, settings: settings, calls: parts.calls)
        } catch  where error.refusesDevice {
            // A pseudo-terminal (the simulator, a QEMU board) or a name libserialport does not
            // know: termios serves it; if termios cannot either, its error is the clearer one.
            let reason = error.transportError(device: path).description
            let transport = try parts.openTermios(path, settings)
            return Opened(transport: transport, backend: .termios(reason: reason), path: path)
        } catch {
            throw error.transportError(device: path)
        }
        let transport = SerialPortTransport(
            opened: opened, name: path, settings: settings, calls: parts.calls, tuning: parts.tuning)
        return Opened(transport: transport, backend: .libserialport, path: path)
    }
}
