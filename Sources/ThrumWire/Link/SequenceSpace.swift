/// Arithmetic on 8-bit sequence numbers that wrap (PROTOCOL.md §6.1).
enum SequenceSpace {
    /// Steps forward from `from` to `to`, modulo 256.
    static func distance(from: UInt8, to: UInt8) -> Int { Int(to &- from) }
}

/// Realtime receive filter (PROTOCOL.md §6.4): a frame is newer when it is 1…191 steps ahead of the last
/// accepted one; equal or up to 64 behind is stale and dropped. The first frame of a session is accepted.
public struct NewestWinsFilter: Sendable {
    private var last: UInt8?

    public init() {}

    public mutating func accept(_ seq: UInt8) -> Bool {
        guard let last else {
            self.last = seq
            return true
        }
        let ahead = SequenceSpace.distance(from: last, to: seq)
        guard (1...191).contains(ahead) else { return false }
        self.last = seq
        return true
    }
}
