import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls the termios transport makes, gathered in one value so that tests can replace
/// them and force errors (EAGAIN, EIO on unplug, EOF, ENOENT, EACCES, EBUSY) without hardware.
/// `live` calls the OS: swift-system's `FileDescriptor` for open, read, write and close (which
/// retries on EINTR), and thin typed wrappers beside it for the calls swift-system lacks
/// (poll, termios, ioctl, fcntl), each naming the C function it wraps and retrying on EINTR.
struct SystemCalls: Sendable {
    /// `open(2)` with `O_RDWR` and `options`.
    var open: @Sendable (_ path: String, _ options: FileDescriptor.OpenOptions) throws(Errno) -> FileDescriptor
    /// `close(2)`.
    var close: @Sendable (_ fd: FileDescriptor) -> Void
    /// `read(2)`; returns the count read, 0 at end of file.
    var read: @Sendable (_ fd: FileDescriptor, _ into: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    /// `write(2)`; returns the count written.
    var write: @Sendable (_ fd: FileDescriptor, _ from: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `poll(2)`; fills `revents`, returns the count of ready descriptors.
    var poll: @Sendable (_ fds: inout [pollfd], _ timeoutMilliseconds: Int32) throws(Errno) -> Int
    /// `isatty(3)`: whether `fd` is a terminal; throws the reason when it is not.
    var isatty: @Sendable (_ fd: FileDescriptor) throws(Errno) -> Void
    /// `tcgetattr(3)`.
    var tcgetattr: @Sendable (_ fd: FileDescriptor) throws(Errno) -> termios
    /// `tcsetattr(3)` with `TCSANOW`.
    var tcsetattr: @Sendable (_ fd: FileDescriptor, _ settings: termios) throws(Errno) -> Void
    /// `tcflush(3)` with `TCIFLUSH`: drops input received before we opened.
    var flushInput: @Sendable (_ fd: FileDescriptor) throws(Errno) -> Void
    /// `ioctl(2)` with `TIOCEXCL` (true) or `TIOCNXCL` (false): exclusive use of the tty.
    var setExclusive: @Sendable (_ fd: FileDescriptor, _ exclusive: Bool) throws(Errno) -> Void
    /// `fcntl(2)` `F_SETFL` adding `O_NONBLOCK`.
    var setNonBlocking: @Sendable (_ fd: FileDescriptor) throws(Errno) -> Void
}

extension FileDescriptor.OpenOptions {
    /// `O_NOCTTY`, which swift-system does not name: opening a tty does not make it ours.
    static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }
}

extension SystemCalls {
    /// Retries `body` while it fails with EINTR; turns -1 into the thread's errno.
    @inline(__always)
    static func retrying<R: BinaryInteger>(_ body: () -> R) throws(Errno) -> R {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Errno(rawValue: errno)
            if error != .interrupted { throw error }
        }
    }

    /// swift-system's calls throw only `Errno`, untyped; this states it in the type.
    @inline(__always)
    static func typed<R>(_ body: () throws -> R) throws(Errno) -> R {
        do { return try body() } catch let error as Errno { throw error } catch { throw Errno.ioError }
    }

    static let live = SystemCalls(
        open: { path, options throws(Errno) in
            try typed { try FileDescriptor.open(path, .readWrite, options: options) }
        },
        close: { fd in
            try? fd.close()  // the descriptor is gone even on EINTR (Linux); never retry close
        },
        read: { fd, buffer throws(Errno) in
            try typed { try fd.read(into: buffer) }
        },
        write: { fd, buffer throws(Errno) in
            try typed { try fd.write(buffer) }
        },
        poll: { fds, timeout throws(Errno) in
            let count = fds.count
            return Int(
                try retrying {
                    fds.withUnsafeMutableBufferPointer { system_poll($0.baseAddress, nfds_t(count), timeout) }
                })
        },
        isatty: { fd throws(Errno) in
            if system_isatty(fd.rawValue) != 1 { throw Errno(rawValue: errno) }
        },
        tcgetattr: { fd throws(Errno) in
            var settings = termios()
            _ = try retrying { system_tcgetattr(fd.rawValue, &settings) }
            return settings
        },
        tcsetattr: { fd, settings throws(Errno) in
            var settings = settings
            _ = try retrying { system_tcsetattr(fd.rawValue, TCSANOW, &settings) }
        },
        flushInput: { fd throws(Errno) in
            _ = try retrying { system_tcflush(fd.rawValue, TCIFLUSH) }
        },
        setExclusive: { fd, exclusive throws(Errno) in
            _ = try retrying { system_ioctl(fd.rawValue, UInt(exclusive ? TIOCEXCL : TIOCNXCL)) }
        },
        setNonBlocking: { fd throws(Errno) in
            let flags = try retrying { system_fcntl(fd.rawValue, F_GETFL) }
            _ = try retrying { system_fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
        }
    )
}

// The C functions under names that the closure parameters above cannot shadow.
@inline(__always) private func system_poll(
    _ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32
) -> Int32 { poll(fds, count, timeout) }
@inline(__always) private func system_isatty(_ fd: Int32) -> Int32 { isatty(fd) }
@inline(__always) private func system_tcgetattr(_ fd: Int32, _ settings: UnsafeMutablePointer<termios>) -> Int32 {
    tcgetattr(fd, settings)
}
@inline(__always) private func system_tcsetattr(
    _ fd: Int32, _ action: Int32, _ settings: UnsafePointer<termios>
) -> Int32 { tcsetattr(fd, action, settings) }
@inline(__always) private func system_tcflush(_ fd: Int32, _ queue: Int32) -> Int32 { tcflush(fd, queue) }
@inline(__always) private func system_ioctl(_ fd: Int32, _ request: UInt) -> Int32 { ioctl(fd, request) }
@inline(__always) private func system_fcntl(_ fd: Int32, _ command: Int32) -> Int32 { fcntl(fd, command) }
@inline(__always) private func system_fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
    fcntl(fd, command, value)
}
