import Testing

@testable import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Error mapping, EOF, EAGAIN and unplugging, forced through the system-call seam.
@Suite(.timeLimit(.minutes(5))) struct SystemCallSeamTests {
    @Test("open errors name the device, the call and the OS error, with what to do")
    func openErrors() {
        let cases: [(Int32, TransportError.Reason, String)] = [
            (ENOENT, .notFound, "plugged in"),
            (EACCES, .permissionDenied, "dialout"),
            (EPERM, .permissionDenied, "dialout"),
            (EBUSY, .busy, "another program"),
            (ENOTTY, .notATerminal, "not a serial port"),
        ]
        for (code, reason, hint) in cases {
            let device = MockDevice()
            device.state.withLock { $0.openError = code }
            #expect {
                _ = try device.open()
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                let text = error.description
                return error.reason == reason && error.errno == code && error.operation == "open"
                    && text.contains("/dev/ttyMOCK0") && text.contains(hint)
                    && text.contains(TransportError.errnoName(code))
            }
        }
    }

    @Test("a device held by another program is reported busy when we ask for exclusive use")
    func exclusiveBusy() {
        let device = MockDevice()
        device.state.withLock { $0.exclusiveError = EBUSY }
        #expect {
            _ = try device.open()
        } throws: { error in
            (error as? TransportError)?.reason == .busy && "\(error)".contains("ioctl(TIOCEXCL)")
        }
        #expect(device.log.contains("close \(MockDevice.descriptor)"))  // nothing leaks
    }

    @Test("a path that is not a terminal is refused")
    func notATerminal() {
        let device = MockDevice()
        device.state.withLock { $0.isattyError = ENOTTY }
        #expect {
            _ = try device.open()
        } throws: { error in
            (error as? TransportError)?.reason == .notATerminal
        }
    }

    @Test("a driver that ignores raw mode is caught by reading the settings back")
    func settingsReadBack() {
        let device = MockDevice()
        device.state.withLock { $0.ignoresSettings = true }
        #expect {
            _ = try device.open()
        } throws: { error in
            (error as? TransportError)?.reason == .unsupportedConfiguration && "\(error)".contains("ICANON")
        }
    }

    @Test("unsupported baud rates are refused before the device is touched")
    func baudRates() {
        let device = MockDevice()
        #expect {
            _ = try device.open(settings: SerialSettings(baudRate: 1200))
        } throws: { error in
            (error as? TransportError)?.reason == .unsupportedConfiguration && "\(error)".contains("bootloader")
        }
        #expect {
            _ = try device.open(settings: SerialSettings(baudRate: 12_345))
        } throws: { error in
            "\(error)".contains("12345") && "\(error)".contains("115200")
        }
        #expect(device.log.isEmpty)
    }

    @Test("open configures raw mode, exclusive use and drops stale input; close releases all")
    func openAndCloseSequence() async throws {
        let device = MockDevice()
        let transport = try device.open()
        let attributes = device.state.withLock { $0.attributes }
        #expect(attributes.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        await transport.close()
        await transport.close()
        #expect(
            device.log == [
                "open /dev/ttyMOCK0", "TIOCEXCL", "tcsetattr", "tcflush", "TIOCNXCL", "close \(MockDevice.descriptor)",
            ])
    }

    @Test("EAGAIN is not an error; chunks arrive as read; EIO means the device is gone")
    func readThenUnplug() async throws {
        let device = MockDevice()
        device.script { $0.reads = [.error(EAGAIN), .bytes([1, 2, 3]), .bytes([4])] }
        let transport = try device.open()
        #expect(try await read(4, from: transport) == [1, 2, 3, 4])
        device.script { $0.reads = [.bytes([5]), .error(EIO)] }
        #expect(try await transport.read() == [5])
        do {
            _ = try await transport.read()
            Issue.record("read succeeded after EIO")
        } catch let error as TransportError {
            #expect(error.reason == .disconnected)
            #expect(error.errno == EIO)
            #expect(error.description.contains("/dev/ttyMOCK0"))
            #expect(error.description.contains("unplugged"))
        }
        await transport.close()
    }

    @Test("end of file means the other side closed")
    func endOfFile() async throws {
        let device = MockDevice()
        device.script { $0.reads = [.bytes([9]), .endOfFile] }
        let transport = try device.open()
        #expect(try await transport.read() == [9])
        await #expect { _ = try await transport.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected && "\(error)".contains("end of file")
        }
        await transport.close()
    }

    @Test("short writes and EAGAIN are retried until every byte is handed over")
    func partialWrites() async throws {
        let device = MockDevice()
        device.script { $0.writes = [.accept(3), .error(EAGAIN), .accept(1), .error(EAGAIN), .accept(100)] }
        let transport = try device.open()
        let bytes = (0..<50).map(UInt8.init)
        try await transport.write(bytes)
        #expect(device.written == bytes)
        await transport.close()
    }

    @Test("a write error fails this and later writes with the reason")
    func writeErrors() async throws {
        let device = MockDevice()
        device.script { $0.writes = [.error(EIO)] }
        let transport = try device.open()
        for _ in 0..<2 {
            await #expect { try await transport.write([1]) } throws: { error in
                (error as? TransportError)?.reason == .disconnected && (error as? TransportError)?.errno == EIO
            }
        }
        await transport.close()
    }

    @Test("a hang-up fails pending writes and ends reads after what was received")
    func hangUp() async throws {
        let device = MockDevice()
        device.script { $0.writes = [.accept(1)] + Array(repeating: .error(EAGAIN), count: 1_000_000) }
        let transport = try device.open()
        let writer = Task { try await transport.write([1, 2, 3]) }
        device.script { state in
            state.reads = [.bytes([7]), .endOfFile]
            state.hungUp = true
        }
        await #expect { try await writer.value } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        #expect(try await transport.read() == [7])
        await #expect { _ = try await transport.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await transport.close()
    }

    @Test("the receive buffer is bounded: a reader that stops reading pauses the device, not memory")
    func boundedReceiveBuffer() async throws {
        let device = MockDevice()
        device.script { $0.reads = Array(repeating: .bytes([UInt8](repeating: 1, count: 100)), count: 50) }
        let transport = try device.open(settings: SerialSettings(receiveBufferSize: 1000))
        var total = 0
        while total < 5000 {
            let chunk = try await transport.read()
            #expect(chunk.count <= 1000)
            total += chunk.count
        }
        #expect(total == 5000)
        await transport.close()
    }
}

@Suite(.timeLimit(.minutes(5))) struct HangUpWithoutEndOfFileTests {
    @Test("a hang-up whose reads only say EAGAIN ends input instead of spinning")
    func hangUpWithWouldBlock() async throws {
        let device = MockDevice()
        device.script { state in
            state.reads = [.bytes([4, 5])]
            state.hungUp = true
        }
        let transport = try device.open()
        #expect(try await read(2, from: transport) == [4, 5])
        await #expect { _ = try await transport.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected && "\(error)".contains("hung up")
        }
        await transport.close()
    }
}
