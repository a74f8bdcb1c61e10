import Foundation
import ThrumTimeline

/// Registered audio resources on a board that plays samples (INFO.audio_rate_hz > 0): each one a
/// pattern plays goes to the board as a waveform object at the board's rate before the pattern
/// starts (Protocol/WAVEFORM.md, SEMANTICS.md §6.4), cached like timelines.
extension TimelineStore {
    /// A resource's waveform object at the board's rate, or why it plays on the volume lane only.
    typealias PreparedWaveform = (resource: Int, bytes: Result<[UInt8], AudioResources.Unplayable>)

    /// Loads the waveform `objects` a player's timeline plays; returns their handles, which the
    /// timeline's own load must not free. An object that cannot be made is skipped with a warning
    /// (the sound plays on the volume lane only).
    nonisolated(nonsending) func loadWaveforms(
        _ objects: [PreparedWaveform], player: Int, log: EngineLog
    ) async throws -> Set<UInt8> {
        guard let capabilities = session.capabilities else { return [] }
        var handles = Set<UInt8>()
        for (id, made) in objects {
            let object: [UInt8]
            switch made {
            case .success(let bytes): object = bytes
            case .failure(let why):
                log.warning(
                    "audio resource \(id) plays on the volume lane only: \(why)", about: .player(player),
                    metadata: ["resource": "\(id)"])
                continue
            }
            guard object.count <= capabilities.timelineMemory else {
                let seconds = Double(object.count - WaveformObject.headerSize) / Double(capabilities.audioSampleRate)
                throw HapticEngineError.audioResource(
                    "audio resource \(id) lasts \(String(format: "%.2f", seconds)) s: at \(capabilities.audioSampleRate) Hz it needs \(object.count) bytes, and \(capabilities.boardName) has \(capabilities.timelineMemory) bytes of timeline memory"
                )
            }
            handles.insert(try await load(bytes: object, sound: id, keeping: handles))
        }
        return handles
    }
}

extension AudioResources {
    /// The waveform objects `timeline` plays, made for a board playing `rate` Hz; none when the
    /// board plays no samples (the volume lane plays alone).
    mutating func waveformObjects(for timeline: CompiledTimeline, rate: Int) -> [TimelineStore.PreparedWaveform] {
        guard rate > 0 else { return [] }
        return timeline.resources.map { ($0, waveformObject(for: $0, rate: rate)) }
    }
}
