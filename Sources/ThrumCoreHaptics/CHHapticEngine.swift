import Foundation
import Thrum
import ThrumModel
import ThrumTransport
import ThrumWire

/// Core Haptics' engine (`CHHapticEngine`) on a Thrum board: the default device (`THRUM_DEVICE`,
/// else the embedded simulator). Calls block until the board has answered, as Core Haptics'
/// synchronous calls do; call them from your main thread or game loop, not from a Swift task.
///
/// Every handler (stopped, reset, finished, completion) runs on the engine's own serial callback
/// queue, in order, and may call the API again, as Apple's header promises. When it starts and
/// stops, and which handler hears of it, is in <doc:EngineLifecycle>.
///
/// An `NSObject`, as Apple's is. `Sendable` because every piece of its state is behind a lock or
/// in the Thrum engine's actor; a subclass restates `@unchecked Sendable` (Swift warns otherwise)
/// and, if it adds state of its own, keeps that promise.
open class CHHapticEngine: NSObject, @unchecked Sendable {
    public enum StoppedReason: Int, Sendable {
        case audioSessionInterrupt = 1
        case applicationSuspended = 2
        case idleTimeout = 3
        case notifyWhenFinished = 4
        case engineDestroyed = 5
        case gameControllerDisconnect = 6
        case systemError = -1
    }

    public enum FinishedAction: Int, Sendable {
        case stopEngine = 1
        case leaveEngineRunning = 2
    }

    // Apple's handler types: not `@Sendable`, so main-actor code can write them.
    public typealias StoppedHandler = (StoppedReason) -> Void
    public typealias ResetHandler = () -> Void
    public typealias FinishedHandler = ((any Error)?) -> FinishedAction
    public typealias CompletionHandler = ((any Error)?) -> Void

    /// The Thrum engine underneath, for what Core Haptics has no words for (events, statistics).
    public let engine: HapticEngine
    /// Where this engine's players play (a Thrum extension; Core Haptics has one actuator).
    public let locality: HapticLocality
    struct State {
        var stopped: StoppedHandler?
        var reset: ResetHandler?
        /// What the stopped handler hears when the board goes away: a game controller's engine
        /// (``ThrumDeviceHaptics``) hears `.gameControllerDisconnect`.
        var deviceLoss = StoppedReason.systemError
        var settings = (
            autoShutdown: false, mutedHaptics: false, mutedAudio: false, hapticsOnly: false, audioOnly: false
        )
    }
    let state = Locked(State())
    var watcher: Task<Void, Never>?
    let callbacks = CallbackQueue()

    /// An engine for the default device: `try CHHapticEngine()`, as with Apple's `init() throws`.
    ///
    /// `NSObject` declares a non-throwing `init()`, which Swift lets no subclass override with a
    /// throwing one; this initialiser takes an argument nobody passes instead, so the call reads
    /// and throws as Apple's does.
    public init(_ defaultDevice: Void = ()) throws {
        do { engine = try HapticEngine() } catch { throw CHHapticError(error) }
        locality = .all
        super.init()
        watch()
    }

    /// Apple's form for apps that configure an `AVAudioSession`. Linux has no AVFoundation, so the
    /// session is whatever the app passes (its own stand-in type, or `nil`); a Thrum board has no
    /// audio session to share, so it is not used.
    public convenience init(audioSession: Any?) throws {
        try self.init()
    }

    /// An engine for a given Thrum engine (tests, or a device chosen in code), whose players play
    /// on `locality` (default: every channel, as Core Haptics plays on its one actuator).
    public init(engine: HapticEngine, locality: HapticLocality = .all) {
        self.engine = engine
        self.locality = locality
        super.init()
        watch()
    }

    deinit {
        watcher?.cancel()
        stopBecauseDestroyed()
    }

    // MARK: capabilities

    /// What the default device supports. Haptics are supported when the default device is the
    /// embedded simulator or its path exists; nothing is opened.
    public static func capabilitiesForHardware() -> any CHHapticDeviceCapability {
        let address = (try? DeviceAddress.default) ?? .simulator
        let present: Bool =
            switch address {
            case .simulator, .usb: true
            case .path(let path): FileManager.default.fileExists(atPath: path)
            }
        return ThrumDeviceCapability(supportsHaptics: present, supportsAudio: address == .simulator)
    }

