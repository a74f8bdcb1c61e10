import Foundation
import ThrumTesting
import ThrumTransport

/// `thrum-bench transport`: how fast bytes move through the transports themselves, so that
/// link figures measured over them are not limited by the transport.
var transportSuite: Suite {
    Suite(name: "transport", summary: "in-memory, pseudo-terminal and fault-injection throughput; pty round trip") {
        try awaitTransportBench { try await transportMetrics() }
    }
}

private func transportMetrics() async throws -> [Metric] {
    var metrics: [Metric] = []
    // A 4 Mbaud line carries 0.4 MB/s: the throughput targets are 10x and 100x that.
    let (memoryA, memoryB) = InMemoryTransport.makePair()
    let memory = try await measureThroughput(from: memoryA, to: memoryB, bytes: 64 << 20)
    metrics.append(Metric(name: "transport.memory.throughput", value: memory, unit: "MB/s", goal: .atLeast(40)))

    let pty = try PseudoTerminal.open()
    let device = try TermiosTransport.open(path: pty.devicePath, settings: SerialSettings(baudRate: 4_000_000))
    let latencies = try await measureRoundTrips(pty.controller, device, count: 2000)
    metrics.append(Metric(name: "transport.pty.roundtrip_p50", value: latencies.p50, unit: "us", goal: .atMost(1000)))
    // The tail is the scheduler's (two thread wake-ups and a task hop per direction), and on a
    // shared machine it follows the load; reported, not judged.
    metrics.append(Metric(name: "transport.pty.roundtrip_p99", value: latencies.p99, unit: "us", goal: .none))
    let ptyRate = try await measureThroughput(from: device, to: pty.controller, bytes: 16 << 20)
    metrics.append(Metric(name: "transport.pty.throughput", value: ptyRate, unit: "MB/s", goal: .atLeast(4)))

    let faults = FaultProfile(dropChunk: 0.05, corruptByte: 0.01, duplicateChunk: 0.02, garbageBurst: 0.02)
    let (faultyA, faultyB) = try FaultInjectingTransport.pair(
        aToB: faults, bToA: .none, seed: 1, clock: ContinuousClock())
    let faulty = try await measureThroughput(from: faultyA, to: faultyB, bytes: 16 << 20, exact: false)
    metrics.append(Metric(name: "transport.faults.throughput", value: faulty, unit: "MB/s", goal: .atLeast(40)))

    // The emulated line that link benchmarks run over: on the real clock, does it carry its
    // line rate, no more and not much less?
    for (baud, bytes) in [(115_200, 16 * 1024), (1_000_000, 64 * 1024)] {
        let share = try await measureThrottledShare(baud: baud, bytes: bytes)
        metrics.append(
            Metric(
                name: "transport.throttle.share_of_line_rate_\(baud)", value: share, unit: "ratio", goal: .atLeast(0.97)
            ))
        metrics.append(
            Metric(
                name: "transport.throttle.excess_over_line_rate_\(baud)", value: max(0, share - 1), unit: "ratio",
                goal: .atMost(0.01)))
    }
    return metrics
}

/// Bytes per second arriving over a throttled fault-free line, as a share of the line rate.
private func measureThrottledShare(baud: Int, bytes: Int) async throws -> Double {
    let profile = FaultProfile(baudRate: baud)
    let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: 1, clock: ContinuousClock())
    let start = ContinuousClock.now
    async let received: Void = {
        var total = 0
        while total < bytes { total += try await b.read().count }
    }()
    var sent = 0
    while sent < bytes {
        try await a.write([UInt8](repeating: 0xA5, count: 1024))
        sent += 1024
    }
    try await received
    let elapsed = seconds(ContinuousClock.now - start)
    await a.close()
    await b.close()
    return Double(bytes) / elapsed / (Double(baud) / 10)
}

/// Sends `bytes` in 4 KiB writes while the other end reads; MB/s of what was sent. Closes both.
private func measureThroughput(
    from sender: any ByteTransport, to receiver: any ByteTransport, bytes: Int, exact: Bool = true
) async throws -> Double {
    let block = [UInt8](repeating: 0x5A, count: 4096)
    let start = ContinuousClock.now
    async let received: Int = {
        var total = 0
        for try await chunk in receiver.chunks {
            total += chunk.count
            if exact, total >= bytes { break }
        }
        return total
    }()
    var sent = 0
    while sent < bytes {
        try await sender.write(block)
        sent += block.count
    }
    if !exact { await sender.close() }
    let total = try await received
    let elapsed = ContinuousClock.now - start
    await sender.close()
    await receiver.close()
    if exact, total < bytes {
        throw TransportError(.disconnected, device: receiver.name, detail: "only \(total) of \(bytes) bytes arrived")
    }
    return Double(sent) / 1e6 / seconds(elapsed)
}

/// One byte out, one byte back, `count` times; round-trip times in microseconds.
private func measureRoundTrips(
    _ a: any ByteTransport, _ b: any ByteTransport, count: Int
) async throws -> (p50: Double, p99: Double) {
    let echo = Task {
        for _ in 0..<count {
            let chunk = try await b.read()
            try await b.write(chunk)
        }
    }
    var samples: [Double] = []
    for index in 0..<count {
        let start = ContinuousClock.now
        try await a.write([UInt8(truncatingIfNeeded: index)])
        _ = try await a.read()
        samples.append(seconds(ContinuousClock.now - start) * 1e6)
    }
    try await echo.value
    samples.sort()
    return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)])
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// Runs async bench code from the synchronous suite interface (main thread, off the pool).
private func awaitTransportBench<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = TransportBenchResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

private final class TransportBenchResult<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
