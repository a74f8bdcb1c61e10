import Testing
import ThrumTesting

@testable import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The termios transport on real pseudo-terminals, in-process.
@Suite(.timeLimit(.minutes(5))) struct PseudoTerminalTests {
    @Test("the device side is really raw: no echo, no line editing, no translation, 8 bits")
    func rawModeIsSet() async throws {
        let pty = try PseudoTerminal.open()
        let device = try TermiosTransport.open(path: pty.devicePath, settings: SerialSettings(baudRate: 1_000_000))
        var attributes = try device.terminalAttributes()
        #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO | ECHONL | ISIG | IEXTEN) == 0)
        #expect(attributes.c_iflag & tcflag_t(ICRNL | INLCR | IGNCR | IXON | IXOFF | ISTRIP) == 0)
        #expect(attributes.c_oflag & tcflag_t(OPOST) == 0)
        #expect(attributes.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(attributes.c_cflag & tcflag_t(PARENB | CSTOPB | HUPCL) == 0)
        #expect(attributes.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(cfgetospeed(&attributes) == speed_t(B1000000))
        await device.close()
        await pty.controller.close()
    }

    @Test("bytes that a cooked terminal would act on pass unchanged: CR, LF, ^C, ^D, XON/XOFF, DEL")
    func controlCharactersPass() async throws {
        let (controller, device) = try makePseudoTerminalPair()
        let special: [UInt8] = [0x0D, 0x0A, 0x03, 0x04, 0x11, 0x13, 0x7F, 0x00, 0x1A, 0x1C, 0x15, 0x17, 0x0D, 0x0D]
        try await controller.write(special)
        #expect(try await read(special.count, from: device) == special)
        try await device.write(special)
        #expect(try await read(special.count, from: controller) == special)
        await controller.close()
        await device.close()
    }

    @Test("a 1 MiB write arrives whole through a pseudo-terminal")
    func largeWrite() async throws {
        let (controller, device) = try makePseudoTerminalPair()
        let bytes = TransportConformance.pseudoRandomBytes(count: 1024 * 1024, seed: 11)
        async let received = read(bytes.count, from: controller)
        try await device.write(bytes)
        #expect(try await received == bytes)
        await controller.close()
        await device.close()
    }

    @Test("when the device side closes, the controller reports EIO as a disconnection naming the pty")
    func deviceSideCloses() async throws {
        let pty = try PseudoTerminal.open()
        let device = try TermiosTransport.open(path: pty.devicePath)
        try await device.write([1, 2])
        #expect(try await read(2, from: pty.controller) == [1, 2])
        await device.close()
        do {
            _ = try await pty.controller.read()
            Issue.record("read succeeded after the device side closed")
        } catch let error as TransportError {
            #expect(error.reason == .disconnected)
            #expect(error.errno == EIO)
            #expect(error.description.contains(pty.devicePath))
            #expect(error.description.contains("EIO"))
        }
        await pty.controller.close()
    }

    @Test("when the controller closes, the device side's reads end and writes fail")
    func controllerCloses() async throws {
        let pty = try PseudoTerminal.open()
        let device = try TermiosTransport.open(path: pty.devicePath)
        await pty.controller.close()
        await #expect { _ = try await device.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await #expect { try await device.write([1]) } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await device.close()
    }

    @Test("with the device side held open, clients can come and go")
    func clientsComeAndGo() async throws {
        let pty = try PseudoTerminal.open(keepDeviceOpen: true)
        for round in 0..<3 {
            let client = try TermiosTransport.open(path: pty.devicePath)
            try await client.write([UInt8(round)])
            #expect(try await read(1, from: pty.controller) == [UInt8(round)])
            try await pty.controller.write([UInt8(round + 100)])
            #expect(try await read(1, from: client) == [UInt8(round + 100)])
            await client.close()
        }
        await pty.controller.close()
    }

    @Test("opening a missing path says so, with the path and ENOENT")
    func missingPath() {
        #expect {
            _ = try TermiosTransport.open(path: "/dev/ttyTHRUM-does-not-exist")
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.reason == .notFound && error.description.contains("/dev/ttyTHRUM-does-not-exist")
                && error.description.contains("ENOENT")
        }
    }

    @Test("opening something that is not a terminal is refused")
    func notATerminal() {
        #expect {
            _ = try TermiosTransport.open(path: "/dev/null")
        } throws: { error in
            (error as? TransportError)?.reason == .notATerminal && "\(error)".contains("/dev/null")
        }
    }

    @Test(
        "a second program cannot open a device we hold exclusively",
        .enabled(if: geteuid() != 0, "root bypasses TIOCEXCL"))
    func exclusive() async throws {
        let pty = try PseudoTerminal.open()
        let first = try TermiosTransport.open(path: pty.devicePath)
        #expect { _ = try TermiosTransport.open(path: pty.devicePath) } throws: { error in
            (error as? TransportError)?.reason == .busy
        }
        await first.close()
        let second = try TermiosTransport.open(path: pty.devicePath)
        await second.close()
        await pty.controller.close()
    }

    @Test("pending reads on many devices leave the cooperative pool free")
    func pendingReadsDoNotBlockThePool() async throws {
        var idle: [(any ByteTransport, any ByteTransport)] = []
        for _ in 0..<8 { idle.append(try makePseudoTerminalPair()) }
        let waiting = idle.map { pair in Task { try await pair.1.read() } }
        // With every reader parked, other work still runs: a round trip on another pair.
        let (controller, device) = try makePseudoTerminalPair()
        try await controller.write([0x5A])
        #expect(try await read(1, from: device) == [0x5A])
        for pair in idle {
            await pair.0.close()
            await pair.1.close()
        }
        for task in waiting { _ = try? await task.value }
        await controller.close()
        await device.close()
    }

    @Test("dropping a transport without closing it still releases the device")
    func dropWithoutClose() async throws {
        let pty = try PseudoTerminal.open()
        do {
            _ = try TermiosTransport.open(path: pty.devicePath)
        }
        // The dropped transport closes its descriptor on its own thread; the controller then
        // sees the hang-up.
        await #expect { _ = try await pty.controller.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await pty.controller.close()
    }
}

