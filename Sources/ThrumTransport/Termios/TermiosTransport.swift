import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tty or pseudo-terminal opened with plain termios: raw 8N1 at the chosen rate, reads and
/// writes on a dedicated thread (see `DescriptorPump`).
///
/// Serves pseudo-terminals (the simulator's `thrum sim --pty`, a QEMU board), which
/// libserialport cannot open, and any serial port when libserialport is not used.
public final class TermiosTransport: ByteTransport {
    public let name: String
    private let pump: DescriptorPump

    /// Opens the device at `path` (`O_RDWR | O_NOCTTY | O_NONBLOCK`) and puts it in raw mode.
    /// Errors name the device, the failing call and the OS error, with a hint (see ``TransportError``).
    public static func open(
        path: String, settings: SerialSettings = SerialSettings()
    ) throws(TransportError) -> TermiosTransport {
        try open(path: path, settings: settings, calls: .live)
    }

    static func open(
        path: String, settings: SerialSettings, calls: SystemCalls
    ) throws(TransportError) -> TermiosTransport {
        try settings.validate(device: path)
        let descriptor: FileDescriptor
        do {
            descriptor = try calls.open(path, [.noControllingTerminal, .nonBlocking, .closeOnExec])
        } catch {
            throw TransportError.system(error.rawValue, operation: "open", device: path)
        }
        return try TermiosTransport(descriptor: descriptor, name: path, settings: settings, calls: calls)
    }

    /// Takes over an open terminal descriptor (it is closed with the transport). With `settings`,
    /// the line is configured as by ``open(path:settings:)``; with nil it is used as it is.
    public convenience init(
        adopting descriptor: Int32, name: String, settings: SerialSettings? = SerialSettings()
    ) throws(TransportError) {
        try self.init(descriptor: FileDescriptor(rawValue: descriptor), name: name, settings: settings, calls: .live)
    }

    init(
        descriptor: FileDescriptor, name: String, settings: SerialSettings?, calls: SystemCalls,
        companions: [FileDescriptor] = []
    ) throws(TransportError) {
        func closeAll() {
            calls.close(descriptor)
            companions.forEach(calls.close)
        }
        func fail(_ error: Errno, _ operation: String) -> TransportError {
            closeAll()
            return TransportError.system(error.rawValue, operation: operation, device: name)
        }
        do { try calls.isatty(descriptor) } catch { throw fail(error, "isatty") }
        do { try calls.setNonBlocking(descriptor) } catch { throw fail(error, "fcntl") }
        if let settings {
            // `open(path:)` checked already, before touching the device; adopted descriptors are checked here.
            do { try settings.validate(device: name) } catch {
                closeAll()
                throw error
            }
            if settings.exclusive {
                do { try calls.setExclusive(descriptor, true) } catch { throw fail(error, "ioctl(TIOCEXCL)") }
            }
            let current: termios
            do { current = try calls.tcgetattr(descriptor) } catch { throw fail(error, "tcgetattr") }
            let wanted = settings.applied(to: current)
            do { try calls.tcsetattr(descriptor, wanted) } catch { throw fail(error, "tcsetattr") }
            let actual: termios
            do { actual = try calls.tcgetattr(descriptor) } catch { throw fail(error, "tcgetattr") }
            if let problem = settings.mismatch(in: actual) {
                closeAll()
                throw TransportError(.unsupportedConfiguration, device: name, operation: "tcsetattr", detail: problem)
            }
            if settings.discardStaleInput {
                do { try calls.flushInput(descriptor) } catch { throw fail(error, "tcflush") }
            }
        }
        self.name = name
        self.pump = try DescriptorPump(
            descriptor: descriptor, device: name,
            receiveBufferSize: settings?.receiveBufferSize ?? SerialSettings().receiveBufferSize,
            calls: calls, releaseExclusive: settings?.exclusive ?? false, companions: companions)
    }

    deinit {
        // Dropped without close(): stop the thread and release the device anyway.
        pump.beginClosing()
    }

    public func read() async throws -> [UInt8] {
        try await pump.incoming.read()
    }

    public func write(_ bytes: [UInt8]) async throws {
        try await pump.write(bytes)
    }

    public func close() async {
        await pump.close()
    }

    /// The terminal settings the OS currently reports for the device (`tcgetattr(3)`), to check
    /// what the driver accepted.
    public func terminalAttributes() throws(TransportError) -> termios {
        try pump.withOpenDescriptor { descriptor throws(TransportError) in
            var settings = termios()
            guard tcgetattr(descriptor.rawValue, &settings) == 0 else {
                throw TransportError.system(errno, operation: "tcgetattr", device: name)
            }
            return settings
        }
    }
}
