import Thrum
import ThrumTransport

/// A client's real-time values waiting to go to the board (Protocol/SERVICE.md §7): one slot per
/// player and parameter (and pan), where a newer value replaces an older one that has not gone yet.
/// So however fast a client sends, nothing stale queues: the board gets the newest value of each.
final class RealtimeMailbox: Sendable {
    struct Pending: Sendable, Equatable {
        var parameters: [DynamicParameterID: Float] = [:]
        var pan: Double?
    }

    private let slots = Locked([Int: Pending]())
    /// Values replaced before they were sent (for `status` and the benchmark).
    private let replacedCount = Locked(0)
    private let signal: AsyncStream<Void>.Continuation
    private let wakeups: AsyncStream<Void>

    init() {
        (wakeups, signal) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func put(player: Int, parameters: [DynamicParameterID: Float], pan: Double?) {
        slots.withLock { slots in
            var pending = slots[player] ?? Pending()
            for (id, value) in parameters {
                if pending.parameters.updateValue(value, forKey: id) != nil { replacedCount.withLock { $0 += 1 } }
            }
            if let pan {
                if pending.pan != nil { replacedCount.withLock { $0 += 1 } }
                pending.pan = pan
            }
            slots[player] = pending
        }
        signal.yield()
    }

    var replaced: Int { replacedCount.withLock { $0 } }

    /// Forgets what is pending for `player` (destroyed, or its client gone).
    func drop(player: Int) {
        slots.withLock { $0[player] = nil }
    }

    /// Takes everything pending, emptying the slots.
    func takeAll() -> [Int: Pending] {
        slots.withLock { slots in
            defer { slots = [:] }
            return slots
        }
    }

    /// Wakes once after each run of puts; ends when the mailbox closes.
    var arrivals: AsyncStream<Void> { wakeups }

    func close() { signal.finish() }
}
