import ThrumTimeline

/// Which compiled timelines the board holds, by content, least recently used first: playing a
/// pattern again sends only a start, and memory is made by freeing the timelines unused longest.
struct TimelineCache: Sendable {
    struct Entry: Sendable, Equatable {
        var handle: UInt8
        var size: Int
        /// A timeline: the registered sounds it plays. A waveform object: none.
        var plays: [Int] = []
        /// A waveform object: the registered sound it holds.
        var sound: Int?
    }

    /// Keyed by the timeline bytes themselves (equal bytes are the same timeline); ordered by use.
    private var entries: [(bytes: [UInt8], entry: Entry)] = []

    var isEmpty: Bool { entries.isEmpty }
    var bytesHeld: Int { entries.reduce(0) { $0 + $1.entry.size } }
    var handles: [UInt8] { entries.map(\.entry.handle) }

    /// The handle of these bytes if the board holds them; marks them used now.
    mutating func use(_ bytes: [UInt8]) -> UInt8? {
        guard let index = entries.firstIndex(where: { $0.bytes == bytes }) else { return nil }
        let found = entries.remove(at: index)
        entries.append(found)
        return found.entry.handle
    }

    mutating func insert(_ bytes: [UInt8], handle: UInt8, plays: [Int] = [], sound: Int? = nil) {
        entries.removeAll { $0.entry.handle == handle }
        entries.append((bytes, Entry(handle: handle, size: bytes.count, plays: plays, sound: sound)))
    }

    /// The handles of the sounds that the timelines `isPlaying` says are playing play.
    func soundHandles(playedBy isPlaying: (UInt8) -> Bool) -> Set<UInt8> {
        let sounding = Set(entries.filter { isPlaying($0.entry.handle) }.flatMap(\.entry.plays))
        return Set(entries.compactMap { $0.entry.sound.map(sounding.contains) == true ? $0.entry.handle : nil })
    }

    /// The least recently used entry that `isBusy` does not protect, removed from the cache.
    mutating func evictLeastRecentlyUsed(except isBusy: (UInt8) -> Bool) -> Entry? {
        guard let index = entries.firstIndex(where: { !isBusy($0.entry.handle) }) else { return nil }
        return entries.remove(at: index).entry
    }

    mutating func remove(handle: UInt8) { entries.removeAll { $0.entry.handle == handle } }

    /// Forgets everything (the board rebooted and lost its memory).
    mutating func removeAll() { entries.removeAll() }
}
