import ThrumTimeline

/// Registered audio resources on a board that plays samples (INFO.audio_rate_hz > 0): each one a
/// pattern plays goes to the board as a waveform object at the board's rate before the pattern
/// starts (Protocol/WAVEFORM.md, SEMANTICS.md §6.4), cached like timelines.
extension HapticEngine {
    /// Loads the waveform objects `timeline` plays; returns their handles, which the timeline's own
    /// load must not free. Nothing on a board that plays no samples (the volume lane plays alone).
    func loadWaveforms(of timeline: CompiledTimeline, player: Int) async throws -> Set<UInt8> {
        guard !timeline.resources.isEmpty, let capabilities, capabilities.audioSampleRate > 0 else { return [] }
        var handles = Set<UInt8>()
        for id in timeline.resources {
            let object: [UInt8]
            switch audioResources.waveformObject(for: id, rate: capabilities.audioSampleRate) {
            case .success(let bytes): object = bytes
            case .failure(let why):
                emit.yield(.log(level: .warning, text: "player \(player): audio resource \(id) plays on the volume lane only: \(why)"))
                continue
            }
            guard object.count <= capabilities.timelineMemory else {
                let seconds = Double(object.count - WaveformObject.headerSize) / Double(capabilities.audioSampleRate)
                throw HapticEngineError.audioResource(
                    "audio resource \(id) lasts \(String(format: "%.2f", seconds)) s: at \(capabilities.audioSampleRate) Hz it needs \(object.count) bytes, and \(capabilities.boardName) has \(capabilities.timelineMemory) bytes of timeline memory")
            }
            handles.insert(try await load(bytes: object, sound: id, keeping: handles))
        }
        return handles
    }
}
