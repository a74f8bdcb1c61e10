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
        /// Its sound, for boards that play samples; or why it has none to send.
        var sound: Result<WAVSamples, Unplayable>
        /// Its waveform object at the rate last asked for (boards of one engine share a rate).
        var object: Object?
        /// What the events that play it say for `EventWaveformUseVolumeEnvelope` and
        /// `EventWaveformLoopEnabled` (Core Haptics' registration options).
        var useVolumeEnvelope = true
        var loopEnabled = false
    }

    struct Object: Sendable, Equatable {
        var rate: Int
        var bytes: [UInt8]
    }

    /// Why a registered file's samples cannot go to a board (it still plays on the volume lane).
    struct Unplayable: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private var resources: [Int: Resource] = [:]
    private var nextID = 1

    mutating func register(
        _ url: URL, useVolumeEnvelope: Bool = true, loopEnabled: Bool = false
    ) throws(HapticEngineError) -> Int {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .audioResource("\(url.path): cannot be read (\(error.localizedDescription))")
        }
        var duration: Double?
        var sound = Result<WAVSamples, Unplayable>.failure(
            Unplayable(description: "\(url.lastPathComponent) is not a WAV file"))
        if ["wav", "wave"].contains(url.pathExtension.lowercased()) {
            let bytes = [UInt8](data)
            let info: WAVInfo
            do { info = try WAVInfo.read(bytes) } catch {
                throw .audioResource("\(url.path): not a WAV file Thrum can read: \(error)")
            }
            duration = info.seconds
            do { sound = .success(try WAVSamples(bytes, info: info)) } catch {
                sound = .failure(Unplayable(description: "\(url.lastPathComponent): \(error)"))
            }
        }
        defer { nextID += 1 }
        resources[nextID] = Resource(
            url: url, duration: duration, sound: sound, useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
        return nextID
    }

    mutating func unregister(_ id: Int) throws(HapticEngineError) {
        guard resources.removeValue(forKey: id) != nil else {
            throw .audioResource("audio resource \(id) is not registered")
        }
    }

    subscript(id: Int) -> Resource? { resources[id] }

    /// The waveform object of resource `id` for a board playing `rate` Hz (WAVEFORM.md §2), made
    /// once per rate; or why there is none.
    mutating func waveformObject(for id: Int, rate: Int) -> Result<[UInt8], Unplayable> {
        guard var resource = resources[id] else { return .failure(Unplayable(description: "it is not registered")) }
        if let object = resource.object, object.rate == rate { return .success(object.bytes) }
        switch resource.sound {
        case .failure(let why): return .failure(why)
        case .success(let sound):
            let bytes = sound.waveformObject(resourceID: UInt32(id), rate: rate).encoded()
            resource.object = Object(rate: rate, bytes: bytes)
            resources[id] = resource
            return .success(bytes)
        }
    }

    /// `pattern` with each `AudioCustom` event that names a registered resource given the
    /// resource's options, and its file's length when it has no duration. An unregistered ID is an
    /// error, naming the event.
    func resolve(_ pattern: HapticPattern) throws(HapticEngineError) -> HapticPattern {
        var resolved = pattern
        for index in resolved.events.indices where resolved.events[index].type == .audioCustom {
            guard let id = resolved.events[index].waveform?.resourceID else { continue }
            guard let resource = resources[id] else {
                throw .audioResource(
                    "events[\(index)] plays audio resource \(id), which is not registered (registerAudioResource)")
            }
            if resolved.events[index].duration == 0, let duration = resource.duration {
                resolved.events[index].duration = duration
            }
            resolved.events[index].waveform?.useVolumeEnvelope = resource.useVolumeEnvelope
            resolved.events[index].waveform?.loopEnabled = resource.loopEnabled
        }
        return resolved
    }
}
