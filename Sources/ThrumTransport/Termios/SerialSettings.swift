#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Line settings for a tty. The protocol needs 8 data bits, no parity, one stop bit and raw
/// bytes, so those are fixed; the rest is configurable.
public struct SerialSettings: Sendable, Equatable {
    public enum FlowControl: Sendable, Equatable {
        case none
        /// RTS/CTS.
        case hardware
    }

    /// Bits per second. Must be one of ``supportedBaudRates`` (ignored by pseudo-terminals).
    public var baudRate: Int
    public var flowControl: FlowControl
    /// Drop DTR/RTS when the port is closed (HUPCL). Off by default: on boards whose reset is
    /// wired to DTR (Arduino Uno class), dropping it resets the board.
    public var hangUpOnClose: Bool
    /// Take the tty for ourselves (TIOCEXCL) so a second program cannot open it and steal bytes.
    public var exclusive: Bool
    /// Drop bytes that arrived before we opened (stale output of an earlier session).
    public var discardStaleInput: Bool
    /// Received bytes buffered for a slow reader before we stop reading the device
    /// (the kernel then buffers, and flow control, if any, holds the sender).
    public var receiveBufferSize: Int

    public init(
        baudRate: Int = 115_200,
        flowControl: FlowControl = .none,
        hangUpOnClose: Bool = false,
        exclusive: Bool = true,
        discardStaleInput: Bool = true,
        receiveBufferSize: Int = 256 * 1024
    ) {
        self.baudRate = baudRate
        self.flowControl = flowControl
        self.hangUpOnClose = hangUpOnClose
        self.exclusive = exclusive
        self.discardStaleInput = discardStaleInput
        self.receiveBufferSize = receiveBufferSize
    }

    /// The standard rates this platform's termios accepts.
    public static var supportedBaudRates: [Int] { baudConstants.map(\.rate) }

    /// Rate → termios speed constant. (1200 baud is missing on purpose: on native-USB boards,
    /// opening at 1200 baud is the "touch" that reboots them into the bootloader.)
    static let baudConstants: [(rate: Int, speed: speed_t)] = {
        var table: [(Int, speed_t)] = [
            (300, speed_t(B300)), (600, speed_t(B600)), (2400, speed_t(B2400)), (4800, speed_t(B4800)),
            (9600, speed_t(B9600)), (19_200, speed_t(B19200)), (38_400, speed_t(B38400)),
            (57_600, speed_t(B57600)), (115_200, speed_t(B115200)), (230_400, speed_t(B230400)),
        ]
        #if os(Linux)
        table += [
            (460_800, speed_t(B460800)), (500_000, speed_t(B500000)), (576_000, speed_t(B576000)),
            (921_600, speed_t(B921600)), (1_000_000, speed_t(B1000000)), (1_152_000, speed_t(B1152000)),
            (1_500_000, speed_t(B1500000)), (2_000_000, speed_t(B2000000)), (2_500_000, speed_t(B2500000)),
            (3_000_000, speed_t(B3000000)), (3_500_000, speed_t(B3500000)), (4_000_000, speed_t(B4000000)),
        ]
        #endif
        return table
    }()

    static func speed(for rate: Int) -> speed_t? {
        baudConstants.first { $0.rate == rate }?.speed
    }

    /// Checks what can be checked without a device (every transport that takes these settings
    /// calls it, so the words are the same whichever opens the port).
    public func validate(device: String) throws(TransportError) {
        guard SerialSettings.speed(for: baudRate) != nil else {
            let hint =
                baudRate == 1200
                ? "1200 baud is refused: it reboots native-USB boards into their bootloader"
                : "supported rates: \(SerialSettings.supportedBaudRates.map(String.init).joined(separator: ", "))"
            throw TransportError(
                .unsupportedConfiguration, device: device, detail: "baud rate \(baudRate) is not supported; \(hint)")
        }
        guard receiveBufferSize > 0 else {
            throw TransportError(
                .unsupportedConfiguration, device: device,
                detail: "receive buffer size must be positive, not \(receiveBufferSize)")
        }
    }

    /// `settings` changed to raw 8N1 at our rate: no echo, no line editing, no signals, no
    /// CR/LF translation, no software flow control — every byte passes unchanged.
    func applied(to settings: termios) -> termios {
        var raw = settings
        cfmakeraw(&raw)
        raw.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY | INPCK | ISTRIP)
        raw.c_cflag &= ~tcflag_t(CSTOPB | PARENB)
        raw.c_cflag |= tcflag_t(CLOCAL | CREAD | CS8)
        if flowControl == .hardware {
            raw.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            raw.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        if hangUpOnClose {
            raw.c_cflag |= tcflag_t(HUPCL)
        } else {
            raw.c_cflag &= ~tcflag_t(HUPCL)
        }
        // Non-blocking reads return what is there; VMIN/VTIME only matter to blocking readers.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if let speed = SerialSettings.speed(for: baudRate) {
            cfsetispeed(&raw, speed)
            cfsetospeed(&raw, speed)
        }
        return raw
    }

    /// Whether `actual` (read back after `tcsetattr`) carries what `applied` asked for.
    /// `tcsetattr` succeeds when any part of a change was applied, so we read back and compare.
    func mismatch(in actual: termios) -> String? {
        let localOff = tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN)
        if actual.c_lflag & localOff != 0 { return "line discipline still cooks input (ICANON/ECHO/ISIG)" }
        if actual.c_oflag & tcflag_t(OPOST) != 0 { return "output post-processing (OPOST) still on" }
        if actual.c_iflag & tcflag_t(ICRNL | INLCR | IGNCR | IXON) != 0 {
            return "input translation (ICRNL/INLCR/IGNCR/IXON) still on"
        }
        if actual.c_cflag & tcflag_t(CSIZE) != tcflag_t(CS8) { return "character size is not 8 bits" }
        if actual.c_cflag & tcflag_t(PARENB) != 0 { return "parity still on" }
        var readBack = actual
        if let speed = SerialSettings.speed(for: baudRate), cfgetospeed(&readBack) != speed {
            return "the driver did not accept \(baudRate) baud"
        }
        return nil
    }
}
