import ThrumModel
import ThrumTimeline

/// Renders a compiled timeline on a simulated board through its direct API with a manual clock:
/// load, start player 0 at board time 0, tick until `seconds`, and read the trace of channel 0.
public enum FirmwareRendering {
    public struct Lanes: Sendable {
        public var tickRate: Double
        /// Q15 intensity and sharpness of tick k (board time k / tickRate).
        public var intensity: [Float]
        public var sharpness: [Float]
        public var acceleration: AccelerationTrace?
    }

    public static func render(
        timeline bytes: [UInt8], seconds: Double, tickRate: Int = 1000,
        actuator: ActuatorModel = .lra(), recordsAcceleration: Bool = false
    ) throws -> Lanes {
        var configuration = BoardConfiguration()
        configuration.tickRate = tickRate
        configuration.channels = [actuator]
        configuration.timelineMemory = max(4096, bytes.count + 64)
        configuration.slotCount = 0
        let board = try SimulatedBoard(configuration)
        board.recordsAcceleration = recordsAcceleration
        let handle = try board.load(timeline: bytes)
        try board.start(player: 0, handle: handle, at: 0)
        let ticks = Int((seconds * Double(tickRate)).rounded(.down)) + 1
        let tickMicroseconds = UInt64(1_000_000 / tickRate)
        board.advance(to: UInt64(ticks - 1) * tickMicroseconds)
        var intensity = [Float](repeating: 0, count: ticks)
        var sharpness = [Float](repeating: 0, count: ticks)
        for sample in board.trace where sample.channel == 0 {
            let index = Int(sample.time / tickMicroseconds)
            guard index < ticks else { continue }
            intensity[index] = Float(sample.intensity)
            sharpness[index] = Float(sample.sharpness)
        }
        return Lanes(tickRate: Double(tickRate), intensity: intensity, sharpness: sharpness,
                     acceleration: recordsAcceleration ? board.acceleration[0] : nil)
    }
}
