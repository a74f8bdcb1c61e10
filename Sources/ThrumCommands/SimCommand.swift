import ArgumentParser
import Foundation
import ThrumQEMU
import ThrumSimulator
import ThrumTransport

/// `thrum sim --pty [--actuator lra|erm] [--channels N] [--channel-names A,B] [--clock-ppm PPM]
/// [--baud N] [--jitter-us US] [--memory BYTES] [--keep-alive MS]`, or
/// `thrum sim --qemu [--board stm32f4|microbit] [--firmware ELF] [--actuator-log PATH]`
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated Thrum board (the reference firmware core) on a pseudo-terminal.",
        discussion: """
            Prints the pseudo-terminal's path as the first line, then serves the board until SIGINT or \
            SIGTERM. Open the path like a serial port (any baud rate). --baud emulates a UART's byte time; \
            without it the line behaves like USB CDC (1 ms frames and latency). --jitter-us adds a random \
            latency to each delivery (bytes keep their order).

            Several simulators on one machine make a multi-board rig: give each its channels \
            (--channels, --channel-names) and a crystal that is off (--clock-ppm, e.g. --clock-ppm -40: the \
            board's microsecond clock runs 40 ppm slow against the host's). Stderr names the channels and \
            the crystal.

            --qemu boots a firmware port under qemu-system-arm instead (`make QEMU=1` in its folder, built if \
            missing): --board stm32f4 (the default: Firmware-ref/ports/stm32f4 on netduinoplus2) or --board \
            microbit (Firmware-ref/ports/nrf51-microbit, the 16 KB budget build on a Cortex-M0, on QEMU's \
            microbit). The first line is the board link's pseudo-terminal; the trace lines (`i2c 5a RR VV` \
            for each DRV2605L register write, `boot epoch N`, and on the STM32F4 `tick max N`; USART1 there, \
            semihosting on the micro:bit) go to the --actuator-log file. QEMU is stopped on SIGINT or \
            SIGTERM; if it dies, its exit status is reported and thrum exits with it.
            """
    )

    @Flag(help: "Serve the simulated board on a new pseudo-terminal.")
    var pty = false

    @Flag(help: "Boot a firmware port under qemu-system-arm (--board); its link is a pseudo-terminal.")
    var qemu = false

    @Option(
        name: .customLong("board"),
        help: ArgumentHelp(
            "With --qemu: stm32f4 (netduinoplus2, the default) or microbit (the nRF51 port).", valueName: "board"))
    var qemuBoard: QEMUPort?

    @Option(
        help: ArgumentHelp(
            "With --qemu: the firmware image (default: the port's QEMU image, built with make).",
            valueName: "elf"))
    var firmware: String?

    @Option(
        name: .customLong("actuator-log"),
        help: ArgumentHelp(
            "With --qemu: the file receiving the trace lines (default: a temporary file, named on stderr).",
            valueName: "path"))
    var actuatorLog: String?

    @OptionGroup var board: SimBoardOptions

    @Option(help: "Emulated line rate in baud (10 bits a byte); omit for a USB-like line.")
    var baud: Int?

    @Option(help: "Keep the flash slots in this file across runs.")
    var flash: String?

    @Option(
        help: ArgumentHelp(
            "Bytes of timeline memory (64 to 16 MiB); a pattern larger than this plays streamed.", valueName: "bytes"))
    var memory: Int = BoardConfiguration().timelineMemory

    @Option(
        name: .customLong("keep-alive"),
        help: ArgumentHelp(
            "How long the board plays on when the host goes silent, in ms (1 to 65535).", valueName: "ms"))
    var keepAlive: Int = BoardConfiguration().keepAliveMilliseconds

    func validate() throws {
        guard pty != qemu else { throw ValidationError("thrum sim needs one of --pty and --qemu") }
        if !qemu, firmware != nil || actuatorLog != nil || qemuBoard != nil {
            throw ValidationError("--board, --firmware and --actuator-log go with --qemu")
        }
        if qemu, baud != nil || flash != nil {
            throw ValidationError("--baud and --flash go with --pty (the QEMU board's line and flash are its own)")
        }
        if qemu, let option = board.given.first {
            throw ValidationError("\(option) goes with --pty (the QEMU board is the port's own)")
        }
        if let baud, !LineModel.baudRates.contains(baud) {
            throw ValidationError("--baud \(baud): must be \(LineModel.baudRates)")
        }
        if !(64...(16 << 20)).contains(memory) {
            throw ValidationError("--memory \(memory): must be 64 bytes to 16 MiB")
        }
        if !(1...65535).contains(keepAlive) {
            throw ValidationError("--keep-alive \(keepAlive): must be 1 to 65535 ms")
        }
    }

    /// The board `--pty` serves.
    var boardConfiguration: BoardConfiguration {
        var configuration = BoardConfiguration()
        configuration.line = baud.map { LineModel(baudRate: $0) } ?? .usb
        configuration.timelineMemory = memory
        configuration.keepAliveMilliseconds = keepAlive
        board.apply(to: &configuration)
        return configuration
    }

    func run() throws {
        if qemu { return try runQEMU() }
        let board = boardConfiguration
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        } catch {
            throw failure("cannot open a pseudo-terminal: \(error)")
        }
        let server: SimulatorServer
        do {
            server = try SimulatorServer(
                configuration: board, transport: terminal.controller, flashFile: flash.map { URL(fileURLWithPath: $0) })
        } catch {
            throw failure("\(error)")
        }
        Console.current.line(terminal.devicePath)
        SimBanner.lines(for: board).forEach(Console.current.error)

        let stop = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let signals = TerminationSignals { stop.signal() }
        let console = Console.current
        let task = Task.detached {
            do { try await server.run() } catch { console.error("thrum: simulator: \(error)") }
            stop.signal()
            finished.signal()
        }
        stop.wait()
        task.cancel()
        finished.wait()
        signals.release()
        let controller = terminal.controller
        let closed = DispatchSemaphore(value: 0)
        Task.detached {
            await controller.close()
            closed.signal()
        }
        closed.wait()
        console.error("thrum sim: stopped")
    }

    /// `--qemu`: launches QEMU, prints the link's pty, supervises it until a signal or its end.
    func runQEMU() throws {
        let console = Console.current
        let port = qemuBoard ?? .stm32f4
        if let missing = QEMUTools.missing(needCompiler: false).first { throw failure(missing) }
        let log =
            actuatorLog.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "thrum-qemu-\(ProcessInfo.processInfo.processIdentifier)-actuator.log")
        let firmware = self.firmware
        let launched = Blocking<Result<QEMUBoard, any Error>>()
        Task.detached {
            do {
                let image: URL
                if let firmware {
                    image = URL(fileURLWithPath: firmware)
                } else {
                    image = try await QEMUFirmware.ensureImage(port)
                }
                launched.put(.success(try await QEMUBoard.launch(port: port, firmware: image, actuatorLog: log)))
            } catch {
                launched.put(.failure(error))
            }
        }
        let board: QEMUBoard
        switch launched.take() {
        case .success(let value): board = value
        case .failure(let error): throw failure("\(error)")
        }
        console.line(board.devicePath)
        console.error(
            "thrum sim: QEMU (pid \(board.processIdentifier)) runs \(board.commandLine.joined(separator: " "))")
        console.error("thrum sim: the trace lines (\(port.traceChannel)) go to \(log.path)")

        let ended = Blocking<QEMUExit?>()
        let signals = TerminationSignals { ended.put(nil) }
        Task.detached { ended.put(await board.waitForExit()) }
        let outcome = ended.take()
        signals.release()
        if let exit = outcome {
            console.error("thrum sim: QEMU exited unexpectedly (\(exit))")
            throw ExitCode(exit.exitCode == 0 ? 1 : exit.exitCode)
        }
        let stopped = Blocking<QEMUExit>()
        Task.detached { stopped.put(await board.terminate()) }
        console.error("thrum sim: stopped QEMU (\(stopped.take()))")
    }
}

extension QEMUPort: ExpressibleByArgument {}

/// One value handed from a task to a thread that waits for it (the first one put wins).
private final class Blocking<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func put(_ newValue: Value) {
        condition.lock()
        if value == nil { value = newValue }
        condition.signal()
        condition.unlock()
    }

    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
