import Foundation
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves bytes between one non-blocking file descriptor and async Swift, on a dedicated thread
/// that sleeps in `poll(2)`: the cooperative pool never blocks on the device.
///
/// Reads land in a bounded queue (when it is full the thread stops reading, so the kernel and
/// flow control hold the sender back); writes wait in a list and complete once `write(2)` took
/// all their bytes. A pipe wakes the thread when there is something new to do.
final class DescriptorPump: @unchecked Sendable {
    private struct State {
        var closing = false
        /// Open once the thread closed the descriptor and left.
        var exited = Latch()
        /// Writes waiting for the OS to take their bytes, with the bytes still to send.
        var writes = PendingList<Void, ArraySlice<UInt8>>()
        /// Writes fail with this once the device hung up or a write failed.
        var writeEnd: TransportError?
        var inputPaused = false
    }

    let device: String
    let descriptor: FileDescriptor
    let incoming: ByteQueue
    private let calls: SystemCalls
    private let releaseExclusive: Bool
    /// Descriptors closed together with ours (a pseudo-terminal's held device side).
    private let companions: [FileDescriptor]
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let state = Locked(State())

    /// Takes ownership of `descriptor` (already non-blocking) and starts the thread.
    init(
        descriptor: FileDescriptor, device: String, receiveBufferSize: Int, calls: SystemCalls,
        releaseExclusive: Bool, companions: [FileDescriptor] = []
    ) throws(TransportError) {
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try SystemCalls.typed { try FileDescriptor.pipe() }
        } catch {
            calls.close(descriptor)
            companions.forEach(calls.close)
            throw TransportError.system(error.rawValue, operation: "pipe", device: device)
        }
        for end in [ends.readEnd.rawValue, ends.writeEnd.rawValue] {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        self.descriptor = descriptor
        self.device = device
        self.calls = calls
        self.releaseExclusive = releaseExclusive
        self.companions = companions
        self.wakeRead = ends.readEnd
        self.wakeWrite = ends.writeEnd
        self.incoming = ByteQueue(capacity: receiveBufferSize)
        incoming.setSpaceHandler { [weak self] in self?.wakeIfInputPaused() }
        let thread = Thread { [self] in run() }
        thread.name = "thrum-io"
        thread.start()
    }

    // MARK: called from async code

