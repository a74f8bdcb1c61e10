#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a transport operation failed, with the device, the C call and the OS error behind it,
/// worded so that a user knows what to do next.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// This end was closed by its owner.
        case closed
        /// The other side went away: the peer closed, or the device was unplugged (EIO, EOF, hang-up).
        case disconnected
        /// The device path does not exist (ENOENT, ENXIO, ENODEV).
        case notFound
        /// No permission to open the device (EACCES, EPERM).
        case permissionDenied
        /// Another program holds the device (EBUSY).
        case busy
        /// The path is not a terminal device (ENOTTY).
        case notATerminal
        /// The requested line settings cannot be applied.
        case unsupportedConfiguration
        /// Any other OS error.
        case system
    }

    public var reason: Reason
    /// The device path or transport name.
    public var device: String
    /// The C function that failed, when one did (`open`, `tcsetattr`, `read`, ...).
    public var operation: String?
    /// The OS error number, when one was reported.
    public var errno: Int32?
    /// Extra words for the user (what to try).
    public var detail: String?

    public init(_ reason: Reason, device: String, operation: String? = nil, errno: Int32? = nil, detail: String? = nil)
    {
        self.reason = reason
        self.device = device
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// Maps an OS error from `operation` on `device` to a reason and a hint.
    public static func system(_ code: Int32, operation: String, device: String) -> TransportError {
        switch code {
        case ENOENT, ENXIO, ENODEV:
            return TransportError(
                .notFound, device: device, operation: operation, errno: code,
                detail: "check the path and that the board is plugged in")
        case EACCES, EPERM:
            return TransportError(
                .permissionDenied, device: device, operation: operation, errno: code,
                detail:
                    "add your user to the group that owns the device (usually 'dialout': sudo usermod -aG dialout $USER, then log in again)"
            )
        case EBUSY:
            return TransportError(
                .busy, device: device, operation: operation, errno: code,
                detail: "another program has the device open (a serial monitor, ModemManager?); close it and retry")
        case ENOTTY:
            return TransportError(
                .notATerminal, device: device, operation: operation, errno: code,
                detail: "the path is not a serial port or pseudo-terminal")
        case EIO:
            return TransportError(
                .disconnected, device: device, operation: operation, errno: code,
                detail: "the device is gone: it was unplugged or reset, or the other end of the pseudo-terminal closed")
        default:
            return TransportError(.system, device: device, operation: operation, errno: code)
        }
    }

    /// A short summary of the reason, used at the start of the description.
    var headline: String {
        switch reason {
        case .closed: return "transport is closed"
        case .disconnected: return "device disconnected"
        case .notFound: return "no such device"
        case .permissionDenied: return "permission denied"
        case .busy: return "device is busy"
        case .notATerminal: return "not a terminal"
        case .unsupportedConfiguration: return "unsupported line settings"
        case .system: return "system error"
        }
    }

    public var description: String {
        var text = "\(headline): '\(device)'"
        if let operation { text += " (\(operation)" }
        if let errno {
            text += operation == nil ? " (" : ": "
            text += "\(TransportError.errnoName(errno)) \(String(cString: strerror(errno)))"
        }
        if operation != nil || errno != nil { text += ")" }
        if let detail { text += "; \(detail)" }
        return text
    }

    /// The symbolic name of the common error numbers, so messages can be searched for.
    static func errnoName(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "ENOENT"
        case ENXIO: return "ENXIO"
        case ENODEV: return "ENODEV"
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case EBUSY: return "EBUSY"
        case ENOTTY: return "ENOTTY"
        case EIO: return "EIO"
        case EINVAL: return "EINVAL"
        case EAGAIN: return "EAGAIN"
        case EBADF: return "EBADF"
        default: return "errno \(code)"
        }
    }
}
