import ThrumWire

/// The random part of a line's latency, as a USB host stack adds it: each delivery (the bytes due
/// at one instant, such as one USB frame's) comes 0...bound microseconds late, drawn from a seed so
/// a run replays exactly. A delivery never overtakes the one before it, so bytes keep their order,
/// and none comes more than `bound` after it was due.
struct DeliveryJitter: Sendable {
    let bound: UInt64
    private var random: SplitMix64
    /// The last due instant and when it was delivered: bytes due together arrive together.
    private var lastDue: UInt64?
    private var lastDelivery: UInt64 = 0

    init(bound: UInt64, seed: UInt64) {
        self.bound = bound
        random = SplitMix64(seed: seed)
    }

    /// When bytes due at `due` (microseconds, never earlier than the last call's) arrive.
    mutating func delivery(due: UInt64) -> UInt64 {
        guard bound > 0 else { return due }
        if due == lastDue { return lastDelivery }
        lastDue = due
        // Order: the last delivery was at most lastDue + bound <= due + bound, so the bound holds.
        lastDelivery = max(lastDelivery, due + UInt64.random(in: 0...bound, using: &random))
        return lastDelivery
    }
}
