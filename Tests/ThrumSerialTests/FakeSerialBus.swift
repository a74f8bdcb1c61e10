import ThrumTransport

@testable import ThrumSerial

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in for libserialport and the devices behind it, behind the `LibSerialPortCalls`
/// seam: devices with USB identities, null-modem pairs (what one writes, the other reads),
/// unplugging, forced failures of any function, and a log of calls. Blocking calls block for
/// real (on the port's own threads), with their timeouts, like the library's.
final class FakeSerialBus: @unchecked Sendable {
    struct USBInfo {
        var vendor: Int
        var product: Int
        var manufacturer: String?
        var product_: String?
        var serial: String?
        var bus = 1
        var address = 4
    }

    struct Device {
        var path: String
        var description: String
        var transport: SerialPortTransportKind = .usb
        var usb: USBInfo?
        /// Index of the device at the other end of the cable.
        var peer: Int?
        var inbound: [UInt8] = []
        var isOpen = false
        var exclusive = false
        /// The other end went away: waits return at once, reads find nothing, ioctls fail EIO.
        var hungUp = false
        var unplugged = false
        var baudRate: Int?
        var dtr: Bool?
        var rts: Bool?
        var flow: PortFlowControl?
        var hangUpOnClose: Bool?
    }

    struct State {
        var devices: [Device] = []
        /// Handle id → device index.
        var handles: [Int: Int] = [:]
        var eventSets: [Int: Int] = [:]
        var nextHandle = 0x1000
        /// A call of the named function fails with this (until removed).
        var failures: [String: LibSerialPortFailure] = [:]
        var log: [String] = []
        var waits = 0
        /// Continuations resumed once their condition holds (checked after every call).
        var observers: [(condition: (State) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        /// Waits return at once as if an event fired (a line signalling with nothing to read).
        var spuriousWakes = false
        var partialWrites = 0
    }

    let inboundCapacity: Int
    private var state = State()
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(inboundCapacity: Int = 4096) {
        self.inboundCapacity = inboundCapacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    // MARK: setting up and observing

    @discardableResult
    func add(_ device: Device) -> Int {
        locked { state in
            state.devices.append(device)
            return state.devices.count - 1
        }
    }

    /// Two devices joined by a null-modem cable.
    func addPair(_ first: String = "/dev/ttyFAKE0", _ second: String = "/dev/ttyFAKE1") {
        let a = add(Device(path: first, description: "fake \(first)"))
        let b = add(Device(path: second, description: "fake \(second)"))
        locked { state in
            state.devices[a].peer = b
            state.devices[b].peer = a
        }
    }

    func fail(_ function: String, _ code: LibSerialPortFailure.Code, errno: Int32 = 0, message: String? = nil) {
        let text = message ?? (errno == 0 ? nil : String(cString: strerror(errno)))
        locked { $0.failures[function] = LibSerialPortFailure(function, code, osError: errno, osMessage: text) }
    }

    func unplug(_ path: String) {
        locked { state in
            guard let index = state.devices.firstIndex(where: { $0.path == path }) else { return }
            state.devices[index].unplugged = true
            if let peer = state.devices[index].peer { state.devices[peer].hungUp = true }
        }
    }

    func setSpuriousWakes(_ on: Bool) { locked { $0.spuriousWakes = on } }

    /// Puts bytes in a device's input, as if its far end sent them.
    func receive(_ bytes: [UInt8], at path: String) {
        locked { state in
            guard let index = state.devices.firstIndex(where: { $0.path == path }) else { return }
            state.devices[index].inbound += bytes
        }
    }

    func device(_ path: String) -> Device? { locked { $0.devices.first { $0.path == path } } }
    var log: [String] { locked { $0.log } }
    var outstandingHandles: Int { locked { $0.handles.count + $0.eventSets.count } }
    var waitCount: Int { locked { $0.waits } }
    var partialWrites: Int { locked { $0.partialWrites } }

    /// Returns once the reader threads made `count` `sp_wait` calls in all.
    func waits(reaching count: Int) async {
        await until { $0.waits >= count }
    }

    /// Returns once every port handle and event set was freed.
    func allReleased() async {
        await until { $0.handles.isEmpty && $0.eventSets.isEmpty }
    }

    /// Returns once `condition` holds, without polling: checked after every call into the fake.
    func until(_ condition: @escaping (State) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = locked { state -> Bool in
                if condition(state) { return true }
                state.observers.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Resumes the observers whose condition now holds (called with the lock held; resuming
    /// only schedules their tasks).
    private func notifyObservers() {
        guard !state.observers.isEmpty else { return }
        let current = state
        let ready = state.observers.filter { $0.condition(current) }
        state.observers.removeAll { $0.condition(current) }
        ready.forEach { $0.continuation.resume() }
    }

    // MARK: the seam

    var calls: LibSerialPortCalls {
        LibSerialPortCalls(
            getPortByName: { path throws(LibSerialPortFailure) in
                try self.call("sp_get_port_by_name") { state throws(LibSerialPortFailure) in
                    guard let index = state.devices.firstIndex(where: { $0.path == path && !$0.unplugged }) else {
                        throw LibSerialPortFailure("sp_get_port_by_name", .argument)
                    }
                    return Self.newHandle(for: index, &state)
                }
            },
            listPorts: { () throws(LibSerialPortFailure) in
                try self.call("sp_list_ports") { state in
                    state.devices.indices.filter { !state.devices[$0].unplugged }.map {
                        Self.newHandle(for: $0, &state)
                    }
                }
            },
            freePort: { port in
                self.locked { state in
                    state.log.append("sp_free_port")
                    state.handles[Self.id(port.pointer)] = nil
                }
            },
            portName: { port in self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].path } },
            portDescription: { port in
                self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].description }
            },
            portTransport: { port in
                self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].transport }
            },
            usbBusAddress: { port throws(LibSerialPortFailure) in
                try self.call("sp_get_port_usb_bus_address") { state throws(LibSerialPortFailure) in
                    guard let usb = state.devices[state.handles[Self.id(port.pointer)]!].usb else {
                        throw LibSerialPortFailure("sp_get_port_usb_bus_address", .argument)
                    }
                    return (usb.bus, usb.address)
                }
            },
            usbVendorProduct: { port throws(LibSerialPortFailure) in
                try self.call("sp_get_port_usb_vid_pid") { state throws(LibSerialPortFailure) in
                    guard let usb = state.devices[state.handles[Self.id(port.pointer)]!].usb else {
                        throw LibSerialPortFailure("sp_get_port_usb_vid_pid", .argument)
                    }
                    return (usb.vendor, usb.product)
                }
            },
            usbManufacturer: { port in
                self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].usb?.manufacturer }
            },
            usbProduct: { port in
                self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].usb?.product_ }
            },
            usbSerial: { port in
                self.locked { state in state.devices[state.handles[Self.id(port.pointer)]!].usb?.serial }
            },
            open: { port throws(LibSerialPortFailure) in
                try self.call("sp_open") { state throws(LibSerialPortFailure) in
                    let index = state.handles[Self.id(port.pointer)]!
                    if state.devices[index].exclusive {
                        throw LibSerialPortFailure(
                            "sp_open", .fail, osError: EBUSY, osMessage: String(cString: strerror(EBUSY)))
                    }
                    state.devices[index].isOpen = true
                }
            },
            close: { port throws(LibSerialPortFailure) in
                try self.call("sp_close") { state in
                    let index = state.handles[Self.id(port.pointer)]!
                    state.devices[index].isOpen = false
                    state.devices[index].exclusive = false
                    if let peer = state.devices[index].peer { state.devices[peer].hungUp = true }
                }
            },
            fileDescriptor: { port throws(LibSerialPortFailure) in
                try self.call("sp_get_port_handle") { state in Int32(100 + state.handles[Self.id(port.pointer)]!) }
            },
            setBaudRate: { port, rate throws(LibSerialPortFailure) in
                try self.call("sp_set_baudrate") { state in
                    state.devices[state.handles[Self.id(port.pointer)]!].baudRate = rate
                }
            },
            setDataBits: { _, _ throws(LibSerialPortFailure) in try self.call("sp_set_bits") { _ in } },
            setNoParity: { _ throws(LibSerialPortFailure) in try self.call("sp_set_parity") { _ in } },
            setStopBits: { _, _ throws(LibSerialPortFailure) in try self.call("sp_set_stopbits") { _ in } },
            setFlowControl: { port, flow throws(LibSerialPortFailure) in
                try self.call("sp_set_flowcontrol") { state in
                    state.devices[state.handles[Self.id(port.pointer)]!].flow = flow
                }
            },
            setDTR: { port, on throws(LibSerialPortFailure) in
                try self.call("sp_set_dtr") { state in state.devices[state.handles[Self.id(port.pointer)]!].dtr = on }
            },
            setRTS: { port, on throws(LibSerialPortFailure) in
                try self.call("sp_set_rts") { state in state.devices[state.handles[Self.id(port.pointer)]!].rts = on }
            },
            flush: { port, buffers throws(LibSerialPortFailure) in
                try self.call("sp_flush") { state in
                    if buffers != .output { state.devices[state.handles[Self.id(port.pointer)]!].inbound = [] }
                }
            },
            setHangUpOnClose: { fd, on throws(LibSerialPortFailure) in
                try self.call("tcsetattr") { state in state.devices[Int(fd) - 100].hangUpOnClose = on }
            },
            setExclusive: { fd, on throws(LibSerialPortFailure) in
                try self.call(on ? "ioctl(TIOCEXCL)" : "ioctl(TIOCNXCL)") { state in
                    state.devices[Int(fd) - 100].exclusive = on
                }
            },
            newReadEventSet: { port throws(LibSerialPortFailure) in
                try self.call("sp_new_event_set") { state in
                    state.nextHandle += 1
                    state.eventSets[state.nextHandle] = state.handles[Self.id(port.pointer)]!
                    return EventSetHandle(pointer: OpaquePointer(bitPattern: state.nextHandle)!)
                }
            },
            freeEventSet: { events in
                self.locked { state in
                    state.log.append("sp_free_event_set")
                    state.eventSets[Self.id(events.pointer)] = nil
                }
            },
            wait: { events, timeout throws(LibSerialPortFailure) in try self.wait(events, timeout) },
            nonblockingRead: { port, buffer throws(LibSerialPortFailure) in
                try self.call("sp_nonblocking_read", logged: false) { state in
                    let index = state.handles[Self.id(port.pointer)]!
                    let count = min(buffer.count, state.devices[index].inbound.count)
                    buffer.copyBytes(from: state.devices[index].inbound.prefix(count))
                    state.devices[index].inbound.removeFirst(count)
                    return count
                }
            },
            inputWaiting: { port throws(LibSerialPortFailure) in
                try self.call("sp_input_waiting", logged: false) { state throws(LibSerialPortFailure) in
                    let device = state.devices[state.handles[Self.id(port.pointer)]!]
                    if device.unplugged || device.hungUp {
                        throw LibSerialPortFailure(
                            "sp_input_waiting", .fail, osError: EIO, osMessage: String(cString: strerror(EIO)))
                    }
                    return device.inbound.count
                }
            },
            blockingWrite: { port, buffer, timeout throws(LibSerialPortFailure) in try self.write(port, buffer, timeout)
            }
        )
    }

    // MARK: blocking calls

    private func wait(_ events: EventSetHandle, _ timeout: UInt32) throws(LibSerialPortFailure) {
        let deadline = Self.deadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer {
            notifyObservers()
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        if let failure = state.failures["sp_wait"] { throw failure }
        state.waits += 1
        guard let index = state.eventSets[Self.id(events.pointer)] else { return }
        var deadlineSpec = deadline
        while !state.spuriousWakes {
            let device = state.devices[index]
            if !device.inbound.isEmpty || device.hungUp || device.unplugged { return }
            if pthread_cond_timedwait(condition, mutex, &deadlineSpec) == ETIMEDOUT { return }
        }
    }

    private func write(
        _ port: PortHandle, _ buffer: UnsafeRawBufferPointer, _ timeout: UInt32
    ) throws(LibSerialPortFailure) -> Int {
        var deadline = Self.deadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer {
            notifyObservers()
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        if let failure = state.failures["sp_blocking_write"] { throw failure }
        let index = state.handles[Self.id(port.pointer)]!
        var written = 0
        while written < buffer.count {
            let device = state.devices[index]
            if device.unplugged || device.hungUp {
                throw LibSerialPortFailure(
                    "sp_blocking_write", .fail, osError: EIO, osMessage: String(cString: strerror(EIO)))
            }
            guard let peer = device.peer else { return buffer.count }  // a loose end: the bytes vanish
            let room = inboundCapacity - state.devices[peer].inbound.count
            if room > 0 {
                let count = min(room, buffer.count - written)
                state.devices[peer].inbound += buffer[written..<written + count]
                written += count
                pthread_cond_broadcast(condition)
                continue
            }
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                state.partialWrites += 1
                return written
            }
        }
        return written
    }

    // MARK: helpers

    private func locked<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer {
            notifyObservers()
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Logs the call, throws its forced failure if any, else runs `body`.
    private func call<R>(
        _ function: String, logged: Bool = true, _ body: (inout State) throws(LibSerialPortFailure) -> R
    ) throws(LibSerialPortFailure) -> R {
        pthread_mutex_lock(mutex)
        defer {
            notifyObservers()
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        if logged { state.log.append(function) }
        if let failure = state.failures[function] { throw failure }
        return try body(&state)
    }

    private static func newHandle(for index: Int, _ state: inout State) -> PortHandle {
        state.nextHandle += 1
        state.handles[state.nextHandle] = index
        return PortHandle(pointer: OpaquePointer(bitPattern: state.nextHandle)!)
    }

    private static func id(_ pointer: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(pointer)) }

    private static func deadline(after milliseconds: UInt32) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var nanoseconds = Int(now.tv_nsec) + Int(milliseconds) * 1_000_000
        let seconds = now.tv_sec + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        return timespec(tv_sec: seconds, tv_nsec: nanoseconds)
    }
}

extension SerialPortTuning {
    /// Short blocking calls, so closing in tests is quick.
    static let fast = SerialPortTuning(
        pollIntervalMilliseconds: 5, writeSlice: 16 * 1024, readChunk: 64 * 1024, earlyWakeLimit: 64)
}
