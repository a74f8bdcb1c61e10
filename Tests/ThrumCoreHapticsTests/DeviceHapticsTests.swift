import Foundation
import Testing
import Thrum
import ThrumCoreHaptics
import ThrumSimulator

/// `ThrumDeviceHaptics` makes Core Haptics engines per locality, as Game Controller's
/// `GCDeviceHaptics` does: unchanged Core Haptics code then plays on those channels only.
@Suite("Core Haptics engines per locality")
struct DeviceHapticsTests {
    static func handles() -> HapticEngine {
        var board = BoardConfiguration()
        board.channels = [.lra(), .lra()]
        board.channelNames = [0: "left_handle", 1: "right_handle"]
        return HapticEngine(simulating: board)
    }

    @Test("an engine per handle; a locality the board lacks gives no engine, once it is known")
    func perLocality() async throws {
        let haptics = ThrumDeviceHaptics(engine: Self.handles())
        #expect(await haptics.supportedLocalities == [.all])
        try await haptics.engine.start()
        #expect(await haptics.supportedLocalities == [.all, .leftHandle, .rightHandle])
        let left = try await onThread { try #require(haptics.createEngine(withLocality: .leftHandle)) }
        #expect(left.locality == .leftHandle)
        #expect(try await onThread { haptics.createEngine(withLocality: .triggers) } == nil)
        try await onThread {
            try left.start()
            let tap = try CHHapticPattern(
                events: [CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)],
                parameters: [])
            try left.makePlayer(with: tap).start(atTime: CHHapticTimeImmediate)
        }
        #expect(await haptics.engine.statistics.uploads == 1)
        await haptics.engine.stop()
    }
}
