import ThrumTransport

/// The serial ports of this machine, as libserialport lists them (ports the kernel registers in
/// sysfs: UARTs, USB CDC-ACM and USB-to-UART bridges, Bluetooth; never pseudo-terminals).
public enum SerialPorts {
    /// Every port, sorted by path, with the USB identity of USB ports.
    /// Errors name `sp_list_ports` and the OS error.
    public static func list() throws(TransportError) -> [SerialPortInfo] {
        try list(calls: .live)
    }

    static func list(calls: LibSerialPortCalls) throws(TransportError) -> [SerialPortInfo] {
        let ports: [PortHandle]
        do {
            ports = try calls.listPorts()
        } catch {
            throw error.transportError(device: "the serial port list")
        }
        defer { ports.forEach(calls.freePort) }
        return ports.compactMap { describe($0, calls: calls) }.sorted { $0.path < $1.path }
    }

    /// The port's description; nil for an entry without a name (nothing could open it).
    static func describe(_ port: PortHandle, calls: LibSerialPortCalls) -> SerialPortInfo? {
        guard let path = calls.portName(port), !path.isEmpty else { return nil }
        let transport = calls.portTransport(port)
        var info = SerialPortInfo(path: path, displayName: calls.portDescription(port) ?? path, transport: transport)
        // A USB port whose ids cannot be read (a half-enumerated device) is listed without them.
        if transport == .usb, let ids = try? calls.usbVendorProduct(port),
            let vendor = UInt16(exactly: ids.vendor), let product = UInt16(exactly: ids.product)
        {
            let position = try? calls.usbBusAddress(port)
            info.usb = USBIdentity(
                vendorID: vendor, productID: product,
                manufacturer: nonEmpty(calls.usbManufacturer(port)),
                product: nonEmpty(calls.usbProduct(port)),
                serialNumber: nonEmpty(calls.usbSerial(port)),
                bus: position?.bus, address: position?.address)
        }
        return info
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
