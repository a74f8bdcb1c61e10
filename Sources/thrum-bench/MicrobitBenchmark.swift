import Foundation
import ThrumQEMU

/// `thrum-bench qemu --board microbit`: the nRF51 port (the 16 KB budget build on a Cortex-M0)
/// under QEMU's `microbit` machine.
/// - instructions per 1 ms tick with 16 events sounding (`make qemu-bench`'s image under
///   `-icount shift=0`, counted by TIMER1 at 16 MHz: 62.5 instructions a count; target 4,000, a
///   quarter of a 16 MHz millisecond, goal 1,600), all ramping (no target), and the split into a cost
///   per event and a fixed one;
/// - flash and static RAM of the board image and the QEMU image (`arm-none-eabi-size -A`; the chip
///   has 256 KB of flash, of which the image may take 192 KB, and 16 KB of RAM, of which the 2 KB
///   stack takes its share);
/// - PLAYER_START to the first RTP write in the semihosting trace (as the STM32F4's, 20 starts).
struct MicrobitBench {
    func run() async throws -> [Metric] {
        var metrics: [Metric] = []
        metrics += try await tickInstructions()
        metrics += try await imageSizes()
        metrics += try await QEMUBench().startLatency(.microbit, prefix: "qemu.microbit")
        return metrics
    }

    func tickInstructions() async throws -> [Metric] {
        let image = try await QEMUFirmware.ensureImage(.microbit, bench: true)
        let figures = try await QEMUBench.benchFigures(
            image: image, prefix: "qemu_microbit_tick_instructions", port: .microbit)
        func figure(_ name: String) throws -> (max: Double, mean: Double) {
            guard let value = figures[name] else { throw QEMUBoardError("no METRIC line \(name) from the bench image") }
            return value
        }
        let sixteen = try figure("16_events")
        return [
            Metric(
                name: "qemu.microbit.tick_instructions_16_events_max.goal_1600", value: sixteen.max,
                unit: "instructions", goal: .atMost(4000)),
            Metric(
                name: "qemu.microbit.tick_instructions_16_events_mean", value: sixteen.mean, unit: "instructions",
                goal: .atMost(4000)),
            Metric(
                name: "qemu.microbit.tick_instructions_16_events_ramping_max",
                value: try figure("16_events_ramping").max,
                unit: "instructions", goal: .none),
            Metric(
                name: "qemu.microbit.tick_instructions_per_event", value: try figure("per_event").mean,
                unit: "instructions", goal: .none),
            Metric(
                name: "qemu.microbit.tick_instructions_fixed", value: try figure("fixed").mean, unit: "instructions",
                goal: .none),
        ]
    }

    /// The board image (`make`) and the QEMU image: flash against the 192 KB below the slot region,
    /// static RAM against 16 KB less the 2 KB stack.
    func imageSizes() async throws -> [Metric] {
        let board = try await QEMUFirmware.size(of: QEMUFirmware.make(.microbit, [], image: "build/thrum-microbit.elf"))
        let qemu = try await QEMUFirmware.size(of: QEMUFirmware.ensureImage(.microbit))
        return [
            Metric(
                name: "qemu.microbit.board_image_flash", value: Double(board.flash), unit: "bytes",
                goal: .atMost(196608)),
            Metric(
                name: "qemu.microbit.board_image_static_ram", value: Double(board.ram), unit: "bytes",
                goal: .atMost(14336)),
            Metric(name: "qemu.microbit.qemu_image_flash", value: Double(qemu.flash), unit: "bytes", goal: .none),
            Metric(
                name: "qemu.microbit.qemu_image_static_ram", value: Double(qemu.ram), unit: "bytes",
                goal: .atMost(14336)),
        ]
    }
}
