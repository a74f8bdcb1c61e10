import ThrumTimeline

/// Which compiled timelines the board holds, by content, least recently used first: playing a
/// pattern again sends only a start, and memory is made by freeing the timelines unused longest.
struct TimelineCache: Sendable {
    struct Entry: Sendable, Equatable {
        var handle: UInt8
        var size: Int
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

    mutating func insert(_ bytes: [UInt8], handle: UInt8) {
        entries.removeAll { $0.entry.handle == handle }
        entries.append((bytes, Entry(handle: handle, size: bytes.count)))
    }

    /// The least recently used entry that `isBusy` does not protect, removed from the cache.
    mutating func evictLeastRecentlyUsed(except isBusy: (UInt8) -> Bool) -> Entry? {
        guard let index = entries.firstIndex(where: { !isBusy($0.entry.handle) }) else { return nil }
        return entries.remove(at: index).entry
    }

    /// The bytes the board holds under `handle`, if the cache knows them.
    func bytes(of handle: UInt8) -> [UInt8]? { entries.first { $0.entry.handle == handle }?.bytes }

    mutating func remove(handle: UInt8) { entries.removeAll { $0.entry.handle == handle } }

    /// Forgets everything (the board rebooted and lost its memory).
    mutating func removeAll() { entries.removeAll() }
}
