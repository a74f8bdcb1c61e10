import Foundation
import Testing
import ThrumModel
import ThrumQEMU

@testable import Thrum

/// Four DRV2605Ls behind a TCA9548A: the port built `THRUM_CHANNELS=4 THRUM_MUX=1` under QEMU, whose
/// I2C trace shows each mux select (`i2c 70 VV`) and the chip writes behind it. In the suite above,
/// so that its QEMU never runs beside the shared board's (their timing checks follow the wall clock).
extension QEMUBoardTests {
    /// The levels of every port at `instant`.
    static func levels(_ trace: ActuatorTrace, ports: Int, at instant: ContinuousClock.Instant) -> [Int] {
        (0..<ports).map { level(trace.rtpWrites(port: $0), at: instant) }
    }

    @Test(
        "four DRV2605Ls behind a TCA9548A: a pan moves a pattern from port 0 to port 3, each chip behind its own select"
    )
    func panAcrossFourMuxChannels() async throws {
        let (board, engine, _, trace) = try await Self.connect(mux: true)
        let capabilities = try #require(await engine.capabilities)
        #expect(capabilities.channels.count == 4)
        #expect(capabilities.tickRate == 1000, "four changes a tick fit the bus's millisecond")
        let boot = ActuatorTrace(file: board.actuatorLog, fromStart: true)
        #expect(await boot.wait(for: .seconds(1)) { $0.registerWrites.count > 40 })
        let resets = boot.registerWrites.filter { $0.register == 0x01 && $0.value == 0x80 }.map(\.muxControl)
        #expect(Set(resets) == [1, 2, 4, 8], "each chip its own DEV_RESET behind its select: \(resets)")
        boot.stop()

        // Full intensity for 1.6 s; the pan holds at port 0 for 0.2 s, moves to port 3 over 1 s, holds.
        let player = try await engine.makePlayer(with: Self.hold(1.6))
        let before = ContinuousClock.now
        let boardNow = await engine.currentTime
        let hostNow = before + (ContinuousClock.now - before) / 2
        let lead = 0.3
        try await player.start(atTime: boardNow + lead)
        try await player.schedulePanCurve(
            [
                HapticPanPoint(time: 0, position: 0), HapticPanPoint(time: 0.2, position: 0),
                HapticPanPoint(time: 1.2, position: 1),
            ], atTime: boardNow + lead)
        let start = hostNow + .seconds(lead)
        #expect(await QEMUHarness.poll(.seconds(5)) { ContinuousClock.now > start + .seconds(2) })
        #expect(Self.levels(trace, ports: 4, at: .now) == [0, 0, 0, 0], "silent after the pattern")
        await engine.stop()

        // In the holds (0-0.2 s, 1.2-1.6 s) one port alone sounds, whatever the timing.
        for (seconds, port) in [(0.1, 0), (1.4, 3)] {
            let levels = Self.levels(trace, ports: 4, at: start + .milliseconds(Int64(seconds * 1000)))
            #expect(levels[port] >= 120 && levels.filter { $0 != 0 }.count == 1, "\(seconds) s: \(levels)")
        }
        // Positions 0, 1/3, 2/3 and 1 are ports 0-3 alone (SEMANTICS.md §12.2): each port first at full
        // level (126 of 127: within 1.6 % of its place, so a neighbour has at most √0.016 of it, 16) in
        // turn, within `timing` plus the 10 ms it takes the pan to get there, and alone then.
        let places = [0.0, 0.2 + 1.0 / 3, 0.2 + 2.0 / 3, 1.2]
        for port in 0..<4 {
            let full = try #require(
                trace.rtpWrites(port: port).first { $0.seen > start - .milliseconds(100) && $0.signedValue >= 126 },
                "port \(port) never at full level")
            let offset = Self.seconds(full.seen - start) - places[port]
            #expect(abs(offset) <= Self.timing + 0.01, "port \(port) full \(offset * 1000) ms from its place")
            let levels = Self.levels(trace, ports: 4, at: full.seen)
            for other in 0..<4 where other != port {
                #expect(levels[other] <= 20, "port \(port) full: port \(other) at \(levels[other]) (\(levels))")
            }
        }
        let played = trace.rtpWrites.filter { $0.seen > start - .milliseconds(50) }
        #expect(played.count > 100, "\(played.count) RTP writes")
        #expect(
            played.allSatisfy { [1, 2, 4, 8].contains($0.muxControl) },
            "every level behind a select of one port: \(Set(played.map(\.muxControl)))")
        for port in 0..<4 {
            #expect(trace.rtpWrites(port: port).contains { $0.signedValue >= 120 }, "port \(port) reached full level")
        }
    }
}
