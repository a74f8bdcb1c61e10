import Testing
import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real libserialport on this machine: it refuses pseudo-terminals (ARCHITECTURE.md decision 3),
/// and the opener serves them with termios.
@Suite(.timeLimit(.minutes(5))) struct RealDeviceTests {
    @Test("libserialport itself refuses a pseudo-terminal, naming sp_get_port_by_name")
    func libserialportRefusesPty() async throws {
        let pty = try PseudoTerminal.open()
        let error = thrownError { _ = try SerialPortTransport.open(path: pty.devicePath) }
        let failure = try #require(error as? TransportError)
        #expect(failure.reason == .notFound)
        #expect(failure.operation == "sp_get_port_by_name")
        #expect(failure.description.contains(pty.devicePath))
        await pty.controller.close()
    }

    @Test("the opener falls back to termios for a real pseudo-terminal, and bytes flow both ways")
    func ptyFallback() async throws {
        let pty = try PseudoTerminal.open()
        let opened = try SerialDevice.open(pty.devicePath)
        guard case .termios(let reason) = opened.backend else {
            Issue.record("expected termios, got \(opened.backend)")
            return
        }
        #expect(reason.contains("sp_get_port_by_name"))
        #expect(opened.transport is TermiosTransport)
        let bytes = (0...255).map(UInt8.init)
        try await opened.transport.write(bytes)
        #expect(try await read(bytes.count, from: pty.controller) == bytes)
        try await pty.controller.write([0x7E, 0x00, 0x7D])
        #expect(try await read(3, from: opened.transport) == [0x7E, 0x00, 0x7D])
        await opened.transport.close()
        await pty.controller.close()
    }

    @Test("symlinks are resolved with realpath; a missing path resolves to nothing")
    func realPath() async throws {
        let pty = try PseudoTerminal.open()
        let link = "/tmp/thrum-serial-test-link-\(getpid())"
        unlink(link)
        #expect(symlink(pty.devicePath, link) == 0)
        #expect(SerialDevice.realPath(link) == pty.devicePath)
        #expect(SerialDevice.realPath("/dev/thrum-no-such-board") == nil)
        unlink(link)
        await pty.controller.close()
    }

    @Test("a path that does not exist is reported as not found, by the termios attempt")
    func missingPath() {
        let error = thrownError { _ = try SerialDevice.open("/dev/thrum-no-such-board") }
        let failure = error as? TransportError
        #expect(failure?.reason == .notFound)
        #expect(failure?.errno == ENOENT)
        #expect(failure?.description.contains("/dev/thrum-no-such-board") == true)
    }

    @Test("a real usb: lookup with no such board says which USB ports there are")
    func realUSBLookup() {
        let error = thrownError { _ = try SerialDevice.open("usb:1209:fffe:thrum-test-none") }
        guard case .noMatch? = error as? SerialPortLookupError else {
            Issue.record("expected noMatch, got \(String(describing: error))")
            return
        }
        #expect("\(error!)".contains("usb:1209:fffe:thrum-test-none"))
    }
}
