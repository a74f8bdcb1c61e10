import PropertyBased
import Testing
import ThrumTesting

@testable import ThrumTransport

/// The bounded queue under every in-memory and termios read path.
@Suite(.timeLimit(.minutes(5))) struct ByteQueueTests {
    @Test(
        "any capacity and any write sizes: the reader gets the same bytes in order, never more than the capacity at once"
    )
    func streamIsPreserved() async {
        await propertyCheck(
            input: Gen<Int>.int(in: 1...64), Gen<UInt8>.value().array(of: 0...40).array(of: 1...30)
        ) { capacity, writes in
            let queue = ByteQueue(capacity: capacity)
            let expected = writes.flatMap { $0 }
            async let received: [UInt8] = {
                var all: [UInt8] = []
                while all.count < expected.count {
                    let chunk = try await queue.read()
                    #expect(!chunk.isEmpty && chunk.count <= capacity)
                    all += chunk
                }
                return all
            }()
            for write in writes { try await queue.write(write) }
            #expect(try await received == expected)
        }
    }

    @Test("a writer waits while the queue is full and goes on when the reader takes bytes")
    func backpressure() async throws {
        let queue = ByteQueue(capacity: 4)
        let writer = Task { try await queue.write([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) }
        var received: [UInt8] = []
        while received.count < 10 {
            let chunk = try await queue.read()
            #expect(chunk.count <= 4)
            received += chunk
        }
        try await writer.value
        #expect(received == Array(1...10))
    }

    @Test("finishing the writing side: readers drain what is buffered, then get the reason")
    func finishDrainsFirst() async throws {
        let queue = ByteQueue(capacity: 16)
        try await queue.write([1, 2])
        queue.finishWriting(
            readers: TransportError(.disconnected, device: "q"), writers: TransportError(.closed, device: "q"))
        #expect(try await queue.read() == [1, 2])
        await #expect(throws: TransportError(.disconnected, device: "q")) { _ = try await queue.read() }
        await #expect(throws: TransportError(.closed, device: "q")) { try await queue.write([3]) }
    }

    @Test("closing the reading side drops buffered bytes and fails waiting writers")
    func closeReadingFailsWriters() async throws {
        let queue = ByteQueue(capacity: 2)
        try await queue.write([1, 2])
        let writer = Task { try await queue.write([3, 4]) }  // waits: the queue is full
        queue.closeReading(
            readers: TransportError(.closed, device: "q"), writers: TransportError(.disconnected, device: "q"))
        await #expect(throws: TransportError(.disconnected, device: "q")) { try await writer.value }
        await #expect(throws: TransportError(.closed, device: "q")) { _ = try await queue.read() }
    }

    @Test("a cancelled write gives up its place without blocking the next one")
    func cancelledWrite() async throws {
        let queue = ByteQueue(capacity: 2)
        try await queue.write([1, 2])
        let stuck = Task { try await queue.write([3, 4]) }
        stuck.cancel()
        await #expect(throws: CancellationError.self) { try await stuck.value }
        #expect(try await queue.read() == [1, 2])
        try await queue.write([5])
        #expect(try await queue.read() == [5])
    }
}

@Suite(.timeLimit(.minutes(5))) struct ManualClockTests {
    @Test("sleepers wake in deadline order when time passes their deadline, not before")
    func wakesAtDeadline() async throws {
        let clock = ManualClock()
        let order = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    try await clock.sleep(until: .init(offset: .milliseconds(30)))
                    return 30
                }
                group.addTask {
                    try await clock.sleep(until: .init(offset: .milliseconds(10)))
                    return 10
                }
                var woken: [Int] = []
                for try await value in group { woken.append(value) }
                return woken
            }
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .milliseconds(9))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .milliseconds(1))
        #expect(clock.sleeperCount == 1)
        #expect(clock.nextDeadline == .init(offset: .milliseconds(30)))
        clock.advanceToNextDeadline()
        #expect(try await order.value == [10, 30])
        #expect(clock.now.offset == .milliseconds(30))
        #expect(clock.advanceToNextDeadline() == false)
    }

    @Test("a sleep whose deadline has passed returns at once; a cancelled sleep throws")
    func pastDeadlineAndCancellation() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(1))
        try await clock.sleep(until: .init(offset: .milliseconds(500)))
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}
