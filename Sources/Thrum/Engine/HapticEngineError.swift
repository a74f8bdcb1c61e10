import ThrumWire

/// What went wrong, with a Core Haptics error code (``code``) and, in ``description``, the cause
/// in words a user can act on. Where an error from a lower layer caused it (a `TransportError`, a
/// `LinkFailure`, …), the case keeps that error as a value, for code to inspect.
public enum HapticEngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device address is not one Thrum understands; `cause`: why, when a parser said (a
    /// malformed `usb:` address).
    case badDeviceAddress(String, cause: Cause? = nil)
    /// The device could not be opened (busy, permission denied, missing); the cause says which
    /// (usually a `TransportError`).
    case openFailed(device: String, cause: Cause)
    /// The device went away while in use (unplugged, closed by the other side).
    case deviceLost(device: String, cause: Cause)
    /// Work in flight when the device went away or stopped answering: `operation` says what was
    /// being done ("storing flash slot 1"), `lost` what did not happen because of it, `cause` the
    /// loss itself (usually ``deviceLost(device:cause:)``, which names the device).
    case interrupted(operation: String, lost: String, cause: Cause)
    /// The board speaks another major version of the protocol.
    case versionMismatch(host: String, board: String)
    /// The link failed or a reply made no sense.
    case link(String)
    /// The board stopped answering: retransmissions or the handshake ran out.
    case linkFailed(LinkFailure)
    /// The link refused to send a message (`what`: the message's name, or "upload").
    case notSent(String, cause: LinkError)
    /// The board's INFO does not describe a board the host can drive.
    case invalidBoardInfo(BoardCapabilities.InvalidCapabilities)
    /// The board rebooted; requests in flight may or may not have run.
    case boardReset(discardedMessages: Int)
    /// The board refused a request with a status.
    case board(status: WireStatus?, request: MessageType)
    /// The board has too little timeline memory for a pattern.
    case outOfTimelineMemory(needed: Int, available: Int)
    /// A pattern larger than the board's timeline memory that cannot be cut into pieces of
    /// `pieceSize` (too much sounds at once somewhere); `cause`: the segmenter's error, if any.
    case cannotStream(size: Int, memory: Int, pieceSize: Int, cause: Cause?)
    /// An audio file that cannot be registered, or an audio resource ID that is not registered.
    case audioResource(String)
    /// The engine is not running (not started yet, stopped, or its link is down).
    case engineNotRunning(String)
    /// The pattern could not be compiled or read; `cause`: the reader's or the compiler's error.
    case invalidPattern(Cause)
    /// A player was used after the engine that made it was gone, or with a value out of range.
    case invalidPlayer(String)
    /// A locality (``HapticLocality``) that names a channel or board the engine or rig does not have.
    case invalidLocality(String)
    /// A rig (``HapticRig``) that cannot be: a rig file that cannot be read, boards or channels
    /// named twice, a board that is not there.
    case invalidRig(String)
    /// A flash slot that does not exist or is empty, or a pattern too big for one.
    case flash(String)
    /// A time before the engine's current time where that makes no sense, or not finite.
    case invalidTime(Double)

    /// Core Haptics' `CHHapticError.Code` raw value for this error.
    public var code: Int {
        switch self {
        case .badDeviceAddress, .openFailed: -4810  // serverInitFailed
        case .deviceLost, .link, .linkFailed, .notSent, .invalidBoardInfo, .boardReset: -4811  // serverInterrupted
        case .interrupted(_, _, let cause): (cause.error as? HapticEngineError)?.code ?? -4811
        case .versionMismatch: -4809  // notSupported
        case .board(let status, _):
            switch status {
            case .noMemory?: -4899
            case .notSupported?: -4809
            case .engineStopped?: -4805
            case .badTimeline?, .hashMismatch?: -4813
            default: -4898
            }
        case .outOfTimelineMemory, .cannotStream: -4899  // memoryError
        case .engineNotRunning: -4805
        case .invalidPattern: -4813  // invalidPatternData
        case .invalidPlayer: -4812
        case .invalidLocality: -4801  // invalidParameterType: nearest of Core Haptics' codes
        case .invalidRig: -4810  // serverInitFailed
        case .audioResource: -4824  // invalidAudioResource
        case .invalidTime: -4840
        case .flash: -4809  // notSupported
        }
    }

    public var description: String {
        switch self {
        case .badDeviceAddress(let text, let cause):
            "'\(text)\(cause.map { ": \($0)" } ?? "")' is not a device address: use 'sim', a serial device path such as /dev/ttyACM0, or usb:VID:PID[:SERIAL]"
        case .openFailed(let device, let cause):
            "cannot open \(device): \(cause)"
        case .deviceLost(let device, let cause):
            "lost the connection to \(device) (\(cause)); plug the board in again and restart the engine"
        case .interrupted(let operation, let lost, let cause):
            if case .deviceLost(let device, let loss)? = cause.error as? HapticEngineError {
                "lost the connection to \(device) (\(loss)) while \(operation): \(lost); plug the board in again and restart the engine"
            } else {
                "\(operation) was cut off (\(cause)): \(lost)"
            }
        case .versionMismatch(let host, let board):
            "the board speaks protocol \(board) but this host speaks \(host): update the firmware or Thrum so the major versions match"
        case .link(let text):
            "link: \(text)"
        case .linkFailed(let failure):
            "link: the board stopped answering (\(failure))"
        case .notSent(let what, let cause):
            "link: \(what) could not be sent: \(cause)"
        case .invalidBoardInfo(let cause):
            "link: the board's INFO is invalid: \(cause)"
        case .boardReset(let discarded):
            "the board rebooted (\(discarded) message\(discarded == 1 ? "" : "s") in flight may not have run); restart the engine"
        case .board(let status, let request):
            "the board refused \(request.name): \(status.map { "\($0)" } ?? "unknown status")"
        case .outOfTimelineMemory(let needed, let available):
            "the pattern needs \(needed) bytes of timeline memory but the board has \(available)"
        case .cannotStream(let size, let memory, let pieceSize, let cause):
            "the pattern (\(size) bytes) is larger than the board's timeline memory (\(memory) bytes) and cannot be streamed in pieces of \(pieceSize) bytes: \(cause?.description ?? "")"
        case .audioResource(let why):
            "audio resource: \(why)"
        case .engineNotRunning(let why):
            "the engine is not running: \(why)"
        case .invalidPattern(let cause):
            "invalid pattern: \(cause)"
        case .invalidPlayer(let why):
            "invalid player: \(why)"
        case .invalidLocality(let why):
            "invalid locality: \(why)"
        case .invalidRig(let why):
            "rig: \(why)"
        case .flash(let why):
            "flash: \(why)"
        case .invalidTime(let time):
            "invalid time \(time): times are engine seconds, finite and not negative"
        }
    }
}

