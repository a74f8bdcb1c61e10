import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibSerialPortFailure {
    /// The error a user sees: the reason and hint of ``TransportError`` (the `dialout` group for
    /// EACCES, ModemManager for EBUSY, ...), the device, the C function, the OS error and, when
    /// libserialport's own words say more than the OS error's name, those words too.
    ///
    /// With `duringIO`, the errors an unplugged device gives (EIO, ENXIO, ENODEV, EPIPE) mean
    /// `.disconnected`, not "no such device".
    func transportError(device: String, duringIO: Bool = false) -> TransportError {
        switch code {
        case .fail:
            return osTransportError(device: device, duringIO: duringIO)
        case .argument:
            if function == "sp_get_port_by_name" {
                return TransportError(
                    .notFound, device: device, operation: function,
                    detail:
                        "libserialport does not know this device (SP_ERR_ARG): it accepts only serial ports the kernel lists in /sys/class/tty, not pseudo-terminals; check the path and that the board is plugged in"
                )
            }
            if function.hasPrefix("sp_set_") {
                return TransportError(
                    .unsupportedConfiguration, device: device, operation: function,
                    detail: "libserialport refused the setting (SP_ERR_ARG)")
            }
            return TransportError(
                .system, device: device, operation: function,
                detail: "libserialport rejected an argument (SP_ERR_ARG)")
        case .memory:
            return TransportError(
                .system, device: device, operation: function,
                detail: "libserialport ran out of memory (SP_ERR_MEM)")
        case .unsupported:
            return TransportError(
                .unsupportedConfiguration, device: device, operation: function,
                detail: "not supported by libserialport for this device or OS (SP_ERR_SUPP)")
        }
    }

    private func osTransportError(device: String, duringIO: Bool) -> TransportError {
        guard osError != 0 else {
            return TransportError(
                .system, device: device, operation: function,
                detail: "libserialport: \(osMessage ?? "failed without an OS error") (SP_ERR_FAIL)")
        }
        var error: TransportError
        if duringIO, [EIO, ENXIO, ENODEV, EPIPE].contains(osError) {
            error = TransportError(
                .disconnected, device: device, operation: function, errno: osError,
                detail: "the device is gone: it was unplugged or reset")
        } else {
            error = TransportError.system(osError, operation: function, device: device)
        }
        // The OS message is already in the description when it is strerror's; add it otherwise.
        if let osMessage, !osMessage.isEmpty, osMessage != String(cString: strerror(osError)) {
            error.detail = [error.detail, "libserialport: \(osMessage)"].compactMap { $0 }.joined(separator: "; ")
        }
        return error
    }

    /// Whether libserialport refused the device itself rather than failing on a real port:
    /// it does not know the path (pseudo-terminals, symlinks outside /dev), or the device lacks
    /// the modem-control ioctls (`TIOCMGET` → ENOTTY on pseudo-terminals and USB gadget ports).
    /// Such paths are opened with termios instead.
    var refusesDevice: Bool {
        switch code {
        case .argument: function == "sp_get_port_by_name"
        case .unsupported: true
        case .fail: function == "sp_open" && (osError == ENOTTY || osError == EINVAL)
        case .memory: false
        }
    }
}
