import ThrumTransport

/// Makes a fresh pair of connected transports: what the first writes, the second reads, and back.
public typealias TransportPairFactory = @Sendable () async throws -> (any ByteTransport, any ByteTransport)

/// The behaviour every `ByteTransport` must show, as checks that any test target can run
/// against its own transports (in-memory, termios on a pseudo-terminal, fault injection with
/// no faults, and later libserialport on a loopback):
///
/// ```swift
/// @Test(arguments: TransportConformance.checks)
/// func conforms(_ check: TransportConformance.Check) async throws {
///     try await check.run { InMemoryTransport.makePair() }
/// }
/// ```
///
/// The checks need no test framework: a failure throws ``TransportConformance/Failure``.
/// Each check closes the transports it made, and gives up after `timeout` instead of hanging. The
/// default is generous: it guards against a hang, not a slow run (2,000 pty round trips under
/// ThreadSanitizer beside the whole suite took over 20 s on a 2-core CI machine).
public enum TransportConformance {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var check: String
        public var message: String
        public var description: String { "\(check): \(message)" }
    }

    public struct Check: Sendable, Hashable, CustomStringConvertible {
        public let name: String
        let body:
            @Sendable (_ a: any ByteTransport, _ b: any ByteTransport, _ failure: (String) -> Failure) async throws ->
                Void

        public var description: String { name }
        public static func == (lhs: Check, rhs: Check) -> Bool { lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        /// Runs the check on a fresh pair from `makePair`.
        public func run(timeout: Duration = .seconds(60), _ makePair: TransportPairFactory) async throws {
            let (a, b) = try await makePair()
            let name = self.name
            let body = self.body
            do {
                try await withTimeout(timeout, name: name) {
                    try await body(a, b) { Failure(check: name, message: $0) }
                }
            } catch {
                await a.close()
                await b.close()
                throw error
            }
            await a.close()
            await b.close()
        }
    }

    /// Every check, in a stable order.
    public static let checks: [Check] = [
        allByteValuesPassUnchanged,
        readReturnsWhatIsThere,
        manySmallWritesKeepTheirOrder,
        largeTransfersBothWaysAtOnce,
        emptyWriteIsHarmless,
        closeWakesPendingRead,
        closeIsIdempotentAndFinal,
        closeFailsPendingWrite,
        peerCloseEndsReadsAfterDelivery,
        cancelledReadLeavesTransportUsable,
    ]

    static let allByteValuesPassUnchanged = Check(name: "all byte values pass unchanged both ways") { a, b, failure in
        let bytes = (0...255).map(UInt8.init)
        try await a.write(bytes)
        let received = try await readCount(bytes.count, from: b)
        guard received == bytes else { throw failure("a→b changed bytes: \(firstDifference(bytes, received))") }
        let reversed = Array(bytes.reversed())
        try await b.write(reversed)
        let back = try await readCount(reversed.count, from: a)
        guard back == reversed else { throw failure("b→a changed bytes: \(firstDifference(reversed, back))") }
    }

    static let readReturnsWhatIsThere = Check(name: "read returns what has arrived without waiting for more") {
        a, b, failure in
        try await a.write([0x7E, 0x00, 0x81])
        var received: [UInt8] = []
        while received.count < 3 {
            let chunk = try await b.read()
            guard !chunk.isEmpty else { throw failure("read returned an empty chunk") }
            received += chunk
        }
        guard received == [0x7E, 0x00, 0x81] else { throw failure("expected 7e 00 81, got \(hex(received))") }
    }

    static let manySmallWritesKeepTheirOrder = Check(name: "many small writes arrive in order") { a, b, failure in
        let count = 2000
        let expected = (0..<count).flatMap { bigEndian(UInt32($0)) }
        async let received = readCount(expected.count, from: b)
        for index in 0..<count { try await a.write(bigEndian(UInt32(index))) }
        guard try await received == expected else { throw failure("small writes arrived out of order or changed") }
    }

    static let largeTransfersBothWaysAtOnce = Check(name: "large transfers both ways at once") { a, b, failure in
        let size = 256 * 1024
        let forward = pseudoRandomBytes(count: size, seed: 1)
        let backward = pseudoRandomBytes(count: size, seed: 2)
        async let atB = readCount(size, from: b)
        async let atA = readCount(size, from: a)
        async let sentForward: Void = a.write(forward)
        async let sentBackward: Void = b.write(backward)
        try await sentForward
        try await sentBackward
        let (gotB, gotA) = try await (atB, atA)
        guard gotB == forward else { throw failure("a→b: \(firstDifference(forward, gotB))") }
        guard gotA == backward else { throw failure("b→a: \(firstDifference(backward, gotA))") }
    }

    static let emptyWriteIsHarmless = Check(name: "an empty write is harmless") { a, b, failure in
        try await a.write([])
        try await a.write([0x55])
        let received = try await readCount(1, from: b)
        guard received == [0x55] else { throw failure("expected 55, got \(hex(received))") }
    }

    static let closeWakesPendingRead = Check(name: "close wakes a pending read with .closed") { a, _, failure in
        let reader = Task { try await a.read() }
        await a.close()
        do {
            let chunk = try await reader.value
            throw failure("read returned \(hex(chunk)) after close")
        } catch let error as TransportError {
            guard error.reason == .closed else { throw failure("read after close threw \(error), expected .closed") }
        }
    }

    static let closeIsIdempotentAndFinal = Check(name: "close is idempotent; later reads and writes throw .closed") {
        a, _, failure in
        await a.close()
        await a.close()
        do {
            _ = try await a.read()
            throw failure("read succeeded after close")
        } catch let error as TransportError where error.reason == .closed {}
        do {
            try await a.write([1])
            throw failure("write succeeded after close")
        } catch let error as TransportError where error.reason == .closed {}
    }

    static let closeFailsPendingWrite = Check(name: "close fails a write that is waiting for room") { a, _, failure in
        // Far more than any OS or in-memory buffer holds, and nobody reads.
        let writer = Task { try await a.write([UInt8](repeating: 0xA5, count: 16 * 1024 * 1024)) }
        await a.close()
        do {
            try await writer.value
            throw failure("a 16 MiB write nobody read completed")
        } catch let error as TransportError {
            guard error.reason == .closed else { throw failure("pending write threw \(error), expected .closed") }
        }
    }

    static let peerCloseEndsReadsAfterDelivery = Check(
        name: "after the peer closes, reads deliver what arrived, then throw .disconnected"
    ) { a, b, failure in
        try await b.write([1, 2, 3])
        let received = try await readCount(3, from: a)
        guard received == [1, 2, 3] else { throw failure("expected 01 02 03, got \(hex(received))") }
        await b.close()
        do {
            let chunk = try await a.read()
            throw failure("read returned \(hex(chunk)) after the peer closed")
        } catch let error as TransportError {
            guard error.reason == .disconnected else { throw failure("read threw \(error), expected .disconnected") }
        }
    }

    static let cancelledReadLeavesTransportUsable = Check(
        name: "a cancelled read throws CancellationError and the transport stays usable"
    ) { a, b, failure in
        let reader = Task { try await a.read() }
        reader.cancel()
        do {
            let chunk = try await reader.value
            throw failure("cancelled read returned \(hex(chunk))")
        } catch is CancellationError {}
        try await b.write([0x42])
        let received = try await readCount(1, from: a)
        guard received == [0x42] else { throw failure("after a cancelled read, expected 42, got \(hex(received))") }
    }
}

