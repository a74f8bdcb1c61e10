import Testing
import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every failing call of the open sequence becomes a `TransportError` that names the device,
/// the libserialport function and the OS error, with a hint; nothing acquired leaks.
@Suite(.timeLimit(.minutes(5))) struct OpenErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var function: String
        var code: LibSerialPortFailure.Code
        var errno: Int32 = 0
        var reason: TransportError.Reason
        var words: [String]
        var description: String { "\(function) \(code.name) \(errno)" }
    }

    static let cases: [Case] = [
        Case(
            function: "sp_get_port_by_name", code: .argument, reason: .notFound,
            words: ["/sys/class/tty", "SP_ERR_ARG"]),
        Case(
            function: "sp_open", code: .fail, errno: EACCES, reason: .permissionDenied,
            words: ["EACCES", "Permission denied", "dialout"]),
        Case(
            function: "sp_open", code: .fail, errno: EBUSY, reason: .busy,
            words: ["EBUSY", "another program", "ModemManager"]),
        Case(function: "sp_open", code: .fail, errno: ENOENT, reason: .notFound, words: ["ENOENT", "plugged in"]),
        Case(function: "sp_open", code: .memory, reason: .system, words: ["SP_ERR_MEM", "out of memory"]),
        Case(
            function: "sp_get_port_handle", code: .unsupported, reason: .unsupportedConfiguration,
            words: ["SP_ERR_SUPP"]),
        Case(
            function: "ioctl(TIOCEXCL)", code: .fail, errno: EPERM, reason: .permissionDenied,
            words: ["EPERM", "dialout"]),
        Case(
            function: "sp_set_baudrate", code: .argument, reason: .unsupportedConfiguration,
            words: ["refused the setting"]),
        Case(
            function: "sp_set_bits", code: .fail, errno: EINVAL, reason: .system, words: ["EINVAL", "Invalid argument"]),
        Case(function: "sp_set_parity", code: .fail, errno: EIO, reason: .disconnected, words: ["EIO"]),
        Case(
            function: "sp_set_stopbits", code: .unsupported, reason: .unsupportedConfiguration, words: ["SP_ERR_SUPP"]),
        Case(
            function: "sp_set_flowcontrol", code: .unsupported, reason: .unsupportedConfiguration,
            words: ["SP_ERR_SUPP"]),
        Case(function: "sp_set_dtr", code: .fail, errno: ENOTTY, reason: .notATerminal, words: ["ENOTTY"]),
        Case(function: "sp_set_rts", code: .fail, errno: EIO, reason: .disconnected, words: ["EIO", "unplugged"]),
        Case(function: "tcsetattr", code: .fail, errno: EINVAL, reason: .system, words: ["EINVAL"]),
        Case(function: "sp_flush", code: .fail, errno: EIO, reason: .disconnected, words: ["EIO"]),
        Case(function: "sp_new_event_set", code: .memory, reason: .system, words: ["SP_ERR_MEM"]),
    ]

    @Test("a failing open step is reported with its function, OS error and hint", arguments: cases)
    func failingStep(_ failing: Case) {
        let bus = FakeSerialBus()
        bus.addPair()
        bus.fail(failing.function, failing.code, errno: failing.errno)
        let error = thrownError { _ = try openFake("/dev/ttyFAKE0", on: bus) }
        let transportError = error as? TransportError
        #expect(transportError?.reason == failing.reason, "\(String(describing: error))")
        #expect(transportError?.operation == failing.function)
        #expect(transportError?.errno == (failing.errno == 0 ? nil : failing.errno))
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("/dev/ttyFAKE0"))
        for word in failing.words { #expect(text.contains(word), "'\(word)' missing from: \(text)") }
        // Nothing leaks: the port handle is freed, and a port that was opened is closed again.
        #expect(bus.outstandingHandles == 0)
        let device = bus.device("/dev/ttyFAKE0")
        #expect(device?.isOpen == false)
        #expect(device?.exclusive == false)
    }

    // The fake reports an I/O failure at configuration as EIO; during the open sequence that is
    // not the "no such device" reading but the "device went away" one.
    @Test("a second program opening the port is told it is busy")
    func secondOpenIsBusy() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        let first = try openFake("/dev/ttyFAKE0", on: bus)
        let error = thrownError { _ = try openFake("/dev/ttyFAKE0", on: bus) }
        #expect((error as? TransportError)?.reason == .busy)
        #expect("\(error.map { "\($0)" } ?? "")".contains("sp_open"))
        await first.close()
        // Closing released the exclusive hold: the port opens again at once.
        let again = try openFake("/dev/ttyFAKE0", on: bus)
        await again.close()
        #expect(bus.outstandingHandles == 0)
    }

    @Test("unsupported baud rates are refused before touching the device, 1200 with its reason")
    func baudRates() {
        let bus = FakeSerialBus()
        bus.addPair()
        for (rate, words) in [(1200, "bootloader"), (12345, "supported rates")] {
            let error = thrownError {
                _ = try openFake("/dev/ttyFAKE0", on: bus, settings: SerialSettings(baudRate: rate))
            }
            #expect((error as? TransportError)?.reason == .unsupportedConfiguration)
            #expect("\(error.map { "\($0)" } ?? "")".contains(words))
        }
        #expect(bus.log.isEmpty, "nothing was called: \(bus.log)")
    }

    @Test("a libserialport message that says more than the OS error name is kept")
    func libraryMessageKept() {
        let failure = LibSerialPortFailure("sp_open", .fail, osError: ENOTTY, osMessage: "TIOCMGET ioctl failed")
        let text = failure.transportError(device: "/dev/ttyX").description
        #expect(text.contains("TIOCMGET ioctl failed"))
        #expect(text.contains("ENOTTY"))
        // When it is the OS's own words, they appear once.
        let plain = LibSerialPortFailure("sp_open", .fail, osError: EBUSY, osMessage: String(cString: strerror(EBUSY)))
        let plainText = plain.transportError(device: "/dev/ttyX").description
        #expect(plainText.components(separatedBy: String(cString: strerror(EBUSY))).count == 2)
    }

    @Test("an unknown sp_return or a failure without an OS error still reads clearly")
    func oddResults() {
        let unknown = LibSerialPortFailure("sp_open", rawResult: -9)
        #expect(unknown.code == .fail)
        #expect(unknown.transportError(device: "/dev/ttyX").description.contains("unknown sp_return -9"))
        let bare = LibSerialPortFailure("sp_wait", .fail, osError: 0, osMessage: nil)
        let error = bare.transportError(device: "/dev/ttyX")
        #expect(error.reason == .system)
        #expect(error.description.contains("sp_wait"))
    }

    @Test("the open sequence configures raw 8N1, DTR and RTS on, HUPCL off, exclusive use")
    func configuration() async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        bus.receive([9, 9, 9], at: "/dev/ttyFAKE0")  // stale bytes from before we opened
        let port = try openFake("/dev/ttyFAKE0", on: bus, settings: SerialSettings(baudRate: 230_400))
        let device = try #require(bus.device("/dev/ttyFAKE0"))
        #expect(device.baudRate == 230_400)
        #expect(device.dtr == true)
        #expect(device.rts == true)
        #expect(device.flow == PortFlowControl.none)
        #expect(device.hangUpOnClose == false)
        #expect(device.exclusive == true)
        #expect(device.inbound.isEmpty, "stale input is flushed")
        #expect(Array(bus.log.prefix(3)) == ["sp_get_port_by_name", "sp_open", "sp_get_port_handle"])
        await port.close()
        #expect(bus.device("/dev/ttyFAKE0")?.exclusive == false)

        let flowControlled = try openFake(
            "/dev/ttyFAKE0", on: bus,
            settings: SerialSettings(flowControl: .hardware, hangUpOnClose: true, exclusive: false))
        let second = try #require(bus.device("/dev/ttyFAKE0"))
        #expect(second.flow == .rtsCts)
        #expect(second.hangUpOnClose == true)
        #expect(second.exclusive == false)
        await flowControlled.close()
        #expect(bus.outstandingHandles == 0)
    }
}