    func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else {
            if let end = state.withLock({ $0.closing ? closedError : $0.writeEnd }) { throw end }
            return
        }
        // Cancelled, a write's bytes already handed to the OS stay sent; the rest is dropped.
        try await state.suspend(in: \.writes) { state, resumptions in
            if state.closing { return .done(.failure(closedError)) }
            if let end = state.writeEnd { return .done(.failure(end)) }
            resumptions.afterwards { self.wake() }  // wake() takes the lock itself
            return .wait(bytes[...])
        }
    }

    /// Stops the thread, fails pending reads and writes with `.closed`, and returns once the
    /// descriptor is closed (so the device can be reopened at once). Idempotent.
    func close() async {
        beginClosing()
        await state.waitUntilOpen(\.exited)
    }

    /// The synchronous part of closing, also used when the owner is dropped without closing.
    func beginClosing() {
        var resumptions = Resumptions()
        let wasClosing = state.withLock { state -> Bool in
            defer { state.closing = true }
            if !state.closing { state.writes.failAll(closedError, into: &resumptions) }
            return state.closing
        }
        resumptions.run()
        guard !wasClosing else { return }
        incoming.closeReading(readers: closedError, writers: closedError)
        wake()
    }

    /// Runs `body` with the descriptor while it is certainly open.
    func withOpenDescriptor<R>(_ body: (FileDescriptor) throws(TransportError) -> R) throws(TransportError) -> R {
        let result = state.withLock { state -> Result<R, TransportError> in
            guard !state.exited.isOpen, !state.closing else { return .failure(closedError) }
            return Result { () throws(TransportError) -> R in try body(descriptor) }
        }
        return try result.get()
    }

    private var closedError: TransportError { TransportError(.closed, device: device) }

    private func wake() {
        // Under the lock: once the thread has exited, the pipe's numbers may already belong to
        // another descriptor, and a stray byte there would corrupt someone else's stream.
        state.withLock { state in
            guard !state.exited.isOpen else { return }
            // EAGAIN: the pipe is full, a wake-up is pending anyway.
            _ = try? wakeWrite.writeAll(CollectionOfOne(UInt8(1)))
        }
    }

    private func wakeIfInputPaused() {
        if state.withLock({ $0.inputPaused }) { wake() }
    }

    // MARK: the I/O thread

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var inputOpen = true
        var hungUp = false

        while true {
            // Mark paused before looking at the room, so a reader freeing room now still wakes us.
            let (closing, wantWrite) = state.withLock { state in
                state.inputPaused = true
                return (state.closing, !state.writes.isEmpty && state.writeEnd == nil)
            }
            if closing { break }
            let wantInput = inputOpen && incoming.freeSpace > 0
            if wantInput { state.withLock { $0.inputPaused = false } }

            var events: Int16 = 0
            if wantInput { events |= Int16(POLLIN) }
            if wantWrite { events |= Int16(POLLOUT) }
            // Nothing wanted: leave the device out, or a hang-up would wake us forever.
            var fds = [
                pollfd(fd: events == 0 ? -1 : descriptor.rawValue, events: events, revents: 0),
                pollfd(fd: wakeRead.rawValue, events: Int16(POLLIN), revents: 0),
            ]
            do {
                _ = try calls.poll(&fds, -1)
            } catch {
                let failure = TransportError.system(error.rawValue, operation: "poll", device: device)
                endInput(failure)
                endWrites(failure)
                inputOpen = false
                waitForClose()
                break
            }
            if fds[1].revents != 0 { drainWakePipe() }
            let ready = fds[0].revents
            if ready & Int16(POLLNVAL) != 0 {
                let failure = TransportError.system(EBADF, operation: "poll", device: device)
                endInput(failure)
                endWrites(failure)
                inputOpen = false
                waitForClose()
                break
            }
            let hangUp = ready & Int16(POLLHUP | POLLERR) != 0
            if wantInput, hangUp || ready & Int16(POLLIN) != 0 {
                inputOpen = readAvailable(into: buffer, hungUp: hangUp)
            }
            if hangUp, !hungUp {
                hungUp = true
                endWrites(
                    TransportError(
                        .disconnected, device: device, operation: "poll",
                        detail: "the line hung up: the device was unplugged or the other side closed"))
            }
            if !hungUp, ready & Int16(POLLOUT) != 0 {
                flushWrites()
            }
        }
        shutDown()
    }

    /// Reads until the kernel has nothing more or our queue is full. Returns whether input goes on.
    /// After a hang-up, "nothing more" is the end: waiting would spin on a poll that keeps
    /// reporting the hang-up.
    private func readAvailable(into buffer: UnsafeMutableRawBufferPointer, hungUp: Bool) -> Bool {
        while true {
            let room = incoming.freeSpace
            if room == 0 { return true }
            let window = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(room, buffer.count)])
            do {
                let count = try calls.read(descriptor, window)
                if count == 0 {
                    endInput(
                        TransportError(
                            .disconnected, device: device, operation: "read",
                            detail: "end of file: the other side closed"))
                    return false
                }
                incoming.append(UnsafeRawBufferPointer(rebasing: window[..<count]))
                if count < window.count { return true }
            } catch  where error == .wouldBlock {
                guard hungUp else { return true }
                endInput(
                    TransportError(
                        .disconnected, device: device, operation: "poll",
                        detail: "the line hung up: the device was unplugged or the other side closed"))
                return false
            } catch {
                endInput(TransportError.system(error.rawValue, operation: "read", device: device))
                return false
            }
        }
    }

    /// Hands queued writes to the kernel until it pushes back (EAGAIN).
    private func flushWrites() {
        while true {
            guard let (id, bytes) = state.withLock({ $0.writes.first }) else { return }
            let outcome = bytes.withUnsafeBytes { bytes in
                Result { () throws(Errno) -> Int in try calls.write(descriptor, bytes) }
            }
            let written: Int
            switch outcome {
            case .success(let count): written = count
            case .failure(.wouldBlock): return
            case .failure(let error):
                endWrites(writeFailure(error.rawValue))
                return
            }
            var resumptions = Resumptions()
            state.withLock { $0.writes.advance(id, by: written, into: &resumptions) }
            resumptions.run()
        }
    }

    private func writeFailure(_ code: Int32) -> TransportError {
        if code == EPIPE || code == ENXIO || code == ENODEV {
            return TransportError(
                .disconnected, device: device, operation: "write", errno: code,
                detail: "the device is gone: it was unplugged or the other side closed")
        }
        return TransportError.system(code, operation: "write", device: device)
    }

    private func endInput(_ error: TransportError) {
        incoming.finishWriting(readers: error, writers: error)
    }

    private func endWrites(_ error: TransportError) {
        var resumptions = Resumptions()
        state.withLock { state in
            if state.writeEnd == nil { state.writeEnd = error }
            state.writes.failAll(error, into: &resumptions)
        }
        resumptions.run()
    }

    private func drainWakePipe() {
        var sink = [UInt8](repeating: 0, count: 64)
        while (try? sink.withUnsafeMutableBytes { try wakeRead.read(into: $0) }) ?? 0 > 0 {}
    }

    /// After a fatal poll error: sleep on the wake pipe only until the owner closes.
    private func waitForClose() {
        while !state.withLock({ $0.closing }) {
            var fds = [pollfd(fd: wakeRead.rawValue, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, -1)
            drainWakePipe()
        }
    }

    private func shutDown() {
        var resumptions = Resumptions()
        state.withLock { state in
            if releaseExclusive { try? calls.setExclusive(descriptor, false) }
            calls.close(descriptor)
            companions.forEach(calls.close)
            try? wakeRead.close()
            try? wakeWrite.close()
            state.exited.open(into: &resumptions)
        }
        resumptions.run()
    }
}
