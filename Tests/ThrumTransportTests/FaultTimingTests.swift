import Testing
import ThrumTesting

@testable import ThrumTransport

/// Latency, jitter and line-rate throttling, measured on a manual clock: nothing sleeps.
@Suite(.timeLimit(.minutes(5))) struct FaultTimingTests {
    @Test("latency holds bytes back until the clock reaches it")
    func latency() async throws {
        let clock = ManualClock()
        let (a, b) = try FaultInjectingTransport.pair(
            aToB: FaultProfile(latency: .milliseconds(5)), bToA: .none, seed: 1, clock: clock)
        try await a.write([1, 2, 3])  // handed over at once
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .milliseconds(5)))
        clock.advance(by: .milliseconds(4))
        #expect(clock.sleeperCount == 1)  // still in flight
        clock.advance(by: .milliseconds(1))
        #expect(try await read(3, from: b) == [1, 2, 3])
        await a.close()
        await b.close()
    }

    @Test("a throttled line delivers segment by segment at the line rate")
    func throttle() async throws {
        let clock = ManualClock()
        // 10,000 baud at 10 bits per byte: 1 ms per byte; 10-byte segments.
        let profile = FaultProfile(baudRate: 10_000, bufferSize: 1000, segmentSize: 10)
        let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: 1, clock: clock)
        let bytes = (0..<30).map(UInt8.init)
        try await a.write(bytes)
        var arrivals: [(Duration, [UInt8])] = []
        var received: [UInt8] = []
        while received.count < 30 {
            await clock.waitForSleepers(1)
            clock.advanceToNextDeadline()
            let chunk = try await b.read()
            arrivals.append((clock.now.offset, chunk))
            received += chunk
        }
        #expect(received == bytes)
        #expect(arrivals.map(\.0) == [.milliseconds(10), .milliseconds(20), .milliseconds(30)])
        #expect(arrivals.map(\.1.count) == [10, 10, 10])
        await a.close()
        await b.close()
    }

    @Test("a write waits while the line's buffer is full, like a slow serial port")
    func throttledWriteWaitsForRoom() async throws {
        let clock = ManualClock()
        // 1 ms per byte, a 20-byte buffer, 10-byte segments: a 60-byte write can hand over its
        // last segment only when the backlog is down to 10 bytes, at 40 ms.
        let profile = FaultProfile(baudRate: 10_000, bufferSize: 20, segmentSize: 10)
        let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: 1, clock: clock)
        let writer = Task {
            try await a.write([UInt8](repeating: 7, count: 60))
            return clock.now.offset
        }
        for _ in 0..<4 {
            await clock.waitForSleepers(2)  // the writer, waiting for room, and the delivery
            #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(10)))
            clock.advance(by: .milliseconds(10))
        }
        #expect(try await writer.value == .milliseconds(40))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(20))
        #expect(try await read(60, from: b) == [UInt8](repeating: 7, count: 60))
        await a.close()
        await b.close()
    }

    @Test("jitter stays within its bound, keeps order, and repeats with the seed")
    func jitter() async throws {
        func deliveryTimes(seed: UInt64) async throws -> [Duration] {
            let clock = ManualClock()
            let profile = FaultProfile(latency: .microseconds(100), jitter: .microseconds(900))
            let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: seed, clock: clock)
            var times: [Duration] = []
            for index in 0..<50 {
                try await a.write([UInt8(index)])
                await clock.waitForSleepers(1)
                let deadline = clock.nextDeadline!.offset - clock.now.offset
                #expect(deadline >= .microseconds(100) && deadline <= .microseconds(1000))
                clock.advanceToNextDeadline()
                #expect(try await b.read() == [UInt8(index)])
                times.append(deadline)
            }
            await a.close()
            await b.close()
            return times
        }
        let first = try await deliveryTimes(seed: 8)
        #expect(first == (try await deliveryTimes(seed: 8)))
        #expect(first != (try await deliveryTimes(seed: 9)))
        #expect(Set(first).count > 25)  // really jittered
    }
}

@Suite(.timeLimit(.minutes(5))) struct FaultClosingTests {
    @Test("closing wakes a writer that waits for line time, even if the clock never moves")
    func closeWakesPacedWriter() async throws {
        let clock = ManualClock()
        let profile = FaultProfile(baudRate: 9600, bufferSize: 16, segmentSize: 8)
        let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: 1, clock: clock)
        let writer = Task { try await a.write([UInt8](repeating: 1, count: 100)) }
        await clock.waitForSleepers(2)  // the writer and the delivery
        await a.close()
        await #expect { try await writer.value } throws: { error in
            (error as? TransportError)?.reason == .closed
        }
        await b.close()
    }

    @Test("delayed inbound bytes are delivered before the peer's close is reported")
    func inboundDelayThenClose() async throws {
        let clock = ManualClock()
        let (plain, peer) = InMemoryTransport.makePair()
        let faulty = try FaultInjectingTransport(
            wrapping: plain, inbound: FaultProfile(latency: .milliseconds(2)), seed: 1, clock: clock)
        let reader = Task { try await faulty.read() }
        try await peer.write([1, 2, 3])
        await peer.close()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(2))
        #expect(try await reader.value == [1, 2, 3])
        await #expect { _ = try await faulty.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await faulty.close()
    }

    @Test("closing drops bytes still in flight, as closing a port does")
    func closeDropsInFlight() async throws {
        let clock = ManualClock()
        let (a, b) = try FaultInjectingTransport.pair(
            aToB: FaultProfile(latency: .milliseconds(1)), bToA: .none, seed: 1, clock: clock)
        try await a.write([1, 2, 3])
        await a.close()
        clock.advance(by: .seconds(1))
        await #expect { _ = try await b.read() } throws: { error in
            (error as? TransportError)?.reason == .disconnected
        }
        await b.close()
    }
}
