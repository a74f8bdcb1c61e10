import Foundation
import ThrumModel
import ThrumTimeline
import ThrumTransport

/// A compiled pattern: the timeline bytes the board plays.
struct CompiledTimeline: Sendable {
    var bytes: [UInt8]
    /// `AudioContinuous` and `AudioCustom` events: a board without audio output skips them.
    var audioEvents = 0
    /// The registered audio resources its `AudioCustom` events play (their samples go to a board
    /// that plays samples before the timeline starts).
    var resources: [Int] = []
    /// The pieces it was cut into for streaming, kept with the player that owns it.
    let pieces = PieceCache()
}

extension CompiledTimeline {
    /// Compiles `pattern`; a pattern that does not compile is an invalid pattern.
    init(compiling pattern: HapticPattern) throws {
        do {
            self.init(
                bytes: try TimelineCompiler.compile(pattern),
                audioEvents: pattern.events.count { $0.type.isAudio },
                resources: Array(
                    Set(pattern.events.compactMap { $0.type == .audioCustom ? $0.waveform?.resourceID : nil })
                ).sorted())
        } catch {
            throw HapticEngineError.invalidPattern(.init(error))
        }
    }
}

/// A timeline's pieces for one board memory size: cut once, not at every start of its player.
final class PieceCache: Sendable {
    private let cut = Locked<(memory: Int, pieces: [TimelineSegment])?>(nil)

    func pieces(memory: Int, cutting: () throws -> [TimelineSegment]) rethrows -> [TimelineSegment] {
        if let cut = cut.withLock({ $0 }), cut.memory == memory { return cut.pieces }
        let pieces = try cutting()
        cut.withLock { $0 = (memory, pieces) }
        return pieces
    }
}
