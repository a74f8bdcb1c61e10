import Foundation
import Thrum
import ThrumTransport

/// One client of the service (one WebSocket): what it is sent, its share of requests, its real-time
/// mailbox, and the players it owns. The hub keeps the shared state; this keeps what is the
/// client's alone, so that a busy client slows nobody else.
public final class ClientConnection: Sendable {
    public let id: Int
    /// Messages for the client, in order; the connection's writer drains them.
    let outbound: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation
    private let bucket: Locked<TokenBucket>
    private let started = ContinuousClock.now
    let mailbox = RealtimeMailbox()
    /// The players this client made, for the real-time path (which does not go through the hub).
    private let ownedPlayers = Locked([Int: any StagePlayer]())
    private let details = Locked(Details())
    private let realtimeInterval: Duration

    struct Details: Sendable {
        var name = "client"
        /// Real-time values sent to the board (each parameter and pan counts one).
        var realtimeSent = 0
        var dropped = 0
    }

    init(id: Int, limits: ServiceLimits) {
        self.id = id
        (outbound, sink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(limits.outboundQueue))
        bucket = Locked(TokenBucket(rate: limits.requestsPerSecond, burst: limits.requestBurst))
        realtimeInterval = limits.realtimeInterval
    }

    var name: String {
        get { details.withLock { $0.name } }
        set { details.withLock { $0.name = newValue } }
    }

    var figures: Details { details.withLock { $0 } }

    /// Sends one message (a reply or an event) to the client.
    func send(_ message: JSONValue) {
        if case .dropped = sink.yield(message.encoded) { details.withLock { $0.dropped += 1 } }
    }

    /// Whether a request may go ahead now (false: answer `rate_limited`).
    func admitRequest() -> Bool {
        let now = (ContinuousClock.now - started) / .seconds(1)
        return bucket.withLock { $0.take(at: now) }
    }

    func own(_ player: any StagePlayer) { ownedPlayers.withLock { $0[player.id] = player } }
    func disown(_ id: Int) {
        ownedPlayers.withLock { $0[id] = nil }
        mailbox.drop(player: id)
    }
    func owns(_ id: Int) -> Bool { ownedPlayers.withLock { $0[id] != nil } }

    /// Sends the mailbox's newest values to the board until the client goes: a batch as soon as a
    /// value arrives, but no sooner than `realtimeInterval` after the previous batch began, so a
    /// flood from this client costs the board no more than a steady stream would.
    func runRealtime() async {
        var previous: ContinuousClock.Instant?
        for await _ in mailbox.arrivals {
            if let previous { try? await Task.sleep(until: previous + realtimeInterval, clock: .continuous) }
            previous = .now
            for (id, pending) in mailbox.takeAll() {
                guard let player = ownedPlayers.withLock({ $0[id] }) else { continue }
                do {
                    if !pending.parameters.isEmpty {
                        try await player.sendRealtimeParameters(
                            pending.parameters.map { DynamicParameter($0.key, value: $0.value, time: 0) })
                    }
                    if let pan = pending.pan { try await player.sendRealtimePan(pan) }
                    details.withLock { $0.realtimeSent += pending.parameters.count + (pending.pan == nil ? 0 : 1) }
                } catch {
                    send(ServiceMessages.error(ServiceError.from(error), id: nil, request: "player.realtime"))
                }
            }
        }
    }

    /// Ends the client's streams (its connection closed).
    func close() {
        mailbox.close()
        sink.finish()
    }
}
