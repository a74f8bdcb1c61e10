import Thrum

/// Game Controller's `GCDeviceHaptics` for a Thrum board with several actuators: one Core Haptics
/// engine per locality (`createEngine(withLocality:)`), all on the board's one connection.
///
/// ```swift
/// let haptics = try ThrumDeviceHaptics()                     // THRUM_DEVICE, else the simulator
/// let left = haptics.createEngine(withLocality: .leftHandle)!
/// try left.start()
/// try left.makePlayer(with: pattern).start(atTime: CHHapticTimeImmediate)
/// ```
///
/// The engines share the board: starting one starts it, and stopping one stops the board for all
/// of them (a board has one host session). So does destroying one while it runs (Core Haptics'
/// `.engineDestroyed`): keep each engine as long as its players play, as Apple asks.
public final class ThrumDeviceHaptics: Sendable {
    /// The board's one Thrum engine.
    public let engine: HapticEngine

    /// The haptics of the board at `device` (default: `THRUM_DEVICE`, else the embedded simulator).
    public init(device: DeviceAddress? = nil) throws {
        do { engine = try HapticEngine(device: device) } catch { throw CHHapticError(error) }
    }

    public init(engine: HapticEngine) { self.engine = engine }

    /// The localities this board offers: every channel, and each channel by its name (or index),
    /// once the engine has started; before, only `HapticLocality.all`.
    public var supportedLocalities: Set<HapticLocality> {
        get async {
            guard let channels = await engine.channels else { return [.all] }
            return Set(
                [.all]
                    + channels.names.indices.map { index in
                        channels.names[index].map { HapticLocality.named($0) } ?? HapticLocality.indices(index)
                    })
        }
    }

    /// A Core Haptics engine whose players play on `locality`; nil when the board (once started)
    /// has no such channels, as Game Controller answers for a locality a controller lacks. When
    /// the board goes away, its stopped handler hears `.gameControllerDisconnect`, as a
    /// controller's engine does.
    public func createEngine(withLocality locality: HapticLocality) -> CHHapticEngine? {
        if let channels = blockingChannels(), (try? channels.resolve(locality)) == nil { return nil }
        let created = CHHapticEngine(engine: engine, locality: locality)
        created.state.withLock { $0.deviceLoss = .gameControllerDisconnect }
        return created
    }

    private func blockingChannels() -> BoardChannels? {
        try? blocking { [engine] in await engine.channels }
    }
}

/// Game Controller's named localities, for boards whose channels are named so (`left_handle`,
/// `right_trigger`, …) in their configuration or a rig file.
extension HapticLocality {
    public static let handles = HapticLocality.named("left_handle", "right_handle")
    public static let leftHandle = HapticLocality.named("left_handle")
    public static let rightHandle = HapticLocality.named("right_handle")
    public static let triggers = HapticLocality.named("left_trigger", "right_trigger")
    public static let leftTrigger = HapticLocality.named("left_trigger")
    public static let rightTrigger = HapticLocality.named("right_trigger")
}
