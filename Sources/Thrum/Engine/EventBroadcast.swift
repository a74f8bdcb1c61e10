import Foundation
import ThrumTransport

/// Hands every event to each subscriber's own stream: several tasks may watch an engine at once
/// (an `AsyncStream` has one consumer). A subscriber sees the events after it subscribed.
final class EventBroadcast<Event: Sendable>: Sendable {
    private let subscribers = Locked<[UUID: AsyncStream<Event>.Continuation]>([:])

    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func yield(_ event: Event) {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.yield(event) }
    }

    /// Ends every subscriber's stream.
    func finish() {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.finish() }
    }
}
