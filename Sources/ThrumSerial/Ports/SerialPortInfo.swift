/// A serial port the OS reports, with its USB identity when it is a USB device.
public struct SerialPortInfo: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The device path, e.g. `/dev/ttyACM0`.
    public var path: String
    /// What libserialport calls it (`sp_get_port_description`; for USB, usually the product string).
    public var displayName: String
    public var transport: SerialPortTransportKind
    /// Vendor, product, strings and bus position, for USB ports.
    public var usb: USBIdentity?

    public init(path: String, displayName: String, transport: SerialPortTransportKind, usb: USBIdentity? = nil) {
        self.path = path
        self.displayName = displayName
        self.transport = transport
        self.usb = usb
    }

    /// `/dev/ttyACM0 (usb:2e8a:000a:E661, Haptic Board)`.
    public var description: String {
        guard let usbAddress else { return displayName == path ? path : "\(path) (\(displayName))" }
        return "\(path) (\(usbAddress), \(displayName))"
    }

    /// The `usb:VID:PID[:SERIAL]` address that finds this port again, for USB ports.
    public var usbAddress: USBDeviceAddress? {
        usb.map { USBDeviceAddress(vendorID: $0.vendorID, productID: $0.productID, serialNumber: $0.serialNumber) }
    }
}

/// Who made a USB serial device and which one it is.
public struct USBIdentity: Sendable, Hashable, Codable {
    /// USB vendor id (idVendor), e.g. 0x2341 for Arduino.
    public var vendorID: UInt16
    /// USB product id (idProduct).
    public var productID: UInt16
    public var manufacturer: String?
    public var product: String?
    /// The device's serial number string; tells identical boards apart.
    public var serialNumber: String?
    /// USB bus number and device address, when the OS reports them (they change on replug).
    public var bus: Int?
    public var address: Int?

    public init(
        vendorID: UInt16, productID: UInt16, manufacturer: String? = nil, product: String? = nil,
        serialNumber: String? = nil, bus: Int? = nil, address: Int? = nil
    ) {
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.bus = bus
        self.address = address
    }

    /// `2341:0043`, the way `lsusb` writes it.
    public var vendorProduct: String { "\(USBDeviceAddress.hex4(vendorID)):\(USBDeviceAddress.hex4(productID))" }
}
