import CLibSerialPort

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibSerialPortCalls {
    /// The real library.
    static let live = LibSerialPortCalls(
        getPortByName: { path throws(LibSerialPortFailure) in
            var port: OpaquePointer?
            try check("sp_get_port_by_name", sp_get_port_by_name(path, &port))
            guard let port else { throw LibSerialPortFailure("sp_get_port_by_name", .memory) }
            return PortHandle(pointer: port)
        },
        listPorts: { () throws(LibSerialPortFailure) in
            var list: UnsafeMutablePointer<OpaquePointer?>?
            try check("sp_list_ports", sp_list_ports(&list))
            guard let list else { return [] }
            defer { sp_free_port_list(list) }
            var ports: [PortHandle] = []
            var index = 0
            while let port = list[index] {
                var copy: OpaquePointer?
                do throws(LibSerialPortFailure) {
                    try check("sp_copy_port", sp_copy_port(port, &copy))
                } catch {
                    ports.forEach { sp_free_port($0.pointer) }
                    throw error
                }
                if let copy { ports.append(PortHandle(pointer: copy)) }
                index += 1
            }
            return ports
        },
        freePort: { port in sp_free_port(port.pointer) },
        portName: { port in string(sp_get_port_name(port.pointer)) },
        portDescription: { port in string(sp_get_port_description(port.pointer)) },
        portTransport: { port in
            switch sp_get_port_transport(port.pointer) {
            case SP_TRANSPORT_USB: .usb
            case SP_TRANSPORT_BLUETOOTH: .bluetooth
            default: .native
            }
        },
        usbBusAddress: { port throws(LibSerialPortFailure) in
            var bus: Int32 = 0, address: Int32 = 0
            try check("sp_get_port_usb_bus_address", sp_get_port_usb_bus_address(port.pointer, &bus, &address))
            return (Int(bus), Int(address))
        },
        usbVendorProduct: { port throws(LibSerialPortFailure) in
            var vendor: Int32 = 0, product: Int32 = 0
            try check("sp_get_port_usb_vid_pid", sp_get_port_usb_vid_pid(port.pointer, &vendor, &product))
            return (Int(vendor), Int(product))
        },
        usbManufacturer: { port in string(sp_get_port_usb_manufacturer(port.pointer)) },
        usbProduct: { port in string(sp_get_port_usb_product(port.pointer)) },
        usbSerial: { port in string(sp_get_port_usb_serial(port.pointer)) },
        open: { port throws(LibSerialPortFailure) in
            try check("sp_open", sp_open(port.pointer, SP_MODE_READ_WRITE))
        },
        close: { port throws(LibSerialPortFailure) in
            try check("sp_close", sp_close(port.pointer))
        },
        fileDescriptor: { port throws(LibSerialPortFailure) in
            var descriptor: Int32 = -1
            try check("sp_get_port_handle", sp_get_port_handle(port.pointer, &descriptor))
            return descriptor
        },
        setBaudRate: { port, rate throws(LibSerialPortFailure) in
            guard let rate = Int32(exactly: rate) else { throw LibSerialPortFailure("sp_set_baudrate", .argument) }
            try check("sp_set_baudrate", sp_set_baudrate(port.pointer, rate))
        },
        setDataBits: { port, bits throws(LibSerialPortFailure) in
            try check("sp_set_bits", sp_set_bits(port.pointer, Int32(clamping: bits)))
        },
        setNoParity: { port throws(LibSerialPortFailure) in
            try check("sp_set_parity", sp_set_parity(port.pointer, SP_PARITY_NONE))
        },
        setStopBits: { port, bits throws(LibSerialPortFailure) in
            try check("sp_set_stopbits", sp_set_stopbits(port.pointer, Int32(clamping: bits)))
        },
        setFlowControl: { port, flow throws(LibSerialPortFailure) in
            let value = flow == .rtsCts ? SP_FLOWCONTROL_RTSCTS : SP_FLOWCONTROL_NONE
            try check("sp_set_flowcontrol", sp_set_flowcontrol(port.pointer, value))
        },
        setDTR: { port, on throws(LibSerialPortFailure) in
            try check("sp_set_dtr", sp_set_dtr(port.pointer, on ? SP_DTR_ON : SP_DTR_OFF))
        },
        setRTS: { port, on throws(LibSerialPortFailure) in
            try check("sp_set_rts", sp_set_rts(port.pointer, on ? SP_RTS_ON : SP_RTS_OFF))
        },
        flush: { port, buffers throws(LibSerialPortFailure) in
            let value =
                switch buffers {
                case .input: SP_BUF_INPUT
                case .output: SP_BUF_OUTPUT
                case .both: SP_BUF_BOTH
                }
            try check("sp_flush", sp_flush(port.pointer, value))
        },
        setHangUpOnClose: { fd, on throws(LibSerialPortFailure) in
            var settings = termios()
            guard tcgetattr(fd, &settings) == 0 else { throw osFailure("tcgetattr") }
            if on {
                settings.c_cflag |= tcflag_t(HUPCL)
            } else {
                settings.c_cflag &= ~tcflag_t(HUPCL)
            }
            guard tcsetattr(fd, TCSANOW, &settings) == 0 else { throw osFailure("tcsetattr") }
        },
        setExclusive: { fd, on throws(LibSerialPortFailure) in
            guard ioctl(fd, UInt(on ? TIOCEXCL : TIOCNXCL)) == 0 else {
                throw osFailure(on ? "ioctl(TIOCEXCL)" : "ioctl(TIOCNXCL)")
            }
        },
        newReadEventSet: { port throws(LibSerialPortFailure) in
            var events: UnsafeMutablePointer<sp_event_set>?
            try check("sp_new_event_set", sp_new_event_set(&events))
            guard let events else { throw LibSerialPortFailure("sp_new_event_set", .memory) }
            let mask = sp_event(rawValue: SP_EVENT_RX_READY.rawValue | SP_EVENT_ERROR.rawValue)
            do throws(LibSerialPortFailure) {
                try check("sp_add_port_events", sp_add_port_events(events, port.pointer, mask))
            } catch {
                sp_free_event_set(events)
                throw error
            }
            return EventSetHandle(pointer: OpaquePointer(events))
        },
        freeEventSet: { events in sp_free_event_set(UnsafeMutablePointer<sp_event_set>(events.pointer)) },
        wait: { events, timeout throws(LibSerialPortFailure) in
            try check("sp_wait", sp_wait(UnsafeMutablePointer<sp_event_set>(events.pointer), timeout))
        },
        nonblockingRead: { port, buffer throws(LibSerialPortFailure) in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            return try count("sp_nonblocking_read", sp_nonblocking_read(port.pointer, base, buffer.count))
        },
        inputWaiting: { port throws(LibSerialPortFailure) in
            try count("sp_input_waiting", sp_input_waiting(port.pointer))
        },
        blockingWrite: { port, buffer, timeout throws(LibSerialPortFailure) in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            return try count("sp_blocking_write", sp_blocking_write(port.pointer, base, buffer.count, timeout))
        }
    )
}

// MARK: turning sp_return into Swift

/// Throws the failure `result` stands for, if it is one.
private func check(_ function: String, _ result: sp_return) throws(LibSerialPortFailure) {
    _ = try count(function, result)
}

/// A non-negative `sp_return` is a count; a negative one is an error, read out at once (the OS
/// error is only valid on this thread, right after the failing call).
private func count(_ function: String, _ result: sp_return) throws(LibSerialPortFailure) -> Int {
    let raw = result.rawValue
    if raw >= 0 { return Int(raw) }
    guard raw == SP_ERR_FAIL.rawValue else { throw LibSerialPortFailure(function, rawResult: raw) }
    let code = sp_last_error_code()
    var message: String?
    if let text = sp_last_error_message() {
        message = String(cString: text)
        sp_free_error_message(text)
    }
    throw LibSerialPortFailure(function, .fail, osError: code, osMessage: message)
}

/// An OS call of ours that failed (the termios helpers), in the same shape.
private func osFailure(_ function: String) -> LibSerialPortFailure {
    let code = errno
    return LibSerialPortFailure(function, .fail, osError: code, osMessage: String(cString: strerror(code)))
}

/// A C string libserialport owns (valid as long as the port), copied.
private func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}
