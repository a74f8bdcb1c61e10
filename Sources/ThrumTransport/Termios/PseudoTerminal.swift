import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A new pseudo-terminal pair: the controlling side as a transport, and the path of the device
/// side, which a client opens like a serial port (`TermiosTransport.open(path:)`, `screen`, ...).
/// This is how the simulator offers itself to other programs (`thrum sim --pty`).
public struct PseudoTerminal: Sendable {
    /// The controlling side (`posix_openpt`), already raw.
    public let controller: TermiosTransport
    /// The device side's path, e.g. `/dev/pts/3`.
    public let devicePath: String

    /// Opens a pair. With `keepDeviceOpen`, we hold the device side open ourselves, so clients
    /// can come and go without the controller seeing a hang-up (a server's choice); without it,
    /// the controller reports `.disconnected` once its client closes (a one-shot link's choice).
    public static func open(keepDeviceOpen: Bool = false) throws(TransportError) -> PseudoTerminal {
        let (descriptor, path) = try openController()
        var companions: [FileDescriptor] = []
        if keepDeviceOpen {
            do {
                companions.append(
                    try SystemCalls.live.open(path, [.noControllingTerminal, .nonBlocking, .closeOnExec]))
            } catch {
                SystemCalls.live.close(descriptor)
                throw TransportError.system(error.rawValue, operation: "open", device: path)
            }
        }
        // On Linux the controller's termios calls configure the device side: make it raw now,
        // before any client opens it, so nothing is echoed or translated in between.
        let settings = SerialSettings(exclusive: false, discardStaleInput: false)
        let controller = try TermiosTransport(
            descriptor: descriptor, name: "pty controller for \(path)", settings: settings,
            calls: .live, companions: companions)
        return PseudoTerminal(controller: controller, devicePath: path)
    }
}

/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` are hidden from Swift by glibc's
/// feature macros, so on Linux we do what they do: open `/dev/ptmx`, unlock with `TIOCSPTLCK`,
/// and ask the number with `TIOCGPTN` (devpts sets the owner and mode itself).
private func openController() throws(TransportError) -> (descriptor: FileDescriptor, path: String) {
    func fail(_ operation: String, closing descriptor: Int32) -> TransportError {
        let error = TransportError.system(errno, operation: operation, device: "/dev/ptmx")
        SystemCalls.live.close(FileDescriptor(rawValue: descriptor))
        return error
    }
    #if os(Linux)
    let controller: FileDescriptor
    do {
        controller = try SystemCalls.live.open("/dev/ptmx", [.noControllingTerminal, .closeOnExec])
    } catch {
        throw TransportError.system(error.rawValue, operation: "open", device: "/dev/ptmx")
    }
    let descriptor = controller.rawValue
    let lockRequest: UInt = 0x4004_5431  // TIOCSPTLCK = _IOW('T', 0x31, int)
    let numberRequest: UInt = 0x8004_5430  // TIOCGPTN = _IOR('T', 0x30, unsigned int)
    var unlock: Int32 = 0
    guard ioctl(descriptor, lockRequest, &unlock) == 0 else { throw fail("ioctl(TIOCSPTLCK)", closing: descriptor) }
    var number: UInt32 = 0
    guard ioctl(descriptor, numberRequest, &number) == 0 else { throw fail("ioctl(TIOCGPTN)", closing: descriptor) }
    return (controller, "/dev/pts/\(number)")
    #else
    let descriptor = posix_openpt(O_RDWR | O_NOCTTY)
    guard descriptor >= 0 else {
        throw TransportError.system(errno, operation: "posix_openpt", device: "/dev/ptmx")
    }
    guard grantpt(descriptor) == 0, unlockpt(descriptor) == 0, let name = ptsname(descriptor) else {
        throw fail("grantpt/unlockpt/ptsname", closing: descriptor)
    }
    return (FileDescriptor(rawValue: descriptor), String(cString: name))
    #endif
}