// MARK: helpers

extension TransportConformance {
    /// Reads exactly `count` bytes (a check never expects more than it asked for).
    public static func readCount(_ count: Int, from transport: any ByteTransport) async throws -> [UInt8] {
        var received: [UInt8] = []
        received.reserveCapacity(count)
        while received.count < count { received += try await transport.read() }
        return received
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// `count` bytes that are the same for the same `seed` on every run and platform.
    public static func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
        return bytes.count > 16 ? "\(shown) … (\(bytes.count) bytes)" : (bytes.isEmpty ? "nothing" : shown)
    }

    static func firstDifference(_ expected: [UInt8], _ actual: [UInt8]) -> String {
        if let index = zip(expected, actual).indices.first(where: { expected[$0] != actual[$0] }) {
            return "first difference at byte \(index): expected \(hex([expected[index]])), got \(hex([actual[index]]))"
        }
        return "expected \(expected.count) bytes, got \(actual.count)"
    }

    /// Runs `body`, failing (and cancelling it) after `timeout` so a broken transport cannot hang a test run.
    static func withTimeout(
        _ timeout: Duration, name: String, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await body()
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)  // a watchdog, not a wait the check depends on
                return false
            }
            let finishedInTime = try await group.next()!
            group.cancelAll()
            if !finishedInTime { throw Failure(check: name, message: "timed out after \(timeout)") }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Zip2Sequence where Sequence1 == [UInt8], Sequence2 == [UInt8] {
    fileprivate var indices: Range<Int> { 0..<underestimatedCount }
}
