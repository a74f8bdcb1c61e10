import ThrumWire

/// The timelines and waveform objects the board holds: uploads what is missing, finds what is
/// there already (`TimelineCache`), and frees the least recently used when the board is full.
final class TimelineStore {
    let session: BoardSession
    private let players: PlayerTable
    private let streams: StreamTable
    private var cache = TimelineCache()
    private(set) var counters = UploadCounters()

    init(session: BoardSession, players: PlayerTable, streams: StreamTable) {
        self.session = session
        self.players = players
        self.streams = streams
    }

    /// Makes sure the board holds `timeline`; returns its handle. Frees the least recently used
    /// timelines (not playing) when the board is out of memory.
    /// `keeping`: handles this load must not free (the waveform objects the timeline plays).
    nonisolated(nonsending) func load(
        _ timeline: CompiledTimeline, keeping: Set<UInt8> = [], progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> UInt8 {
        try await load(bytes: timeline.bytes, plays: timeline.resources, keeping: keeping, progress: progress)
    }

    /// Makes sure the board holds `bytes` (a timeline playing the sounds `plays`, or the waveform
    /// object of `sound`); returns the handle.
    nonisolated(nonsending) func load(
        bytes: [UInt8], plays: [Int] = [], sound: Int? = nil, keeping: Set<UInt8> = [],
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> UInt8 {
        let link = try session.runningLink()
        if let handle = cache.use(bytes) {
            counters.cacheHits += 1
            return handle
        }
        let memory = session.capabilities?.timelineMemory
        if let memory, bytes.count > memory {
            throw HapticEngineError.outOfTimelineMemory(needed: bytes.count, available: memory)
        }
        var freedForeign = false
        while true {
            do {
                let handle = try await link.upload(bytes, progress: progress)
                counters.uploads += 1
                counters.uploadedBytes += bytes.count
                cache.insert(bytes, handle: handle, plays: plays, sound: sound)
                return handle
            } catch HapticEngineError.board(.noMemory?, _) {
                if let victim = evictionVictim(keeping: keeping) {
                    try await link.command { .timelineFree(tag: $0, handle: victim.handle) }
                    counters.evictions += 1
                    continue
                }
                // Timelines this engine never uploaded: an earlier host's, on a board whose firmware
                // predates freeing them at each new session (PROTOCOL.md §4.1). Freed once, the
                // handles this engine does not hold.
                if !freedForeign, let count = session.capabilities?.maxTimelines {
                    freedForeign = true
                    let ours = Set(cache.handles)
                    for handle in (0..<count).map(UInt8.init) where !ours.contains(handle) {
                        try? await link.command { .timelineFree(tag: $0, handle: handle) }
                    }
                    continue
                }
                throw HapticEngineError.outOfTimelineMemory(
                    needed: bytes.count, available: (session.capabilities?.timelineMemory ?? 0) - cache.bytesHeld)
            }
        }
    }

    /// The least recently used entry nothing needs, removed from the cache: not playing, not a
    /// sound a playing timeline plays, not a streamed piece still to play, not in `keeping`.
    private func evictionVictim(keeping: Set<UInt8>) -> TimelineCache.Entry? {
        // Worked out before the eviction, which holds the cache exclusively.
        let sounding = cache.soundHandles(playedBy: players.isPlaying(handle:))
        let players = players
        let streams = streams
        return cache.evictLeastRecentlyUsed { handle in
            keeping.contains(handle) || sounding.contains(handle) || players.isPlaying(handle: handle)
                || streams.holds(handle)
        }
    }

    /// Frees a timeline's memory now, unless something plays or keeps it (a finished streamed
    /// piece: a round trip saved where time is short).
    nonisolated(nonsending) func free(_ bytes: [UInt8]) async {
        guard let handle = cache.use(bytes), !players.isPlaying(handle: handle), !streams.holds(handle),
            let link = try? session.runningLink()
        else { return }
        cache.remove(handle: handle)
        try? await link.command { .timelineFree(tag: $0, handle: handle) }
    }

    /// Forgets everything (the board rebooted or the link closed: its memory is lost to us).
    func removeAll() { cache.removeAll() }
}

/// What the store did on the board (part of ``EngineStatistics``).
struct UploadCounters: Sendable, Equatable {
    var uploads = 0
    var uploadedBytes = 0
    var cacheHits = 0
    var evictions = 0
}