    /// Seconds on the board's clock: the time base of every `atTime:`.
    public var currentTime: TimeInterval {
        (try? blocking { await self.engine.currentTime }) ?? 0
    }

    /// Like the three below, takes effect at each player's next start (Core Haptics: at the
    /// engine's next start).
    public var isMutedForHaptics: Bool {
        get { state.withLock { $0.settings.mutedHaptics } }
        set { state.withLock { $0.settings.mutedHaptics = newValue } }
    }

    public var isMutedForAudio: Bool {
        get { state.withLock { $0.settings.mutedAudio } }
        set { state.withLock { $0.settings.mutedAudio = newValue } }
    }

    public var playsHapticsOnly: Bool {
        get { state.withLock { $0.settings.hapticsOnly } }
        set { state.withLock { $0.settings.hapticsOnly = newValue } }
    }

    /// Core Haptics' iOS 16 setting: haptic events are skipped, audio events play.
    public var playsAudioOnly: Bool {
        get { state.withLock { $0.settings.audioOnly } }
        set { state.withLock { $0.settings.audioOnly = newValue } }
    }

    // MARK: players

    public func makePlayer(with pattern: CHHapticPattern) throws -> any CHHapticPatternPlayer {
        try makeAdvancedPlayer(with: pattern)
    }

    public func makeAdvancedPlayer(with pattern: CHHapticPattern) throws -> any CHHapticAdvancedPatternPlayer {
        try ThrumPatternPlayer(pattern.pattern, on: self)
    }

    /// Which events this engine plays; a player made under another filter is remade at its next start.
    struct PlaybackFilter: Equatable, Sendable {
        var skipsAudio = false
        var skipsHaptics = false
    }

    var playbackFilter: PlaybackFilter {
        state.withLock { state in
            let settings = state.settings
            return PlaybackFilter(
                skipsAudio: settings.hapticsOnly || settings.mutedAudio,
                skipsHaptics: settings.audioOnly || settings.mutedHaptics)
        }
    }

    /// A Thrum player for `pattern` as this engine plays it under `filter`.
    func makeThrumPlayer(_ pattern: HapticPattern, filter: PlaybackFilter) throws -> HapticAdvancedPatternPlayer {
        try blocking {
            try await self.engine.makeAdvancedPlayer(with: Self.prepared(pattern, filter), locality: self.locality)
        }
    }

    /// Plays an AHAP (or `.haptic`) file once, starting the engine first if it is stopped, as
    /// Core Haptics does.
    public func playPattern(from url: URL) throws {
        try blocking {
            try await self.engine.start()
            try await self.engine.playPattern(from: url)
        }
    }

    public func playPattern(from data: Data) throws {
        try blocking {
            try await self.engine.start()
            try await self.engine.playPattern(from: data)
        }
    }

    /// The pattern as this engine plays it: without audio events when the engine plays haptics
    /// only or is muted for audio, without haptic events when it plays audio only or is muted for
    /// haptics.
    private static func prepared(_ pattern: HapticPattern, _ filter: PlaybackFilter) -> HapticPattern {
        var result = pattern
        result.events.removeAll { event in
            (event.type.isAudio && filter.skipsAudio) || (event.type.isHaptic && filter.skipsHaptics)
        }
        return result
    }

    // MARK: audio

    /// Registers an audio file for `AudioCustom` events. The file must exist; boards without an
    /// audio output skip such events. `options` takes ``CHHapticAudioResourceKey`` keys with
    /// `Bool` values; an unknown key or a value of another type is an error, naming it.
    public func registerAudioResource(
        _ resourceURL: URL, options: [AnyHashable: Any] = [:]
    ) throws -> CHHapticAudioResourceID {
        guard FileManager.default.fileExists(atPath: resourceURL.path) else {
            throw CHHapticError(.fileNotFound, "\(resourceURL.path) does not exist")
        }
        let settings = try CHHapticAudioResourceKey.settings(from: options)
        return try blocking {
            try await self.engine.registerAudioResource(
                resourceURL, useVolumeEnvelope: settings.useVolumeEnvelope, loopEnabled: settings.loopEnabled)
        }
    }

    public func unregisterAudioResource(_ resourceID: CHHapticAudioResourceID) throws {
        try blocking { try await self.engine.unregisterAudioResource(resourceID) }
    }
}
