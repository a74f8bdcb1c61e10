import Foundation
import ThrumTransport
import ThrumWire

/// Serves a simulated board over a byte transport in real time: the host end of a pty
/// (`thrum sim --pty`) or of an in-process pipe (`SimulatorServer.inProcess`). Board time is the
/// time since `run()` began as the board's crystal counts it (`BoardConfiguration.clockPPM`); the
/// board's line model adds its byte time and latency on top.
public struct SimulatorServer: Sendable {
    public let configuration: BoardConfiguration
    public let transport: any ByteTransport
    public let flashFile: URL?
    /// Receives every rendered tick while the server runs (tests: what the board played).
    public let tap: TraceTap?
    /// Lets a test press the board's reset button while it runs.
    public let resetButton = ResetButton()
    /// When `run(on:)` began, as an instant of the clock it runs on: board time 0. With
    /// `configuration.crystal` this maps any board time to the instant it happened (the ground
    /// truth of a benchmark or test that compares boards).
    package let origin = Locked<(any Sendable)?>(nil)

    public init(
        configuration: BoardConfiguration, transport: any ByteTransport, flashFile: URL? = nil, tap: TraceTap? = nil
    ) throws {
        self.tap = tap
        let problems = configuration.problems()
        guard problems.isEmpty else { throw SimulatorError("board configuration: " + problems.joined(separator: "; ")) }
        self.configuration = configuration
        self.transport = transport
        self.flashFile = flashFile
    }

    /// A board in this process: returns the host's end of the pipe and the server to run
    /// (cancel its task, or close the host end, to stop it).
    public static func inProcess(
        configuration: BoardConfiguration = BoardConfiguration(), flashFile: URL? = nil
    ) throws -> (host: any ByteTransport, server: SimulatorServer) {
        let (host, board) = InMemoryTransport.makePair(names: ("simulator (host end)", "simulator (board end)"))
        return (host, try SimulatorServer(configuration: configuration, transport: board, flashFile: flashFile))
    }

    /// Runs in real time until the task is cancelled or the transport closes or disconnects; then returns.
    public func run() async throws {
        try await run(on: ContinuousClock())
    }

    /// Runs on `clock` (a test's manual clock, so the board moves only when the test moves time)
    /// until the task is cancelled or the transport closes or disconnects; then returns.
    public func run<C: Clock>(on clock: C) async throws where C.Duration == Duration {
        let flash =
            try configuration.slotCount > 0
            ? SimulatedFlash(size: configuration.flashSize, sectorSize: configuration.flashSectorSize, file: flashFile)
            : nil
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
        let crystal = configuration.crystal
        let start = clock.now
        origin.withLock { $0 = start }
        // Board times are the crystal's; the clock sleeps in host time.
        func boardTime() -> UInt64 {
            let elapsed = start.duration(to: clock.now)
            return crystal.boardMicroseconds(atHostNanoseconds: UInt64(max(0, elapsed.nanosecondsClamped)))
        }
        func instant(atBoardTime board: UInt64) -> C.Instant {
            start.advanced(by: .nanoseconds(Int64(clamping: crystal.hostNanoseconds(atBoardMicroseconds: board))))
        }
        // Wakes at least at each board tick (at most 1 kHz: faster boards render several a wake).
        let period = UInt64(max(1000, 1_000_000 / configuration.tickRate))
        var tick: UInt64 = 0
        while !Task.isCancelled {
            // Catch the board up to now first, so bytes the host wrote since are sent on the line
            // at the time they came (a real UART takes them at once), not at the last wake.
            board.advance(to: boardTime())
            if resetButton.takePress() { try board.reboot() }
            let (bytes, finished) = inbox.take()
            if !bytes.isEmpty {
                board.hostSend(bytes)
                board.advance(to: boardTime())
            }
            if let tap {
                tap.append(board.takeTrace())
                tap.append(audio: board.takeAudio())
            }
            let out = board.hostReceive()
            if !out.isEmpty {
                do { try await transport.write(out) } catch { return }
            }
            if finished { return }
            // Wake at the next tick, when the next byte reaches the host, or when the host writes.
            let now = boardTime()
            if now >= tick { tick = max(tick + period, now) }
            var wake = tick
            if let arrival = board.nextByteToHost, arrival > board.time { wake = min(wake, arrival) }
            let deadline = instant(atBoardTime: wake)
            let woke = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return false }
                    return true
                }
                group.addTask {
                    await inbox.waitForBytes()
                    return true
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            if !woke && Task.isCancelled { return }
        }
    }
}

/// Received bytes between the reader task and the serving loop.
private final class Inbox: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var finished = false
        /// The serving loop, waiting for bytes; resumed (outside the lock) by whoever takes it out.
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func put(_ chunk: [UInt8]) {
        let waiting = state.withLock { state in
            state.bytes += chunk
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    func finish() {
        let waiting = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    /// Returns once bytes are waiting or the input finished (at once if so already), or when the
    /// waiting task is cancelled.
    func waitForBytes() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if !state.bytes.isEmpty || state.finished || Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiting?.resume()
        }
    }

    func take() -> ([UInt8], Bool) {
        state.withLock { state in
            defer { state.bytes.removeAll(keepingCapacity: true) }
            return (state.bytes, state.finished && state.bytes.isEmpty)
        }
    }
}

/// The rendered ticks of a running simulator, for whoever watches (bounded: the oldest go first).
public final class TraceTap: Sendable {
    private struct Kept {
        var samples: [TraceSample] = []
        var audio: [AudioBlock] = []
    }

    private let kept = Locked(Kept())
    private let capacity: Int

    public init(capacity: Int = 200_000) { self.capacity = capacity }

    func append(_ new: [TraceSample]) {
        guard !new.isEmpty else { return }
        kept.withLock { kept in
            kept.samples += new
            if kept.samples.count > capacity { kept.samples.removeFirst(kept.samples.count - capacity) }
        }
    }

    func append(audio new: [AudioBlock]) {
        guard !new.isEmpty else { return }
        kept.withLock { kept in
            kept.audio += new
            if kept.audio.count > capacity { kept.audio.removeFirst(kept.audio.count - capacity) }
        }
    }

    /// The audio output's non-silent ticks kept so far, oldest first (SEMANTICS.md §6.4).
    public var audio: [AudioBlock] { kept.withLock { $0.audio } }

    /// The ticks kept so far, oldest first.
    public var ticks: [TraceSample] { kept.withLock { $0.samples } }

    /// The last tick of `channel`, if any.
    public func latest(channel: Int = 0) -> TraceSample? { kept.withLock { $0.samples.last { $0.channel == channel } } }
}

/// A reset button for a running simulator: pressing it reboots the firmware core (new boot epoch,
/// timelines and players gone, flash kept) at the server's next step.
public final class ResetButton: Sendable {
    private let pressed = Locked(false)

    public init() {}

    public func press() { pressed.withLock { $0 = true } }

    func takePress() -> Bool {
        pressed.withLock { pressed in
            defer { pressed = false }
            return pressed
        }
    }
}
