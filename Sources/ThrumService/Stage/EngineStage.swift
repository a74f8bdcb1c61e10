import Foundation
import Thrum
import ThrumTransport

/// One board behind the service: a ``HapticEngine``. The service's clock is the board's clock
/// (``HapticEngine/currentTime``), so a time a client names is the board time it plays at. A board
/// that is lost (unplugged, not answering) is reported as `board.left` and tried again every
/// `rejoinInterval` until it answers (`board.rejoined`); players made before keep working.
public final class EngineStage: ServiceStage {
    public let engine: HapticEngine
    public let events: AsyncStream<StageEvent>
    private let continuation: AsyncStream<StageEvent>.Continuation
    private let board: String
    private let rejoinInterval: Duration
    private let forwarder: Locked<Task<Void, Never>?> = Locked(nil)
    private let rejoiner: Locked<Task<Void, Never>?> = Locked(nil)

    public init(engine: HapticEngine, rejoinInterval: Duration = .milliseconds(500)) {
        self.engine = engine
        self.board = engine.device.description
        self.rejoinInterval = rejoinInterval
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    public var flashEngine: HapticEngine? { engine }

    public func start() async throws {
        let engineEvents = engine.events
        let (continuation, board) = (continuation, board)
        forwarder.withLock { task in
            task?.cancel()
            task = Task { [weak self] in
                for await event in engineEvents {
                    if let event = StageEvent.from(event, board: board) { continuation.yield(event) }
                    if case .stopped(.deviceLost(let cause)) = event {
                        continuation.yield(.boardLeft(board: board, cause: "\(cause)"))
                        self?.rejoin()
                    }
                }
            }
        }
        try await engine.start()
    }

    /// Tries the board again until it answers, or the service stops.
    private func rejoin() {
        let (engine, continuation, board, interval) = (engine, continuation, board, rejoinInterval)
        rejoiner.withLock { task in
            task?.cancel()
            task = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled else { return }
                    if (try? await engine.start()) != nil {
                        continuation.yield(.boardRejoined(board: board))
                        return
                    }
                }
            }
        }
    }

    public func stop() async {
        rejoiner.withLock { $0?.cancel() }
        await engine.stop()
        forwarder.withLock { $0?.cancel() }
        continuation.finish()
    }

    public func now() async -> Double { await engine.currentTime }

    public func boardDescriptions() async -> [JSONValue] {
        let channels = await engine.channels
        let faults = await engine.channelFaults
        return [
            BoardDescription.json(
                name: board, address: engine.device.description, present: await engine.isRunning,
                capabilities: await engine.capabilities, channelNames: channels?.names ?? [], faults: faults,
                localities: [:])
        ]
    }

    public func linkFigures() async -> [JSONValue] {
        [BoardDescription.linkJSON(board: board, statistics: await engine.linkStatistics)]
    }

    public func makePlayer(with pattern: HapticPattern, locality: String?) async throws -> any StagePlayer {
        let player =
            if let locality {
                try await engine.makeAdvancedPlayer(with: pattern, locality: HapticLocality(parsing: locality))
            } else {
                try await engine.makeAdvancedPlayer(with: pattern)
            }
        return EnginePlayer(player: player)
    }

    public func traceSources() async -> [TraceSource] {
        guard let channels = await engine.channels else { return [] }
        let engine = engine
        return channels.names.enumerated().map { index, name in
            TraceSource(
                board: board, channel: index, name: name, engine: engine,
                serviceTime: { micros in micros / 1e6 },
                boardNow: { await engine.currentTime * 1e6 })
        }
    }
}

/// A player on one board: Thrum's advanced player, its times the board's.
struct EnginePlayer: StagePlayer {
    let player: HapticAdvancedPatternPlayer

    var id: Int { player.id }

    func start(at time: ServiceTime) async throws { try await player.start(atTime: time.seconds) }
    func stop(at time: ServiceTime) async throws { try await player.stop(atTime: time.seconds) }
    func pause(at time: ServiceTime) async throws { try await player.pause(atTime: time.seconds) }
    func resume(at time: ServiceTime) async throws { try await player.resume(atTime: time.seconds) }
    func seek(to offset: Double) async throws { try await player.seek(toOffset: offset) }
    func setLoop(enabled: Bool, end: Double) async throws { try await player.setLoop(enabled: enabled, loopEnd: end) }
    func setRate(_ rate: Double) async throws { try await player.setPlaybackRate(rate) }

    func sendParameters(_ parameters: [DynamicParameter], at time: ServiceTime) async throws {
        try await player.sendParameters(parameters, atTime: time.seconds)
    }

    func sendRealtimeParameters(_ parameters: [DynamicParameter]) async throws {
        try await player.sendRealtimeParameters(parameters)
    }

    func setPan(_ position: Double, at time: ServiceTime) async throws {
        try await player.setPan(position, atTime: time.seconds)
    }

    func sendRealtimePan(_ position: Double) async throws { try await player.sendRealtimePan(position) }

    func setLocality(_ locality: String, at time: ServiceTime) async throws {
        try await player.setLocality(HapticLocality(parsing: locality), atTime: time.seconds)
    }

    func cancel() async { try? await player.cancel() }
}
