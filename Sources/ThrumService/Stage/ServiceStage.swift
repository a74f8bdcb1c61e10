import Foundation
import Thrum

/// What the service plays on: one board (``EngineStage``) or a rig of boards (``RigStage``). The
/// hub speaks only to this, so every request works the same on both, or answers `not_supported`.
/// Times are seconds on the service's clock (Protocol/SERVICE.md §5).
public protocol ServiceStage: Sendable {
    func start() async throws
    func stop() async
    /// The service's clock now, in seconds.
    func now() async -> Double
    /// The boards as `boards` and `hello` describe them.
    func boardDescriptions() async -> [JSONValue]
    /// Link figures for `status`: round trip, frames, retransmissions, per board.
    func linkFigures() async -> [JSONValue]
    /// A player for `pattern` on `locality` (nil: every channel).
    func makePlayer(with pattern: HapticPattern, locality: String?) async throws -> any StagePlayer
    /// The channels whose rendered output can be read back, each with its clock mapping.
    func traceSources() async -> [TraceSource]
    /// The one board's engine, for flash slots; nil on a rig.
    var flashEngine: HapticEngine? { get }
    /// Board and engine events, as they happen.
    var events: AsyncStream<StageEvent> { get }
}

/// A player on the stage; ids are unique for the stage's life.
public protocol StagePlayer: Sendable {
    var id: Int { get }
    func start(at time: ServiceTime) async throws
    func stop(at time: ServiceTime) async throws
    func pause(at time: ServiceTime) async throws
    func resume(at time: ServiceTime) async throws
    func seek(to offset: Double) async throws
    func setLoop(enabled: Bool, end: Double) async throws
    func setRate(_ rate: Double) async throws
    func sendParameters(_ parameters: [DynamicParameter], at time: ServiceTime) async throws
    /// Over the real-time channel: no acknowledgement, the newest value wins on the board.
    func sendRealtimeParameters(_ parameters: [DynamicParameter]) async throws
    func setPan(_ position: Double, at time: ServiceTime) async throws
    func sendRealtimePan(_ position: Double) async throws
    func setLocality(_ locality: String, at time: ServiceTime) async throws
    /// Stops at once and forgets what was scheduled (a client gone, a player destroyed).
    func cancel() async
}

/// What the stage reports, for the hub to route: a player's events to its owner, the rest to all.
public enum StageEvent: Sendable, Equatable {
    case playerFinished(player: Int)
    case late(board: String, seconds: Double)
    case fault(board: String, fault: String, channel: Int?)
    case boardLeft(board: String, cause: String)
    case boardRejoined(board: String)
    case engineStopped(board: String, reason: String)
    case engineStarted(board: String)
    case engineReset(board: String)
    case log(board: String, level: String, text: String)
}

/// One channel whose rendered output can be read back (TRACE_READ), and how the board's clock
/// maps onto the service's.
public struct TraceSource: Sendable {
    public var board: String
    public var channel: Int
    public var name: String?
    public var engine: HapticEngine
    /// The service time at which the board's clock reads `microseconds` (64-bit); nil before the
    /// clock is known.
    public var serviceTime: @Sendable (_ boardMicroseconds: Double) async -> Double?
    /// The board's clock now, in µs (64-bit).
    public var boardNow: @Sendable () async -> Double
}

extension ServiceTime {
    /// The time as an engine or rig `atTime:` argument (0 is "immediately" there).
    var seconds: Double {
        switch self {
        case .now: 0
        case .at(let time): time
        }
    }
}

extension StageEvent {
    /// The engine's events in the service's words.
    static func from(_ event: HapticEngineEvent, board: String) -> StageEvent? {
        switch event {
        case .started: return .engineStarted(board: board)
        case .stopped(let reason): return .engineStopped(board: board, reason: "\(reason)")
        case .reset: return .engineReset(board: board)
        case .playerFinished(let player): return .playerFinished(player: player)
        case .late(let seconds): return .late(board: board, seconds: seconds)
        case .fault(let fault, let channel):
            return .fault(board: board, fault: "\(fault)", channel: channel == 255 ? nil : Int(channel))
        case .log(let level, let text): return .log(board: board, level: "\(level)", text: text)
        }
    }
}
