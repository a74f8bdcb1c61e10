import ThrumTransport

/// A port opened and configured, before its threads start.
struct OpenedPort {
    var port: PortHandle
    var events: EventSetHandle
    var descriptor: Int32

    /// `sp_get_port_by_name`, `sp_open`, then the line settings; on any failure everything
    /// acquired so far is released and the failing call is reported.
    static func open(
        path: String, settings: SerialSettings, calls: LibSerialPortCalls
    ) throws(LibSerialPortFailure) -> OpenedPort {
        let port = try calls.getPortByName(path)
        do throws(LibSerialPortFailure) {
            try calls.open(port)
        } catch {
            calls.freePort(port)
            throw error
        }
        var exclusive = false
        var descriptor: Int32 = -1
        do throws(LibSerialPortFailure) {
            descriptor = try calls.fileDescriptor(port)
            if settings.exclusive {
                // libserialport 0.1.1 opens shared; a second program would steal our bytes.
                try calls.setExclusive(descriptor, true)
                exclusive = true
            }
            try configure(port, descriptor: descriptor, settings: settings, calls: calls)
            let events = try calls.newReadEventSet(port)
            return OpenedPort(port: port, events: events, descriptor: descriptor)
        } catch {
            if exclusive { try? calls.setExclusive(descriptor, false) }
            try? calls.close(port)
            calls.freePort(port)
            throw error
        }
    }

    /// Raw 8N1 at the rate, the flow control asked for, DTR and RTS on (many USB CDC devices,
    /// TinyUSB among them, treat DTR as "a host is listening" and drop output without it),
    /// HUPCL as asked (off by default, so closing does not reset Uno-class boards), and stale
    /// input dropped.
    private static func configure(
        _ port: PortHandle, descriptor: Int32, settings: SerialSettings, calls: LibSerialPortCalls
    ) throws(LibSerialPortFailure) {
        try calls.setBaudRate(port, settings.baudRate)
        try calls.setDataBits(port, 8)
        try calls.setNoParity(port)
        try calls.setStopBits(port, 1)
        switch settings.flowControl {
        case .none:
            try calls.setFlowControl(port, .none)
            try calls.setRTS(port, true)
        case .hardware:
            try calls.setFlowControl(port, .rtsCts)
        }
        try calls.setDTR(port, true)
        try calls.setHangUpOnClose(descriptor, settings.hangUpOnClose)
        if settings.discardStaleInput {
            try calls.flush(port, .input)
        }
    }
}
