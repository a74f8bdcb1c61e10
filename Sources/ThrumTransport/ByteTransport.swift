/// A bidirectional byte stream to a board: a serial port, a pseudo-terminal, an in-memory pipe.
///
/// The contract every conforming type keeps (checked by ThrumTesting's `TransportConformance`):
/// - `read()` returns the next chunk of received bytes as soon as at least one byte is there
///   (never an empty chunk), in the order the peer sent them, unchanged (all 256 byte values).
/// - `write(_:)` returns once every byte has been handed to the operating system (or the peer's
///   buffer); it suspends while that buffer is full, so a slow line slows the writer down.
/// - `close()` is idempotent. It wakes pending readers and writers of this end with
///   ``TransportError/Reason/closed``; later calls throw the same.
/// - When the other side goes away (peer closed, device unplugged), reads first deliver what was
///   already received and then throw ``TransportError/Reason/disconnected``.
/// - A cancelled `read()` throws `CancellationError` and leaves the transport usable.
/// - Blocking system calls never run on Swift's cooperative thread pool.
///
/// One reader task and one writer task at a time is the intended use; concurrent readers are
/// served in arrival order, each getting whole chunks.
public protocol ByteTransport: Sendable {
    /// What this transport talks to, for messages: a device path, or a description.
    var name: String { get }

    /// The next chunk of received bytes (at least one byte).
    func read() async throws -> [UInt8]

    /// Sends `bytes`; returns when all of them were handed to the OS or peer.
    func write(_ bytes: [UInt8]) async throws

    /// Releases the device. Idempotent; wakes pending readers and writers with `.closed`.
    func close() async
}

extension ByteTransport {
    /// Reads until exactly `count` bytes have arrived (chunks may straddle the boundary; extra
    /// bytes of the last chunk are returned in `surplus`).
    public func read(exactly count: Int) async throws -> (bytes: [UInt8], surplus: [UInt8]) {
        var received: [UInt8] = []
        received.reserveCapacity(count)
        while received.count < count {
            received += try await read()
        }
        let surplus = Array(received[count...])
        received.removeSubrange(count...)
        return (received, surplus)
    }

    /// The received chunks as an asynchronous sequence; it ends quietly when the transport is
    /// closed or the peer disconnects, and throws any other error.
    public var chunks: TransportChunks { TransportChunks(transport: self) }
}

/// The received chunks of a transport as an `AsyncSequence`. See ``ByteTransport/chunks``.
public struct TransportChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    let transport: any ByteTransport

    public struct AsyncIterator: AsyncIteratorProtocol {
        let transport: any ByteTransport
        var finished = false

        public mutating func next() async throws -> [UInt8]? {
            if finished { return nil }
            do {
                return try await transport.read()
            } catch let error as TransportError where error.reason == .closed || error.reason == .disconnected {
                finished = true
                return nil
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(transport: transport) }
}
