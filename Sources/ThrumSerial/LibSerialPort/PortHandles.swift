/// An `sp_port *` from libserialport (or a stand-in from a test's fake): owned by whoever got it
/// from `sp_get_port_by_name` or `sp_copy_port`, released with `sp_free_port`.
struct PortHandle: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

/// An `sp_event_set *`: the events one thread waits for with `sp_wait`, released with `sp_free_event_set`.
struct EventSetHandle: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

/// `enum sp_transport`: how the OS reaches the port.
public enum SerialPortTransportKind: String, Sendable, Hashable, Codable {
    /// A UART on the board or a PCI card (`/dev/ttyS*`).
    case native
    /// A USB CDC-ACM device or USB-to-UART bridge (`/dev/ttyACM*`, `/dev/ttyUSB*`).
    case usb
    /// A Bluetooth serial link (`/dev/rfcomm*`).
    case bluetooth
}

/// `enum sp_flowcontrol`, as far as Thrum uses it.
enum PortFlowControl: Sendable, Equatable {
    case none
    case rtsCts
}

/// `enum sp_buffer`.
enum PortBuffers: Sendable, Equatable {
    case input
    case output
    case both
}
