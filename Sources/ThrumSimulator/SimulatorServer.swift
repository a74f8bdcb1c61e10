import Foundation
import ThrumTransport

/// Serves a simulated board over a byte transport in real time: the host end of a pty
/// (`thrum sim --pty`) or of an in-process pipe (`SimulatorServer.inProcess`). Board time is the
/// time since `run()` began; the board's line model adds its byte time and latency on top.
public struct SimulatorServer: Sendable {
    public let configuration: BoardConfiguration
    public let transport: any ByteTransport
    public let flashFile: URL?
    /// Receives every rendered tick while the server runs (tests: what the board played).
    public let tap: TraceTap?

    public init(configuration: BoardConfiguration, transport: any ByteTransport, flashFile: URL? = nil, tap: TraceTap? = nil) throws {
        self.tap = tap
        let problems = configuration.problems()
        guard problems.isEmpty else { throw SimulatorError("board configuration: " + problems.joined(separator: "; ")) }
        self.configuration = configuration
        self.transport = transport
        self.flashFile = flashFile
    }

    /// A board in this process: returns the host's end of the pipe and the server to run
    /// (cancel its task, or close the host end, to stop it).
    public static func inProcess(configuration: BoardConfiguration = BoardConfiguration()) throws -> (host: any ByteTransport, server: SimulatorServer) {
        let (host, board) = InMemoryTransport.makePair(names: ("simulator (host end)", "simulator (board end)"))
        return (host, try SimulatorServer(configuration: configuration, transport: board))
    }

    /// Runs in real time until the task is cancelled or the transport closes or disconnects; then returns.
    public func run() async throws {
        try await run(on: ContinuousClock())
    }

    /// Runs on `clock` (a test's manual clock, so the board moves only when the test moves time)
    /// until the task is cancelled or the transport closes or disconnects; then returns.
    public func run<C: Clock>(on clock: C) async throws where C.Duration == Duration {
        let flash = try configuration.slotCount > 0
            ? SimulatedFlash(size: configuration.flashSize, sectorSize: configuration.flashSectorSize, file: flashFile) : nil
        let board = try SimulatedBoard(configuration, flash: flash)
        board.recordsTrace = tap != nil
        let inbox = Inbox()
        let transport = self.transport
        let reader = Task {
            do {
                for try await chunk in transport.chunks { inbox.put(chunk) }
            } catch {}
            inbox.finish()
        }
        defer { reader.cancel() }
        let start = clock.now
        let period = Duration.microseconds(max(1000, 1_000_000 / configuration.tickRate))
        var wake = start
        while !Task.isCancelled {
            let (bytes, finished) = inbox.take()
            if !bytes.isEmpty { board.hostSend(bytes) }
            let elapsed = start.duration(to: clock.now)
            board.advance(to: UInt64(elapsed.components.seconds) * 1_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000_000))
            if let tap { tap.append(board.takeTrace()) }
            let out = board.hostReceive()
            if !out.isEmpty {
                do { try await transport.write(out) } catch { return }
            }
            if finished { return }
            wake = max(wake.advanced(by: period), clock.now)
            do { try await clock.sleep(until: wake, tolerance: nil) } catch { return }
        }
    }
}

/// Received bytes between the reader task and the serving loop.
private final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var finished = false

    func put(_ chunk: [UInt8]) { lock.withLock { bytes += chunk } }
    func finish() { lock.withLock { finished = true } }
    func take() -> ([UInt8], Bool) {
        lock.withLock {
            defer { bytes.removeAll(keepingCapacity: true) }
            return (bytes, finished && bytes.isEmpty)
        }
    }
}

/// The rendered ticks of a running simulator, for whoever watches (bounded: the oldest go first).
public final class TraceTap: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [TraceSample] = []
    private let capacity: Int

    public init(capacity: Int = 200_000) { self.capacity = capacity }

    func append(_ new: [TraceSample]) {
        guard !new.isEmpty else { return }
        lock.withLock {
            samples += new
            if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
        }
    }

    /// The ticks kept so far, oldest first.
    public var ticks: [TraceSample] { lock.withLock { samples } }

    /// The last tick of `channel`, if any.
    public func latest(channel: Int = 0) -> TraceSample? { lock.withLock { samples.last { $0.channel == channel } } }
}