extension HapticEngineError {
    /// Whether this error means the board is gone: unplugged, closed, or no longer answering.
    var isLossOfBoard: Bool {
        switch self {
        case .deviceLost, .linkFailed, .interrupted: true
        default: false
        }
    }

    /// Runs `body`; when the board goes away under it, the error also says what was being done
    /// and what was lost (words computed when it fails, so they can count progress).
    nonisolated(nonsending) static func naming<T>(
        _ operation: @autoclosure () -> String, lost: @autoclosure () -> String, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch let error as HapticEngineError where error.isLossOfBoard {
            if case .interrupted = error { throw error }
            throw HapticEngineError.interrupted(operation: operation(), lost: lost(), cause: Cause(error))
        }
    }
}

extension HapticEngineError {
    /// The error underneath one of the engine's: kept as a value (`error as? TransportError`)
    /// rather than as words, and described as that error describes itself.
    public struct Cause: Sendable, Equatable, CustomStringConvertible {
        public let error: any Error & Sendable

        public init(_ error: any Error & Sendable) { self.error = error }

        public var description: String { "\(error)" }

        /// Equal when both errors are of one Equatable type and equal as that type.
        public static func == (lhs: Cause, rhs: Cause) -> Bool {
            guard let left = (lhs.error as Any) as? any Equatable else { return false }
            return left.isEqual(to: rhs.error)
        }
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
