/// The libserialport calls ThrumSerial makes, gathered in one value so that tests can replace
/// them: error mapping, timeouts, hang-ups and unplugging are then tested without hardware.
/// `live` calls the library. Each member names the C function it wraps; a failing call throws
/// a ``LibSerialPortFailure`` carrying that name, its `sp_return` and, for `SP_ERR_FAIL`, the
/// OS error and message.
///
/// Thread rules (libserialport's): different ports may be used concurrently; on one port, one
/// reader thread (`sp_wait` on its read events, `sp_nonblocking_read`, `sp_input_waiting`) and one
/// writer thread (`sp_blocking_write`) may run at once; everything else (open, configure, flush,
/// close) happens while neither runs.
struct LibSerialPortCalls: Sendable {
    // MARK: finding ports

    /// `sp_get_port_by_name`: a port by device path. `SP_ERR_ARG` when libserialport does not
    /// know the device (it looks it up in sysfs, so pseudo-terminals are refused).
    var getPortByName: @Sendable (_ path: String) throws(LibSerialPortFailure) -> PortHandle
    /// `sp_list_ports` (each port copied with `sp_copy_port`, the list freed with
    /// `sp_free_port_list`): every port the OS reports. Release each with `freePort`.
    var listPorts: @Sendable () throws(LibSerialPortFailure) -> [PortHandle]
    /// `sp_free_port`.
    var freePort: @Sendable (_ port: PortHandle) -> Void

    // MARK: describing a port (valid on any port, open or not)

    /// `sp_get_port_name`: the device path.
    var portName: @Sendable (_ port: PortHandle) -> String?
    /// `sp_get_port_description`: a human-readable name (for USB: the product string).
    var portDescription: @Sendable (_ port: PortHandle) -> String?
    /// `sp_get_port_transport`.
    var portTransport: @Sendable (_ port: PortHandle) -> SerialPortTransportKind
    /// `sp_get_port_usb_bus_address`: USB bus and device address.
    var usbBusAddress: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> (bus: Int, address: Int)
    /// `sp_get_port_usb_vid_pid`: USB vendor and product id.
    var usbVendorProduct: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> (vendor: Int, product: Int)
    /// `sp_get_port_usb_manufacturer`.
    var usbManufacturer: @Sendable (_ port: PortHandle) -> String?
    /// `sp_get_port_usb_product`.
    var usbProduct: @Sendable (_ port: PortHandle) -> String?
    /// `sp_get_port_usb_serial`.
    var usbSerial: @Sendable (_ port: PortHandle) -> String?

    // MARK: opening and configuring (no reader or writer running)

    /// `sp_open` with `SP_MODE_READ_WRITE` (raw mode, non-blocking descriptor).
    var open: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> Void
    /// `sp_close`.
    var close: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> Void
    /// `sp_get_port_handle`: the OS file descriptor of an open port.
    var fileDescriptor: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> Int32
    /// `sp_set_baudrate`.
    var setBaudRate: @Sendable (_ port: PortHandle, _ rate: Int) throws(LibSerialPortFailure) -> Void
    /// `sp_set_bits`.
    var setDataBits: @Sendable (_ port: PortHandle, _ bits: Int) throws(LibSerialPortFailure) -> Void
    /// `sp_set_parity` with `SP_PARITY_NONE`.
    var setNoParity: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> Void
    /// `sp_set_stopbits`.
    var setStopBits: @Sendable (_ port: PortHandle, _ bits: Int) throws(LibSerialPortFailure) -> Void
    /// `sp_set_flowcontrol`.
    var setFlowControl: @Sendable (_ port: PortHandle, _ flow: PortFlowControl) throws(LibSerialPortFailure) -> Void
    /// `sp_set_dtr` with `SP_DTR_ON` (true) or `SP_DTR_OFF`.
    var setDTR: @Sendable (_ port: PortHandle, _ on: Bool) throws(LibSerialPortFailure) -> Void
    /// `sp_set_rts` with `SP_RTS_ON` (true) or `SP_RTS_OFF`.
    var setRTS: @Sendable (_ port: PortHandle, _ on: Bool) throws(LibSerialPortFailure) -> Void
    /// `sp_flush`: drops buffered bytes.
    var flush: @Sendable (_ port: PortHandle, _ buffers: PortBuffers) throws(LibSerialPortFailure) -> Void
    /// `tcgetattr`/`tcsetattr` on the port's descriptor, setting or clearing `HUPCL` (libserialport
    /// 0.1.1 has no call for it, and leaves it set: DTR drops on close and resets Uno-class boards).
    var setHangUpOnClose: @Sendable (_ fd: Int32, _ on: Bool) throws(LibSerialPortFailure) -> Void
    /// `ioctl(TIOCEXCL / TIOCNXCL)` on the port's descriptor (libserialport 0.1.1 opens shared):
    /// while set, a second program's open fails with EBUSY instead of stealing bytes.
    var setExclusive: @Sendable (_ fd: Int32, _ on: Bool) throws(LibSerialPortFailure) -> Void

    // MARK: the reader thread

    /// `sp_new_event_set` and `sp_add_port_events(RX_READY | ERROR)`: what the reader waits for.
    var newReadEventSet: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> EventSetHandle
    /// `sp_free_event_set`.
    var freeEventSet: @Sendable (_ events: EventSetHandle) -> Void
    /// `sp_wait`: blocks until an event in the set fires or `timeoutMilliseconds` pass (it does
    /// not say which; a read decides).
    var wait: @Sendable (_ events: EventSetHandle, _ timeoutMilliseconds: UInt32) throws(LibSerialPortFailure) -> Void
    /// `sp_nonblocking_read`: the count read into `buffer`, 0 when nothing is there (or at end of
    /// file: libserialport does not tell them apart, so the reader asks `inputWaiting`).
    var nonblockingRead:
        @Sendable (_ port: PortHandle, _ buffer: UnsafeMutableRawBufferPointer) throws(LibSerialPortFailure) -> Int
    /// `sp_input_waiting`: bytes the OS holds for us. Fails with EIO once the line hung up (unplug).
    var inputWaiting: @Sendable (_ port: PortHandle) throws(LibSerialPortFailure) -> Int

    // MARK: the writer thread

    /// `sp_blocking_write`: the count handed to the OS before `timeoutMilliseconds` passed
    /// (all of `buffer` unless the OS buffer stayed full).
    var blockingWrite:
        @Sendable (_ port: PortHandle, _ buffer: UnsafeRawBufferPointer, _ timeoutMilliseconds: UInt32)
            throws(LibSerialPortFailure) -> Int
}
