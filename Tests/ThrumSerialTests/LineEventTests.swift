import Testing
import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timeouts, unplugging and failing I/O calls, forced through the faked library.
@Suite(.timeLimit(.minutes(5))) struct LineEventTests {
    @Test("a quiet line is not a disconnect: the reader keeps waiting, then delivers")
    func quietLine() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let port = try openFake("/dev/ttyFAKE0", on: bus)
        let reader = Task { try await port.read() }
        await bus.waits(reaching: 20)  // twenty poll intervals with nothing
        bus.receive([0xC0, 0xDE], at: "/dev/ttyFAKE0")
        #expect(try await reader.value == [0xC0, 0xDE])
        #expect(bus.waitCount >= 20)
        await port.close()
    }

    @Test("writes that time out part-way are resumed until every byte is through, in order")
    func writeTimeouts() async throws {
        let bus = FakeSerialBus(inboundCapacity: 16)  // a tiny OS buffer nobody empties for a while
        bus.addPair()
        let a = try openFake("/dev/ttyFAKE0", on: bus)
        let b = try openFake("/dev/ttyFAKE1", on: bus, settings: SerialSettings(receiveBufferSize: 8))
        let payload = (0..<2000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let writer = Task { try await a.write(payload) }
        // b's receive buffer (8 bytes) fills and its reader stops taking; a's writes time out.
        await bus.until { $0.partialWrites >= 3 }
        let received = try await read(payload.count, from: b)
        try await writer.value
        #expect(received == payload)
        await a.close()
        await b.close()
    }

    @Test("unplugged mid-transfer: buffered bytes are delivered, then reads and writes fail as disconnected")
    func unplugMidTransfer() async throws {
        let bus = FakeSerialBus(inboundCapacity: 64)
        bus.addPair()
        let board = try openFake("/dev/ttyFAKE1", on: bus)
        let host = try openFake("/dev/ttyFAKE0", on: bus)
        try await board.write([1, 2, 3, 4])
        // A large write the board never reads is in flight when the cable goes.
        let writer = Task { try await host.write([UInt8](repeating: 0x55, count: 1 << 20)) }
        await bus.waits(reaching: bus.waitCount + 4)
        bus.unplug("/dev/ttyFAKE0")

        #expect(try await read(4, from: host) == [1, 2, 3, 4])
        let readError = await thrownError { _ = try await host.read() }
        let readFailure = try #require(readError as? TransportError)
        #expect(readFailure.reason == .disconnected)
        #expect(readFailure.description.contains("/dev/ttyFAKE0"))

        let writeError = await thrownError { try await writer.value }
        #expect((writeError as? TransportError)?.reason == .disconnected, "\(String(describing: writeError))")
        let laterWrite = await thrownError { try await host.write([1]) }
        #expect((laterWrite as? TransportError)?.reason == .disconnected)

        await host.close()
        await board.close()
        #expect(bus.outstandingHandles == 0)
    }

    @Test("the hang-up probe names sp_input_waiting and EIO")
    func hangUpProbe() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let port = try openFake("/dev/ttyFAKE0", on: bus)
        bus.unplug("/dev/ttyFAKE0")
        let error = await thrownError { _ = try await port.read() }
        let failure = try #require(error as? TransportError)
        #expect(failure.reason == .disconnected)
        #expect(failure.operation == "sp_input_waiting")
        #expect(failure.errno == EIO)
        #expect(failure.description.contains("unplugged"))
        await port.close()
    }

    @Test("a line that keeps waking with nothing to read ends as disconnected instead of spinning")
    func spuriousWakes() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        bus.setSpuriousWakes(true)
        let port = try openFake("/dev/ttyFAKE0", on: bus)
        let error = await thrownError { _ = try await port.read() }
        let failure = try #require(error as? TransportError)
        #expect(failure.reason == .disconnected)
        #expect(failure.operation == "sp_wait")
        #expect(bus.waitCount >= SerialPortTuning.fast.earlyWakeLimit)
        await port.close()
    }

    @Test(
        "a failing read or wait ends input with the mapped error",
        arguments: [
            ("sp_wait", EBADF, TransportError.Reason.system),
            ("sp_nonblocking_read", EIO, .disconnected),
            ("sp_nonblocking_read", ENODEV, .disconnected),
            ("sp_input_waiting", EACCES, .permissionDenied),
        ])
    func failingRead(_ function: String, _ code: Int32, _ reason: TransportError.Reason) async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let port = try openFake("/dev/ttyFAKE0", on: bus)
        bus.fail(function, .fail, errno: code)
        let error = await thrownError { _ = try await port.read() }
        let failure = try #require(error as? TransportError)
        #expect(failure.reason == reason)
        #expect(failure.operation == function)
        #expect(failure.errno == code)
        await port.close()
    }

    @Test("a failing write fails that write and later ones, and the port still closes cleanly")
    func failingWrite() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let port = try openFake("/dev/ttyFAKE0", on: bus)
        bus.fail("sp_blocking_write", .fail, errno: EIO)
        let first = await thrownError { try await port.write([1, 2, 3]) }
        #expect((first as? TransportError)?.reason == .disconnected)
        #expect((first as? TransportError)?.operation == "sp_blocking_write")
        let second = await thrownError { try await port.write([4]) }
        #expect((second as? TransportError)?.reason == .disconnected)
        await port.close()
        #expect(bus.outstandingHandles == 0)
    }

    @Test("a transport dropped without close still releases the port")
    func droppedWithoutClose() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        do {
            let port = try openFake("/dev/ttyFAKE0", on: bus)
            try await port.write([1])
        }
        // The threads leave within a poll interval and free everything.
        await bus.allReleased()
        #expect(bus.device("/dev/ttyFAKE0")?.isOpen == false)
    }
}
