import Foundation
import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTimeline
import ThrumTransport

@testable import Thrum

/// A board keeps its timelines across host sessions (a new HELLO resets the link, not the memory):
/// a later engine, which never uploaded them, frees them when the board says it is out of memory.
/// (Found against the QEMU board, where three `thrum play` runs filled its three timeline slots.)
@Suite("An earlier host's timelines")
struct EarlierHostTests {
    static func pattern(_ intensity: Float) -> HapticPattern {
        HapticPattern(events: (0..<40).map { .transient(at: Double($0) * 0.01, intensity: intensity, sharpness: 0.5) })
    }

    @Test("a second engine on `thrum sim --pty` frees the first one's timeline when the board is full")
    func freesForeignTimelines() async throws {
        let (first, second) = (Self.pattern(1), Self.pattern(0.5))
        let sizes = try [first, second].map { try TimelineCompiler.compile($0).count }
        // One fits, not both.
        let simulator = try SimulatorProcess.launch(["--memory", "\(sizes.max()! + 16)"])
        defer { simulator.terminate() }
        let earlier = try HapticEngine(device: DeviceAddress(parsing: simulator.devicePath))
        try await earlier.start()
        try await earlier.makePlayer(with: first).start(atTime: 0)
        await earlier.stop()
        let later = try HapticEngine(device: DeviceAddress(parsing: simulator.devicePath))
        try await later.start()
        try await later.makePlayer(with: second).start(atTime: 0)
        #expect(await later.statistics.uploads == 1)
        await later.stop()
    }
}
