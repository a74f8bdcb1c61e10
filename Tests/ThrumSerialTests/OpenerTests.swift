import Testing
import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Choosing the transport: libserialport, termios when libserialport refuses, `usb:` lookup.
@Suite(.timeLimit(.minutes(5))) struct OpenerTests {
    /// Parts over the fake whose termios opener records what it was asked and hands back one
    /// end of an in-memory pair.
    final class Recorder: @unchecked Sendable {
        var termiosPaths: [String] = []
    }

    static func parts(_ bus: FakeSerialBus, _ recorder: Recorder) -> SerialDevice.Parts {
        SerialDevice.Parts(calls: bus.calls, tuning: .fast) { path, _ throws(TransportError) in
            recorder.termiosPaths.append(path)
            return InMemoryTransport.makePair().0
        }
    }

    @Test("a path libserialport opens is served by libserialport")
    func libserialportPath() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let recorder = Recorder()
        let opened = try SerialDevice.open(
            "/dev/ttyFAKE0", settings: SerialSettings(), using: Self.parts(bus, recorder))
        #expect(opened.backend == .libserialport)
        #expect(opened.transport is SerialPortTransport)
        #expect(recorder.termiosPaths.isEmpty)
        await opened.transport.close()
    }

    @Test("a udev symlink is resolved to its device node for libserialport; messages keep the name given")
    func symlinkResolved() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let recorder = Recorder()
        var parts = Self.parts(bus, recorder)
        let link = "/dev/serial/by-id/usb-Thrum_Haptic_Board_E661-if00"
        parts.resolveSymlinks = { $0 == link ? "/dev/ttyFAKE0" : nil }
        let opened = try SerialDevice.open(link, settings: SerialSettings(), using: parts)
        #expect(opened.backend == .libserialport)
        #expect(opened.transport.name == link)
        #expect(bus.device("/dev/ttyFAKE0")?.isOpen == true)
        await opened.transport.close()
    }

    @Test(
        "libserialport refusing the device falls back to termios",
        arguments: [
            ("sp_get_port_by_name", LibSerialPortFailure.Code.argument, Int32(0)),
            ("sp_open", .fail, ENOTTY),
            ("sp_open", .unsupported, 0),
            ("sp_set_dtr", .unsupported, 0),
        ])
    func fallsBack(_ function: String, _ code: LibSerialPortFailure.Code, _ errno: Int32) async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        bus.fail(function, code, errno: errno)
        let recorder = Recorder()
        let opened = try SerialDevice.open(
            "/dev/ttyFAKE0", settings: SerialSettings(), using: Self.parts(bus, recorder))
        #expect(recorder.termiosPaths == ["/dev/ttyFAKE0"])
        guard case .termios(let reason) = opened.backend else {
            Issue.record("expected the termios backend, got \(opened.backend)")
            return
        }
        #expect(reason.contains(function))
        #expect(bus.outstandingHandles == 0, "libserialport's attempt left nothing open")
        await opened.transport.close()
    }

    @Test(
        "a real port failure is reported, not hidden behind termios",
        arguments: [
            (EACCES, TransportError.Reason.permissionDenied),
            (EBUSY, .busy),
        ])
    func noFallbackForRealFailures(_ errno: Int32, _ reason: TransportError.Reason) {
        let bus = FakeSerialBus()
        bus.addPair()
        bus.fail("sp_open", .fail, errno: errno)
        let recorder = Recorder()
        let error = thrownError {
            _ = try SerialDevice.open("/dev/ttyFAKE0", settings: SerialSettings(), using: Self.parts(bus, recorder))
        }
        #expect((error as? TransportError)?.reason == reason)
        #expect(recorder.termiosPaths.isEmpty)
    }

    @Test("a usb: address opens the port with that identity")
    func usbAddress() async throws {
        let bus = EnumerationTests.boards()
        bus.add(
            .init(
                path: "/dev/ttyACM2", description: "board", usb: .init(vendor: 0x2E8A, product: 0x000A, serial: "F00")))
        let recorder = Recorder()
        let opened = try SerialDevice.open(
            "usb:2e8a:000a:E661", settings: SerialSettings(), using: Self.parts(bus, recorder))
        #expect(opened.path == "/dev/ttyACM1")
        #expect(opened.port?.usb?.manufacturer == "Thrum")
        #expect(opened.backend == .libserialport)
        #expect(bus.device("/dev/ttyACM1")?.isOpen == true)
        await opened.transport.close()

        let ambiguous = thrownError {
            _ = try SerialDevice.open("usb:2e8a:000a", settings: SerialSettings(), using: Self.parts(bus, recorder))
        }
        #expect({ if case .ambiguous? = ambiguous as? SerialPortLookupError { true } else { false } }())
        let malformed = thrownError {
            _ = try SerialDevice.open("usb:nope", settings: SerialSettings(), using: Self.parts(bus, recorder))
        }
        #expect({ if case .malformedAddress? = malformed as? SerialPortLookupError { true } else { false } }())
        #expect(bus.outstandingHandles == 0)
    }
}
