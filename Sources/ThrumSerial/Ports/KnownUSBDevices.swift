/// USB serial devices Thrum knows by their ids: the debug probes and bridges its supported boards
/// show up as, so `thrum ports` can say what a port is before any firmware answers on it.
public enum KnownUSBDevices {
    /// What the device with these ids is, for a user choosing a port; nil for ids Thrum does not know.
    public static func name(vendorID: UInt16, productID: UInt16) -> String? {
        table[Key(vendorID: vendorID, productID: productID)]
    }

    private struct Key: Hashable {
        var vendorID: UInt16
        var productID: UInt16
    }

    /// STMicroelectronics' ST-LINK probes (their virtual COM port is the Nucleo's USART2).
    private static let table: [Key: String] = [
        Key(vendorID: 0x0483, productID: 0x374B): "ST-LINK/V2-1 (a Nucleo board: Firmware-ref/ports/stm32f4)",
        Key(vendorID: 0x0483, productID: 0x3752): "ST-LINK/V2-1 (a Nucleo board: Firmware-ref/ports/stm32f4)",
        Key(vendorID: 0x0483, productID: 0x374E): "ST-LINK/V3 (a Nucleo board)",
        Key(vendorID: 0x0483, productID: 0x374F): "ST-LINK/V3 (a Nucleo board)",
    ]
}

extension SerialPortInfo {
    /// What Thrum knows this port's USB device to be (``KnownUSBDevices``), if anything.
    public var knownDevice: String? {
        usb.flatMap { KnownUSBDevices.name(vendorID: $0.vendorID, productID: $0.productID) }
    }
}
