import SystemPackage

@testable import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scripted stand-in for a serial device behind the `SystemCalls` seam: reads return the
/// scripted chunks and errors, writes accept what the script says, and `poll` reports the device
/// ready exactly when the script has something. The only real descriptors are the transport's
/// wake-up pipe and our own signal pipe, on which an idle `poll` really sleeps.
final class MockDevice: @unchecked Sendable {
    enum ReadStep: Sendable { case bytes([UInt8]), error(Int32), endOfFile }
    enum WriteStep: Sendable { case accept(Int), error(Int32) }

    struct State {
        var reads: [ReadStep] = []
        var writes: [WriteStep] = []
        var written: [UInt8] = []
        var hungUp = false
        var openError: Int32?
        var isattyError: Int32?
        var exclusiveError: Int32?
        var ignoresSettings = false
        var attributes = termios()
        var log: [String] = []
    }

    static let descriptor: Int32 = 9999
    let state = Locked(State())
    private let signalRead: Int32
    private let signalWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        (signalRead, signalWrite) = (ends[0], ends[1])
        // A cooked terminal, as a fresh tty would be.
        state.withLock { $0.attributes.c_lflag = tcflag_t(ICANON | ECHO | ISIG) }
    }

    deinit {
        close(signalRead)
        close(signalWrite)
    }

    /// Changes the script and wakes a `poll` that sleeps.
    func script(_ change: (inout State) -> Void) {
        state.withLock(change)
        var byte: UInt8 = 1
        _ = write(signalWrite, &byte, 1)
    }

    var written: [UInt8] { state.withLock { $0.written } }
    var log: [String] { state.withLock { $0.log } }

    var calls: SystemCalls {
        SystemCalls(
            open: { [self] path, _ throws(Errno) in
                let error = state.withLock { state in
                    state.log.append("open \(path)")
                    return state.openError
                }
                if let error { throw Errno(rawValue: error) }
                return FileDescriptor(rawValue: MockDevice.descriptor)
            },
            close: { [self] fd in state.withLock { $0.log.append("close \(fd.rawValue)") } },
            read: { [self] _, buffer throws(Errno) in
                let step = state.withLock { state -> ReadStep? in
                    guard let step = state.reads.first else { return nil }
                    if case .bytes(let bytes) = step, bytes.count > buffer.count {
                        state.reads[0] = .bytes(Array(bytes[buffer.count...]))
                        return .bytes(Array(bytes[..<buffer.count]))
                    }
                    state.reads.removeFirst()
                    return step
                }
                switch step {
                case nil: throw Errno(rawValue: EAGAIN)
                case .bytes(let bytes)?:
                    buffer.copyBytes(from: bytes)
                    return bytes.count
                case .error(let code)?: throw Errno(rawValue: code)
                case .endOfFile?: return 0
                }
            },
            write: { [self] _, buffer throws(Errno) in
                let result = state.withLock { state -> Result<Int, Errno> in
                    let step = state.writes.isEmpty ? WriteStep.accept(Int.max) : state.writes.removeFirst()
                    switch step {
                    case .accept(let limit):
                        let count = min(limit, buffer.count)
                        state.written += buffer.prefix(count)
                        return .success(count)
                    case .error(let code):
                        return .failure(Errno(rawValue: code))
                    }
                }
                return try result.get()
            },
            poll: { [self] fds, timeout throws(Errno) in
                while true {
                    var deviceEvents: Int16 = 0
                    state.withLock { state in
                        if fds[0].fd == MockDevice.descriptor {
                            if fds[0].events & Int16(POLLIN) != 0, !state.reads.isEmpty {
                                deviceEvents |= Int16(POLLIN)
                            }
                            if fds[0].events & Int16(POLLOUT) != 0 { deviceEvents |= Int16(POLLOUT) }
                            if state.hungUp { deviceEvents |= Int16(POLLHUP) }
                        }
                    }
                    var real = [
                        pollfd(fd: fds[1].fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: signalRead, events: Int16(POLLIN), revents: 0),
                    ]
                    _ = systemPoll(&real, deviceEvents != 0 ? 0 : timeout)
                    if real[1].revents != 0 {
                        var sink = [UInt8](repeating: 0, count: 64)
                        while read(signalRead, &sink, 64) > 0 {}
                    }
                    fds[0].revents = deviceEvents
                    fds[1].revents = real[0].revents
                    let ready = (deviceEvents != 0 ? 1 : 0) + (real[0].revents != 0 ? 1 : 0)
                    if ready > 0 { return ready }
                }
            },
            isatty: { [self] _ throws(Errno) in
                if let error = state.withLock({ $0.isattyError }) { throw Errno(rawValue: error) }
            },
            tcgetattr: { [self] _ throws(Errno) in state.withLock { $0.attributes } },
            tcsetattr: { [self] _, settings throws(Errno) in
                state.withLock { state in
                    state.log.append("tcsetattr")
                    if !state.ignoresSettings { state.attributes = settings }
                }
            },
            flushInput: { [self] _ throws(Errno) in state.withLock { $0.log.append("tcflush") } },
            setExclusive: { [self] _, exclusive throws(Errno) in
                let error = state.withLock { state in
                    state.log.append(exclusive ? "TIOCEXCL" : "TIOCNXCL")
                    return exclusive ? state.exclusiveError : nil
                }
                if let error { throw Errno(rawValue: error) }
            },
            setNonBlocking: { _ throws(Errno) in }
        )
    }

    func open(settings: SerialSettings = SerialSettings()) throws(TransportError) -> TermiosTransport {
        try TermiosTransport.open(path: "/dev/ttyMOCK0", settings: settings, calls: calls)
    }
}

/// The real `poll(2)`, under a name the closure above cannot shadow.
private func systemPoll(_ fds: inout [pollfd], _ timeout: Int32) -> Int32 {
    let count = fds.count
    return fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), timeout) }
}