@Suite(.timeLimit(.minutes(5))) struct AdoptedDescriptorTests {
    @Test("a descriptor opened elsewhere can be adopted, configured and used")
    func adopt() async throws {
        let pty = try PseudoTerminal.open()
        let descriptor = open(pty.devicePath, O_RDWR | O_NOCTTY)
        try #require(descriptor >= 0)
        let adopted = try TermiosTransport(adopting: descriptor, name: pty.devicePath)
        let attributes = try adopted.terminalAttributes()
        #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        try await adopted.write([0xC0, 0xFF, 0xEE])
        #expect(try await read(3, from: pty.controller) == [0xC0, 0xFF, 0xEE])
        await adopted.close()
        #expect(throws: TransportError(.closed, device: pty.devicePath)) { _ = try adopted.terminalAttributes() }
        await pty.controller.close()
    }

    @Test("adopting something that is not a terminal is refused")
    func adoptNonTerminal() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        #expect {
            _ = try TermiosTransport(adopting: ends[0], name: "a pipe")
        } throws: { error in
            (error as? TransportError)?.reason == .notATerminal
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct ConvenienceTests {
    @Test("read(exactly:) returns the requested bytes and keeps the surplus of the last chunk")
    func readExactly() async throws {
        let (a, b) = InMemoryTransport.makePair()
        try await a.write([1, 2, 3])
        try await a.write([4, 5, 6])  // both writes are buffered: one read returns all six
        let (bytes, surplus) = try await b.read(exactly: 4)
        #expect(bytes == [1, 2, 3, 4])
        #expect(surplus == [5, 6])
        await a.close()
        await b.close()
    }
}
