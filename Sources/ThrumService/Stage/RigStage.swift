import Foundation
import Thrum
import ThrumTransport

/// A rig of boards behind the service: a ``HapticRig``. The service's clock is the rig's
/// (``HapticRig/currentTime``, the host's monotonic clock), which the rig maps onto each board's.
/// Rig players have no pause, resume, seek or rate (`not_supported`), and their real-time
/// parameters travel reliably, scheduled at once (Protocol/SERVICE.md §5).
public final class RigStage: ServiceStage {
    public let rig: HapticRig
    public let events: AsyncStream<StageEvent>
    private let continuation: AsyncStream<StageEvent>.Continuation
    private let forwarder: Locked<Task<Void, Never>?> = Locked(nil)

    public init(rig: HapticRig) {
        self.rig = rig
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    public var flashEngine: HapticEngine? { nil }

    public func start() async throws {
        let rigEvents = rig.events
        let continuation = continuation
        forwarder.withLock { task in
            task?.cancel()
            task = Task {
                for await event in rigEvents {
                    switch event {
                    case .boardLeft(let board, let cause):
                        continuation.yield(.boardLeft(board: board, cause: "\(cause)"))
                    case .boardRejoined(let board, _, _, _): continuation.yield(.boardRejoined(board: board))
                    case .playerFinished(let player): continuation.yield(.playerFinished(player: player))
                    case .engine(let board, let event):
                        // A board's player ids are not the rig's: the rig reports its own players' ends.
                        if case .playerFinished = event { continue }
                        if let event = StageEvent.from(event, board: board) { continuation.yield(event) }
                    }
                }
            }
        }
        try await rig.start()
    }

    public func stop() async {
        await rig.stop()
        forwarder.withLock { $0?.cancel() }
        continuation.finish()
    }

    public func now() async -> Double { await rig.currentTime }

    public func boardDescriptions() async -> [JSONValue] {
        let localities = rig.configuration.localities.mapValues(\.description)
        var descriptions: [JSONValue] = []
        for status in await rig.boards {
            descriptions.append(
                BoardDescription.json(
                    name: status.name, address: status.address, present: status.isPresent,
                    capabilities: status.capabilities, channelNames: status.channelNames, faults: [:],
                    localities: localities, driftPPM: status.driftPPM))
        }
        return descriptions
    }

    public func linkFigures() async -> [JSONValue] {
        var figures: [JSONValue] = []
        for (index, board) in rig.configuration.boards.enumerated() {
            guard let engine = await rig.engine(board: index) else { continue }
            figures.append(BoardDescription.linkJSON(board: board.name, statistics: await engine.linkStatistics))
        }
        return figures
    }

    public func makePlayer(with pattern: HapticPattern, locality: String?) async throws -> any StagePlayer {
        var resolved = HapticLocality.all
        if let locality { resolved = try await rig.locality(named: locality) }
        return RigStagePlayer(player: try await rig.makePlayer(with: pattern, locality: resolved))
    }

    public func traceSources() async -> [TraceSource] {
        var sources: [TraceSource] = []
        for (index, board) in rig.configuration.boards.enumerated() {
            guard let engine = await rig.engine(board: index), let channels = await engine.channels else { continue }
            let names = board.channelNames ?? channels.names.map { $0 ?? "" }
            for channel in 0..<channels.count {
                sources.append(
                    TraceSource(
                        board: board.name, channel: channel,
                        name: names[safe: channel].flatMap { $0.isEmpty ? nil : $0 },
                        engine: engine,
                        serviceTime: { micros in
                            // Inverts the estimate: board = host + offset + drift × (host − reference), in µs.
                            guard let e = await engine.clockEstimate else { return nil }
                            return (micros - e.offset + e.drift * e.reference) / (1 + e.drift) / 1e6
                        },
                        boardNow: { await engine.currentTime * 1e6 }))
            }
        }
        return sources
    }
}

/// A player on every board its locality touches, its times the rig's.
struct RigStagePlayer: StagePlayer {
    let player: RigPlayer

    var id: Int { player.id }

    func start(at time: ServiceTime) async throws { try await player.start(atTime: time.seconds) }
    func stop(at time: ServiceTime) async throws { try await player.stop(atTime: time.seconds) }
    func pause(at time: ServiceTime) async throws { throw Self.unsupported("pause") }
    func resume(at time: ServiceTime) async throws { throw Self.unsupported("resume") }
    func seek(to offset: Double) async throws { throw Self.unsupported("seek") }
    func setLoop(enabled: Bool, end: Double) async throws { try await player.setLoop(enabled: enabled, loopEnd: end) }
    func setRate(_ rate: Double) async throws { throw Self.unsupported("a playback rate") }

    func sendParameters(_ parameters: [DynamicParameter], at time: ServiceTime) async throws {
        try await player.sendParameters(parameters, atTime: time.seconds)
    }

    func sendRealtimeParameters(_ parameters: [DynamicParameter]) async throws {
        try await player.sendParameters(parameters, atTime: 0)
    }

    func setPan(_ position: Double, at time: ServiceTime) async throws {
        try await player.setPan(position, atTime: time.seconds)
    }

    func sendRealtimePan(_ position: Double) async throws { try await player.sendRealtimePan(position) }

    func setLocality(_ locality: String, at time: ServiceTime) async throws {
        try await player.setLocality(await player.rig.locality(named: locality), atTime: time.seconds)
    }

    func cancel() async { try? await player.stop(atTime: 0) }

    private static func unsupported(_ what: String) -> ServiceError {
        ServiceError(.notSupported, "a rig's players have no \(what) (Protocol/SERVICE.md §5)")
    }
}
