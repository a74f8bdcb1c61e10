import PropertyBased
import Testing

@testable import ThrumSerial

/// `usb:VID:PID[:SERIAL]` parsing, printing and lookup: pure functions over a port list.
@Suite struct USBAddressTests {
    @Test(
        "valid addresses parse",
        arguments: [
            ("usb:2341:0043", USBDeviceAddress(vendorID: 0x2341, productID: 0x0043)),
            ("USB:2E8A:000a", USBDeviceAddress(vendorID: 0x2E8A, productID: 0x000A)),
            ("usb:0x2e8a:0xA", USBDeviceAddress(vendorID: 0x2E8A, productID: 0x000A)),
            ("usb:1:2:ABC123", USBDeviceAddress(vendorID: 1, productID: 2, serialNumber: "ABC123")),
            ("usb:ffff:ffff:a:b:c", USBDeviceAddress(vendorID: 0xFFFF, productID: 0xFFFF, serialNumber: "a:b:c")),
        ])
    func parses(_ text: String, _ expected: USBDeviceAddress) throws {
        #expect(try USBDeviceAddress(parsing: text) == expected)
    }

    @Test(
        "malformed addresses are refused, saying what is wrong",
        arguments: [
            ("usb:", "expected usb:VID:PID"),
            ("usb:2341", "expected usb:VID:PID"),
            ("usb:2341:", "product id ''"),
            ("usb::0043", "vendor id ''"),
            ("usb:12345:0043", "vendor id '12345'"),
            ("usb:23g1:0043", "vendor id '23g1'"),
            ("usb:2341:-1", "product id '-1'"),
            ("usb:0x:0043", "vendor id '0x'"),
            ("usb:2341:0043:", "serial number"),
            ("/dev/ttyACM0", "does not start with 'usb:'"),
            ("usb:２３４１:0043", "vendor id"),
        ])
    func refuses(_ text: String, _ words: String) {
        #expect {
            _ = try USBDeviceAddress(parsing: text)
        } throws: { error in
            guard let error = error as? SerialPortLookupError, case .malformedAddress(let input, let problem) = error
            else { return false }
            return input == text && problem.contains(words) && error.description.contains("usb:VID:PID")
        }
    }

    @Test("printing and parsing round-trip")
    func roundTrip() async {
        let serials = Gen<Character>.ascii.string(of: 1...24).optional
        await propertyCheck(input: Gen<UInt16>.value(), Gen<UInt16>.value(), serials) { vendor, product, serial in
            let address = USBDeviceAddress(vendorID: vendor, productID: product, serialNumber: serial)
            #expect((try? USBDeviceAddress(parsing: address.description)) == address)
        }
    }

    static let ports: [SerialPortInfo] = [
        SerialPortInfo(path: "/dev/ttyS0", displayName: "ttyS0", transport: .native),
        SerialPortInfo(
            path: "/dev/ttyACM0", displayName: "board", transport: .usb,
            usb: USBIdentity(vendorID: 0x2E8A, productID: 0x000A, serialNumber: "AAA")),
        SerialPortInfo(
            path: "/dev/ttyACM1", displayName: "board", transport: .usb,
            usb: USBIdentity(vendorID: 0x2E8A, productID: 0x000A, serialNumber: "BBB")),
        SerialPortInfo(
            path: "/dev/ttyUSB0", displayName: "uno", transport: .usb,
            usb: USBIdentity(vendorID: 0x2341, productID: 0x0043)),
    ]

    @Test("an address finds its one port")
    func resolvesUnique() throws {
        #expect(try USBDeviceAddress(parsing: "usb:2341:0043").resolve(in: Self.ports).path == "/dev/ttyUSB0")
        #expect(try USBDeviceAddress(parsing: "usb:2e8a:000a:BBB").resolve(in: Self.ports).path == "/dev/ttyACM1")
    }

    @Test("several matches without a serial number are ambiguous, listing their serials")
    func ambiguous() throws {
        let address = try USBDeviceAddress(parsing: "usb:2e8a:000a")
        #expect {
            _ = try address.resolve(in: Self.ports)
        } throws: { error in
            guard let error = error as? SerialPortLookupError, case .ambiguous(_, let matches) = error else {
                return false
            }
            let text = error.description
            return matches.map(\.path) == ["/dev/ttyACM0", "/dev/ttyACM1"]
                && text.contains("usb:2e8a:000a:AAA") && text.contains("usb:2e8a:000a:BBB")
                && text.contains("serial number")
        }
    }

    @Test("no match names the USB ports that are there")
    func noMatch() throws {
        let address = try USBDeviceAddress(parsing: "usb:1209:0001")
        #expect {
            _ = try address.resolve(in: Self.ports)
        } throws: { error in
            guard let error = error as? SerialPortLookupError, case .noMatch(_, let available) = error else {
                return false
            }
            return available.count == 3 && error.description.contains("/dev/ttyUSB0 (usb:2341:0043)")
                && !error.description.contains("ttyS0")
        }
        let wrongSerial = try USBDeviceAddress(parsing: "usb:2e8a:000a:CCC")
        #expect(throws: SerialPortLookupError.self) { _ = try wrongSerial.resolve(in: Self.ports) }
        #expect {
            _ = try address.resolve(in: [])
        } throws: { error in
            "\(error)".contains("no USB serial ports are present")
        }
    }

    @Test("matching is exactly vendor, product and (when given) serial")
    func matchingProperty() async {
        await propertyCheck(
            input: Gen<UInt16>.value(in: 0...3), Gen<UInt16>.value(in: 0...3), Gen<UInt16>.value(in: 0...3),
            Gen<UInt16>.value(in: 0...3)
        ) { v1, p1, v2, p2 in
            let identity = USBIdentity(vendorID: v2, productID: p2, serialNumber: "S")
            #expect(USBDeviceAddress(vendorID: v1, productID: p1).matches(identity) == (v1 == v2 && p1 == p2))
            #expect(USBDeviceAddress(vendorID: v1, productID: p1, serialNumber: "T").matches(identity) == false)
        }
    }
}

@Suite("Known USB devices")
struct KnownUSBDeviceTests {
    @Test("a Nucleo's ST-LINK is named; other ids are not")
    func stLinkIsNamed() {
        let nucleo = SerialPortInfo(
            path: "/dev/ttyACM0", displayName: "STM32 STLink", transport: .usb,
            usb: USBIdentity(vendorID: 0x0483, productID: 0x374B, serialNumber: "066DFF"))
        #expect(nucleo.knownDevice?.hasPrefix("ST-LINK/V2-1") == true)
        let other = SerialPortInfo(
            path: "/dev/ttyACM1", displayName: "Pico", transport: .usb,
            usb: USBIdentity(vendorID: 0x2E8A, productID: 0x000A))
        #expect(other.knownDevice == nil)
        #expect(SerialPortInfo(path: "/dev/ttyS0", displayName: "ttyS0", transport: .native).knownDevice == nil)
    }
}
