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
        return lanes(of: board, seconds: seconds, tickRate: tickRate, recordsAcceleration: recordsAcceleration)
    }

    /// Ticks the board to `seconds` and reads channel 0's trace from board time 0.
    private static func lanes(
        of board: SimulatedBoard, seconds: Double, tickRate: Int, recordsAcceleration: Bool
    ) -> Lanes {
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
        return Lanes(
            tickRate: Double(tickRate), intensity: intensity, sharpness: sharpness,
            acceleration: recordsAcceleration ? board.acceleration[0] : nil)
    }

    /// Renders the pieces of a cut timeline as a host streams them (PROTOCOL.md §5.4) on a board
    /// with memory for two pieces: piece 0 on player 0 at board time 0; piece k takes over at its
    /// start tick on the other player, which stops the one before at that same instant. Piece k is
    /// loaded once piece k−2 has stopped and been freed.
    public static func render(
        segments: [TimelineSegment], seconds: Double, actuator: ActuatorModel = .lra()
    ) throws -> Lanes {
        var configuration = BoardConfiguration()
        configuration.channels = [actuator]
        configuration.timelineMemory = max(64, 2 * (segments.map(\.bytes.count).max() ?? 0))
        configuration.slotCount = 0
        let board = try SimulatedBoard(configuration)
        var handles: [UInt8] = []
        for (index, segment) in segments.enumerated() {
            let at = UInt64(segment.start) * 1000
            if index >= 1 {
                // piece index−2 stopped at the previous handoff; equal pieces share a handle
                board.advance(to: UInt64(segments[index - 1].start) * 1000)
                if index >= 2, handles[index - 2] != handles[index - 1] { try board.free(handles[index - 2]) }
                try board.stop(player: UInt8((index - 1) % 2), at: at)
            }
            handles.append(try board.load(timeline: segment.bytes))
            try board.start(player: UInt8(index % 2), handle: handles[index], at: at, position: UInt32(at))
        }
        return lanes(of: board, seconds: seconds, tickRate: 1000, recordsAcceleration: false)
    }
}
