import Foundation
import ThrumModel

/// Audio files registered with an engine (Core Haptics' `registerAudioResource`), by the IDs that
/// `AudioCustom` events name. A board plays an audio event on its audio lane for the event's
/// duration (SEMANTICS.md §6.2); an event without one takes its file's length, read here from
/// WAV files (other formats keep the duration the pattern gives).
struct AudioResources: Sendable {
    struct Resource: Sendable, Equatable {
        var url: URL
        /// Seconds, when the file's format states it.
        var duration: Double?
    }

    private var resources: [Int: Resource] = [:]
    private var nextID = 1

    mutating func register(_ url: URL) throws(HapticEngineError) -> Int {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .audioResource("\(url.path): cannot be read (\(error.localizedDescription))")
        }
        var duration: Double?
        if ["wav", "wave"].contains(url.pathExtension.lowercased()) {
            do { duration = try WAVInfo.read([UInt8](data)).seconds } catch {
                throw .audioResource("\(url.path): not a WAV file Thrum can read: \(error)")
            }
        }
        defer { nextID += 1 }
        resources[nextID] = Resource(url: url, duration: duration)
        return nextID
    }

    mutating func unregister(_ id: Int) throws(HapticEngineError) {
        guard resources.removeValue(forKey: id) != nil else { throw .audioResource("audio resource \(id) is not registered") }
    }

    subscript(id: Int) -> Resource? { resources[id] }

    /// `pattern` with each `AudioCustom` event that names a registered resource and has no
    /// duration given its file's length. An unregistered ID is an error, naming the event.
    func resolve(_ pattern: HapticPattern) throws(HapticEngineError) -> HapticPattern {
        var resolved = pattern
        for index in resolved.events.indices where resolved.events[index].type == .audioCustom {
            guard let id = resolved.events[index].waveform?.resourceID else { continue }
            guard let resource = resources[id] else {
                throw .audioResource("events[\(index)] plays audio resource \(id), which is not registered (registerAudioResource)")
            }
            if resolved.events[index].duration == 0, let duration = resource.duration {
                resolved.events[index].duration = duration
            }
        }
        return resolved
    }
}
