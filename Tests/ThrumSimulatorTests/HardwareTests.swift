import Foundation
import Testing
import ThrumFirmwareCore
import ThrumModel
import ThrumSimulator
import ThrumTimeline

/// The simulated hardware: actuators, flash with power cuts, the C/Swift layout check.
@Suite struct HardwareTests {
    static func sustained(_ seconds: Double, intensity: Float = 1) throws -> [UInt8] {
        try TimelineCompiler.compile(
            HapticPattern(events: [
                HapticEvent(
                    .hapticContinuous, time: 0, duration: seconds,
                    parameters: [EventParameter(.hapticIntensity, intensity)])
            ]))
    }

    @Test func lraRingsUpAtResonanceAndDecaysAfter() throws {
        let lanes = try FirmwareRendering.render(
            timeline: try Self.sustained(0.3), seconds: 0.6, actuator: .lra(), recordsAcceleration: true)
        let acceleration = try #require(lanes.acceleration)
        let envelope = acceleration.envelope(window: 0.01)
        // Driven at its resonance at rated voltage: about the rated 1.5 g once rung up (overdrive
        // may push it briefly higher, the clamp keeps it bounded).
        let steady = envelope[20...28].max()!
        #expect(steady > 1.2 && steady < 2.5, "steady \(steady)")
        #expect(envelope[0] < steady, "rings up")
        // After the release the mass stops within a few time constants (Q / (pi f0) = 15 ms).
        #expect(envelope[50...].max()! < 0.05)
    }

    @Test func ermSpinsUpWithItsTimeConstant() throws {
        let model = ActuatorModel.erm(.init(timeConstant: 0.04))
        let lanes = try FirmwareRendering.render(
            timeline: try Self.sustained(0.5), seconds: 0.9, actuator: model, recordsAcceleration: true)
        let envelope = try #require(lanes.acceleration).envelope(window: 0.01)
        let steady = envelope[35...45].max()!
        #expect(steady > 0.9 && steady < 2, "steady \(steady)")
        #expect(envelope[0] < steady * 0.5, "spins up")
        #expect(envelope[80...].max()! < 0.1, "spins down")
    }

    @Test func halfIntensityShakesLessThanFull() throws {
        let full = try FirmwareRendering.render(
            timeline: try Self.sustained(0.2), seconds: 0.2, recordsAcceleration: true)
        let half = try FirmwareRendering.render(
            timeline: try Self.sustained(0.2, intensity: 0.5), seconds: 0.2, recordsAcceleration: true)
        let f = try #require(full.acceleration).envelope(window: 0.01)[15],
            h = try #require(half.acceleration).envelope(window: 0.01)[15]
        #expect(h < f * 0.75 && h > f * 0.25, "half \(h) full \(f)")
    }

    /// Power lost at every byte of a slot store: after a reboot the slot holds the old timeline
    /// or the new one, never something else.
    @Test func powerCutAtEveryByteLeavesOldOrNewSlot() throws {
        var configuration = BoardConfiguration()
        configuration.slotCount = 2
        configuration.slotSize = 512
        configuration.flashSectorSize = 256
        let old = try Self.sustained(0.1), new = try Self.sustained(0.2, intensity: 0.5)
        let board = try SimulatedBoard(configuration)
        let flash = try #require(board.flash)
        func store(_ bytes: [UInt8]) -> thr_status {
            board.withCore { core in
                bytes.withUnsafeBufferPointer { thr_slot_store_bytes(core, $0.baseAddress, UInt32($0.count), 1) }
            }
        }
        func slot() -> [UInt8]? {
            board.withCore { core in
                var out = [UInt8](repeating: 0, count: 512)
                var length = UInt32(out.count)
                let status = out.withUnsafeMutableBufferPointer { thr_slot_read(core, 1, 0, $0.baseAddress, &length) }
                return status == THR_STATUS_OK ? Array(out[0..<Int(length)]) : nil
            }
        }
        #expect(store(old) == THR_STATUS_OK)
        let before = flash.bytesProgrammed
        #expect(store(new) == THR_STATUS_OK)
        let cost = flash.bytesProgrammed - before
        #expect(cost > new.count)
        // Back to the old content, then cut at every byte of the new store.
        #expect(store(old) == THR_STATUS_OK)
        var sawOld = false, sawNew = false
        for cut in stride(from: 0, through: cost, by: 1) {
            flash.cutPower(afterBytes: cut)
            _ = store(new)
            try board.reboot()
            let content = slot()
            #expect(
                content == old || content == new,
                "cut after \(cut) bytes: slot holds \(content.map { "\($0.count) bytes" } ?? "nothing")")
            if content == old { sawOld = true } else if content == new { sawNew = true }
            if content == new { #expect(store(old) == THR_STATUS_OK) }
        }
        #expect(sawOld && sawNew)
    }

    @Test func badConfigurationsAreRefusedByName() {
        var configuration = BoardConfiguration()
        configuration.tickRate = 700
        configuration.channels = []
        #expect(throws: SimulatorError.self) { try SimulatedBoard(configuration) }
        let problems = configuration.problems()
        #expect(problems.contains { $0.hasPrefix("tickRate 700") })
        #expect(problems.contains { $0.hasPrefix("channels: 0") })
        configuration = BoardConfiguration()
        configuration.channels = [.lra(.init(resonantFrequency: .nan))]
        #expect(configuration.problems().contains { $0.contains("channels[0]: resonantFrequency") })
    }

    @Test func flashFileKeepsSlotsAcrossBoards() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-sim-flash-\(UInt32.random(in: 0...UInt32.max)).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = BoardConfiguration()
        configuration.slotCount = 1
        let bytes = try Self.sustained(0.1)
        do {
            let board = try SimulatedBoard(
                configuration,
                flash: SimulatedFlash(
                    size: configuration.flashSize, sectorSize: configuration.flashSectorSize, file: file))
            let status = board.withCore { core in
                bytes.withUnsafeBufferPointer { thr_slot_store_bytes(core, $0.baseAddress, UInt32($0.count), 0) }
            }
            #expect(status == THR_STATUS_OK)
        }
        let board = try SimulatedBoard(
            configuration,
            flash: SimulatedFlash(size: configuration.flashSize, sectorSize: configuration.flashSectorSize, file: file))
        var length: UInt32 = 512
        var out = [UInt8](repeating: 0, count: 512)
        let status = board.withCore { core in
            out.withUnsafeMutableBufferPointer { thr_slot_read(core, 0, 0, $0.baseAddress, &length) }
        }
        #expect(status == THR_STATUS_OK)
        #expect(Array(out[0..<Int(length)]) == bytes)
    }
}
