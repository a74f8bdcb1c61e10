import ArgumentParser
import Foundation
import ThrumSimulator
import ThrumTransport

/// `thrum sim --pty [--actuator lra|erm] [--baud N] [--memory BYTES] [--keep-alive MS]`
struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated Thrum board (the reference firmware core) on a pseudo-terminal.",
        discussion: """
            Prints the pseudo-terminal's path as the first line, then serves the board until SIGINT or \
            SIGTERM. Open the path like a serial port (any baud rate). --baud emulates a UART's byte time; \
            without it the line behaves like USB CDC (1 ms frames and latency).
            """
    )

    enum Actuator: String, ExpressibleByArgument, CaseIterable {
        case lra, erm
    }

    @Flag(help: "Serve on a new pseudo-terminal (the only endpoint `thrum sim` offers).")
    var pty = false

    @Option(help: "The actuator of the board's one channel: lra or erm.")
    var actuator: Actuator = .lra

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
        guard pty else { throw ValidationError("thrum sim needs --pty (the only endpoint it offers)") }
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

    func run() throws {
        var board = BoardConfiguration()
        board.channels = [actuator == .lra ? .lra() : .erm()]
        board.line = baud.map { LineModel(baudRate: $0) } ?? .usb
        board.timelineMemory = memory
        board.keepAliveMilliseconds = keepAlive
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
}
