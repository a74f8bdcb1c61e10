/// One end of an in-memory byte pipe, for unit tests and the in-process simulator.
///
/// Each direction is a bounded buffer (`capacity` bytes), so a writer whose peer does not read
/// waits, as it would on a serial port whose OS buffer is full.
public struct InMemoryTransport: ByteTransport {
    public let name: String
    private let incoming: ByteQueue
    private let outgoing: ByteQueue

    /// Two connected ends: what one writes, the other reads.
    public static func makePair(
        capacity: Int = 64 * 1024,
        names: (String, String) = ("memory:a", "memory:b")
    ) -> (InMemoryTransport, InMemoryTransport) {
        let aToB = ByteQueue(capacity: max(1, capacity))
        let bToA = ByteQueue(capacity: max(1, capacity))
        return (
            InMemoryTransport(name: names.0, incoming: bToA, outgoing: aToB),
            InMemoryTransport(name: names.1, incoming: aToB, outgoing: bToA)
        )
    }

    private init(name: String, incoming: ByteQueue, outgoing: ByteQueue) {
        self.name = name
        self.incoming = incoming
        self.outgoing = outgoing
    }

    public func read() async throws -> [UInt8] {
        try await incoming.read()
    }

    public func write(_ bytes: [UInt8]) async throws {
        try await outgoing.write(bytes)
    }

    public func close() async {
        // Our reads stop at once; the peer's writes towards us fail.
        incoming.closeReading(
            readers: TransportError(.closed, device: name),
            writers: TransportError(.disconnected, device: name, detail: "the other end closed"))
        // The peer reads what we already sent, then learns that we are gone; our writes fail.
        outgoing.finishWriting(
            readers: TransportError(.disconnected, device: name, detail: "the other end closed"),
            writers: TransportError(.closed, device: name))
    }
}
