#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An OS error number returned by one of the wrapped C calls.
struct Errno: Error, Equatable, Sendable {
    var code: Int32

    init(_ code: Int32) { self.code = code }

    /// The calling thread's current `errno`.
    static var current: Errno { Errno(errno) }

    static let wouldBlock = Errno(EAGAIN)
    static let interrupted = Errno(EINTR)
    static let io = Errno(EIO)
}
