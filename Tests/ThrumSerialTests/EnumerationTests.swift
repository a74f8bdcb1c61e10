import Testing
import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Foundation
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Port enumeration over the faked library, and for real on this machine.
@Suite(.timeLimit(.minutes(5))) struct EnumerationTests {
    static func boards() -> FakeSerialBus {
        let bus = FakeSerialBus()
        bus.add(.init(path: "/dev/ttyS0", description: "ttyS0", transport: .native))
        bus.add(
            .init(
                path: "/dev/ttyACM1", description: "Haptic Board",
                usb: .init(
                    vendor: 0x2E8A, product: 0x000A, manufacturer: "Thrum", product_: "Haptic Board", serial: "E661",
                    bus: 3, address: 7)))
        bus.add(
            .init(
                path: "/dev/ttyACM0", description: "Arduino Uno",
                usb: .init(
                    vendor: 0x2341, product: 0x0043, manufacturer: "Arduino (www.arduino.cc)", product_: "", serial: nil
                )))
        bus.add(.init(path: "/dev/rfcomm0", description: "rfcomm0", transport: .bluetooth))
        return bus
    }

    @Test("ports are listed by path with their USB identity; non-USB ports have none")
    func listsPorts() throws {
        let bus = Self.boards()
        let ports = try SerialPorts.list(calls: bus.calls)
        #expect(ports.map(\.path) == ["/dev/rfcomm0", "/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyS0"])
        let board = try #require(ports.first { $0.path == "/dev/ttyACM1" })
        #expect(board.transport == .usb)
        #expect(
            board.usb
                == USBIdentity(
                    vendorID: 0x2E8A, productID: 0x000A, manufacturer: "Thrum",
                    product: "Haptic Board", serialNumber: "E661", bus: 3, address: 7))
        #expect(board.usbAddress?.description == "usb:2e8a:000a:E661")
        #expect(board.description == "/dev/ttyACM1 (usb:2e8a:000a:E661, Haptic Board)")
        #expect(ports.first { $0.path == "/dev/ttyS0" }?.description == "/dev/ttyS0 (ttyS0)")
        let uno = try #require(ports.first { $0.path == "/dev/ttyACM0" })
        #expect(uno.usb?.product == nil, "an empty string is no product name")
        #expect(uno.usb?.serialNumber == nil)
        #expect(uno.usb?.vendorProduct == "2341:0043")
        #expect(ports.first { $0.path == "/dev/ttyS0" }?.usb == nil)
        #expect(ports.first { $0.path == "/dev/rfcomm0" }?.transport == .bluetooth)
        #expect(bus.outstandingHandles == 0, "every listed port is freed")
    }

    @Test("a USB port whose ids cannot be read is still listed, without them")
    func unreadableIDs() throws {
        let bus = Self.boards()
        bus.fail("sp_get_port_usb_vid_pid", .fail, errno: EIO)
        let ports = try SerialPorts.list(calls: bus.calls)
        #expect(ports.count == 4)
        #expect(ports.allSatisfy { $0.usb == nil })
    }

    @Test("a failing sp_list_ports is reported with the OS error")
    func listFails() {
        let bus = Self.boards()
        bus.fail("sp_list_ports", .fail, errno: EACCES)
        let error = thrownError { _ = try SerialPorts.list(calls: bus.calls) }
        let failure = error as? TransportError
        #expect(failure?.operation == "sp_list_ports")
        #expect(failure?.reason == .permissionDenied)
        #expect(failure?.description.contains("serial port list") == true)
    }

    @Test("the port list encodes to JSON for `thrum ports --json`")
    func json() throws {
        let ports = try SerialPorts.list(calls: Self.boards().calls)
        let data = try JSONEncoder().encode(ports)
        let decoded = try JSONDecoder().decode([SerialPortInfo].self, from: data)
        #expect(decoded == ports)
        #expect(String(decoding: data, as: UTF8.self).contains("\"vendorID\":11914"))
    }

    @Test("real enumeration with libserialport returns without error")
    func realEnumeration() throws {
        let ports = try SerialPorts.list()
        // This machine may have none; whatever is listed is a device node with a description.
        for port in ports {
            #expect(port.path.hasPrefix("/dev/"), "\(port.path)")
            #expect(!port.displayName.isEmpty)
            #expect(port.description.hasPrefix(port.path))
            if port.transport != .usb { #expect(port.usb == nil) }
        }
        #expect(ports.map(\.path) == ports.map(\.path).sorted())
    }
}
