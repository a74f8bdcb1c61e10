import ThrumWire

/// Bulk data sent host → board as UPLOAD_CHUNK messages over a ``LinkSimulation``, in virtual time: how the
/// link tests and `thrum-bench link` measure a transfer. Chunks are cut as they are queued, a few ahead of the
/// window, each as large as the host's `preferredPayload` at that moment (the board's maximum on a clean line,
/// less when frames die, PROTOCOL.md §6.5).
public struct SimulatedUpload: Sendable {
    /// What one transfer did.
    public struct Outcome: Sendable {
        /// Everything arrived before the time limit.
        public var completed: Bool
        /// What arrived is exactly what was sent (and all of it).
        public var intact: Bool
        /// Virtual time from the first chunk to the last delivery (or the limit).
        public var seconds: Double
        public var dataBytes: Int
        /// Bytes on each line during the transfer, garbage and duplicates included.
        public var forwardLineBytes: Int
        public var reverseLineBytes: Int
        public var retransmissions: Int
        public var timeouts: Int
        /// Data bytes per chunk: the mean, and the smallest the host chose.
        public var meanChunk: Double
        public var smallestChunk: Int

        /// Data bytes per virtual second.
        public var throughput: Double { Double(dataBytes) / seconds }
    }

    /// The data to send.
    public var data: [UInt8]
    /// Reliable messages kept queued ahead of the board's window, so the line never idles.
    public var queueAhead: Int
    /// Virtual time allowed after the handshake.
    public var limit: Duration
    /// The message payload to cut every chunk to; nil for the host's `preferredPayload` at the time.
    public var chunkPayload: Int?

    public init(data: [UInt8], queueAhead: Int, limit: Duration = .seconds(120), chunkPayload: Int? = nil) {
        self.data = data
        self.queueAhead = queueAhead
        self.limit = limit
        self.chunkPayload = chunkPayload
    }

    /// `size` pseudo-random bytes from `seed`.
    public static func randomData(size: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Connects (waiting at most `handshake`), then sends the data; nil when no session was established.
    public func run(
        over simulation: inout LinkSimulation, handshake: Duration = .seconds(10)
    ) throws(LinkError) -> Outcome? {
        simulation.connect()
        simulation.run(until: simulation.now + handshake) { $0.host.isEstablished }
        guard simulation.host.isEstablished else { return nil }
        let start = simulation.now
        let forwardBefore = simulation.toBoard.statistics.bytesOnLine
        let reverseBefore = simulation.toHost.statistics.bytesOnLine
        let retransmissionsBefore = simulation.host.statistics.retransmissions
        let timeoutsBefore = simulation.host.statistics.timeouts
        var chunker = Chunker(data: data, queueAhead: queueAhead, chunkPayload: chunkPayload)
        try chunker.queue(into: &simulation)
        var received: [UInt8] = []
        var failure: LinkError?
        let completed = simulation.run(until: start + limit) { sim in
            for (message, _) in sim.takeBoardReceived() {
                if case .uploadChunk(let chunk) = message { received.append(contentsOf: chunk.data) }
            }
            do throws(LinkError) { try chunker.queue(into: &sim) } catch { failure = error }
            return received.count >= data.count || failure != nil
        }
        if let failure { throw failure }
        return Outcome(
            completed: completed, intact: received == data,
            seconds: simulation.now.duration(since: start).secondsDouble,
            dataBytes: data.count, forwardLineBytes: simulation.toBoard.statistics.bytesOnLine - forwardBefore,
            reverseLineBytes: simulation.toHost.statistics.bytesOnLine - reverseBefore,
            retransmissions: simulation.host.statistics.retransmissions - retransmissionsBefore,
            timeouts: simulation.host.statistics.timeouts - timeoutsBefore,
            meanChunk: Double(data.count) / Double(max(chunker.count, 1)), smallestChunk: chunker.smallest)
    }

    /// Cuts the data into chunks as the host's queue has room for them.
    private struct Chunker {
        let data: [UInt8]
        let queueAhead: Int
        let chunkPayload: Int?
        var queuedUpTo = 0
        var count = 0
        var smallest = Int.max

        init(data: [UInt8], queueAhead: Int, chunkPayload: Int?) {
            self.data = data
            self.queueAhead = queueAhead
            self.chunkPayload = chunkPayload
        }

        mutating func queue(into simulation: inout LinkSimulation) throws(LinkError) {
            while queuedUpTo < data.count && simulation.host.pendingReliable < queueAhead {
                let room = (chunkPayload ?? simulation.host.preferredPayload) - 7  // tag, handle, offset
                let end = min(data.count, queuedUpTo + room)
                try simulation.hostSend(
                    .uploadChunk(
                        tag: UInt16(truncatingIfNeeded: count), handle: 0, offset: UInt32(queuedUpTo),
                        data: Array(data[queuedUpTo..<end])))
                smallest = min(smallest, end - queuedUpTo)
                queuedUpTo = end
                count += 1
            }
        }
    }
}

/// One upload over many seeds' lines, against the same upload over a clean line: the figures behind the
/// link's throughput property (tests on a few seeds, `thrum-bench link` on many).
public struct UploadSweep: Sendable {
    public struct Run: Sendable {
        public var seed: UInt64
        public var outcome: SimulatedUpload.Outcome
    }

    public var clean: SimulatedUpload.Outcome
    public var runs: [Run]

    /// Runs `upload(seed, faults)` for the clean line (`.none`, seed `cleanSeed`) and for each of `seeds`.
    public init(
        seeds: some Sequence<UInt64>, cleanSeed: UInt64 = 1,
        upload: (_ seed: UInt64, _ faults: VirtualLine.Faults) throws -> SimulatedUpload.Outcome,
        faults: VirtualLine.Faults
    ) rethrows {
        clean = try upload(cleanSeed, .none)
        runs = try seeds.map { Run(seed: $0, outcome: try upload($0, faults)) }
    }

    /// The median run's time (the upper one of an even count).
    public var medianSeconds: Double {
        let sorted = runs.map(\.outcome.seconds).sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The slowest run.
    public var slowest: Run? { runs.max { $0.outcome.seconds < $1.outcome.seconds } }

    /// The throughput of a run that took `seconds` as a share of the clean line's (the same data: a ratio of times).
    public func throughputRatio(seconds: Double) -> Double { clean.seconds / seconds }

    /// Every run completed and delivered exactly what was sent.
    public var allIntact: Bool { runs.allSatisfy { $0.outcome.completed && $0.outcome.intact } }
}
