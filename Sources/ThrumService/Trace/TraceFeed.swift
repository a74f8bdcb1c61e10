import Foundation
import Thrum

/// What the boards rendered, read back (TRACE_READ) and pushed to every subscribed client as
/// `trace` events (Protocol/SERVICE.md §6.7). One reader serves all subscribers, at the fastest
/// rate any of them asked for, so a second subscriber costs the boards nothing.
actor TraceFeed {
    private let stage: any ServiceStage
    private let limits: ServiceLimits
    private var subscribers: [Int: (client: ClientConnection, rate: Double)] = [:]
    private var reader: Task<Void, Never>?
    /// Where each source's next read starts (board µs, low 32 bits).
    private var next: [String: UInt32] = [:]

    init(stage: any ServiceStage, limits: ServiceLimits) {
        self.stage = stage
        self.limits = limits
    }

    func subscribe(_ client: ClientConnection, _ request: ServiceRequest) async throws(ServiceError) -> JSONValue {
        let rate = try request.optionalNumber("rate", in: 1...limits.maxTraceRate) ?? limits.defaultTraceRate
        let sources = await stage.traceSources()
        guard let first = sources.first else {
            throw ServiceError(.notSupported, "no board is connected whose output can be read back")
        }
        do {
            _ = try await first.engine.readTrace(channel: first.channel, from: 0, count: 1)
        } catch {
            throw ServiceError(
                .notSupported, "the board cannot report what it rendered (no TRACE_READ): \(error)")
        }
        subscribers[client.id] = (client, rate)
        if reader == nil { reader = Task { await self.run() } }
        return [
            "rate": .number(rate),
            "channels": .array(
                sources.map {
                    [
                        "board": .string($0.board), "channel": .int($0.channel),
                        "name": .optional($0.name.map { .string($0) }),
                    ]
                }),
        ]
    }

    func unsubscribe(_ client: ClientConnection) {
        subscribers[client.id] = nil
        if subscribers.isEmpty {
            reader?.cancel()
            reader = nil
            next = [:]
        }
    }

    func stop() {
        subscribers = [:]
        reader?.cancel()
        reader = nil
    }

    private var period: Duration {
        .seconds(1 / (subscribers.values.map(\.rate).max() ?? limits.defaultTraceRate))
    }

    private func run() async {
        while !Task.isCancelled, !subscribers.isEmpty {
            for source in await stage.traceSources() {
                guard let message = await read(source) else { continue }
                for subscriber in subscribers.values { subscriber.client.send(message) }
            }
            try? await Task.sleep(for: period)
        }
    }

    /// The ticks `source` rendered since the last read, as a `trace` event; nil when none are new.
    private func read(_ source: TraceSource) async -> JSONValue? {
        let key = "\(source.board)/\(source.channel)"
        let now = await source.boardNow()
        // The first read looks back 100 ms, so the first event already has something to draw.
        let from = next[key] ?? UInt32(truncatingIfNeeded: Int64(max(0, now - 100_000)))
        guard let trace = try? await source.engine.readTrace(channel: source.channel, from: from, count: 400),
            !trace.samples.isEmpty, trace.tick > 0
        else { return nil }
        next[key] = trace.start &+ UInt32(trace.samples.count) &* UInt32(trace.tick)
        let start = Self.widen(trace.start, near: now)
        guard let serviceStart = await source.serviceTime(start) else { return nil }
        return ServiceMessages.event(
            "trace",
            [
                "board": .string(source.board), "channel": .int(source.channel),
                "name": .optional(source.name.map { .string($0) }), "start": .number(serviceStart),
                "tick": .number(Double(trace.tick) / 1e6),
                "samples": .array(trace.intensities.map { .number(($0 * 10_000).rounded() / 10_000) }),
            ], time: await stage.now())
    }

    /// The 64-bit board time whose low 32 bits are `low`, nearest to `reference` µs.
    static func widen(_ low: UInt32, near reference: Double) -> Double {
        let wrap = 4_294_967_296.0
        let base = (reference / wrap).rounded(.down) * wrap
        let candidates = [base - wrap, base, base + wrap].map { $0 + Double(low) }
        return candidates.min { abs($0 - reference) < abs($1 - reference) }!
    }
}
