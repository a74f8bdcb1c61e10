import Foundation
import Subprocess
import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A firmware port running under QEMU (``QEMUPort``: the STM32F4 port on `netduinoplus2`, the
/// micro:bit port on `microbit`): the host link on a pseudo-terminal, the text trace (`i2c 5a RR VV`,
/// `boot epoch N`; `tick max N` on the STM32F4, `stack max N` on the micro:bit) into a file. One
/// `qemu-system-arm` process, launched and supervised with swift-subprocess.
///
/// QEMU's pty passes no bytes until it notices that a host opened it (it looks once a second), so
/// a host repeats HELLO (the engine does, every 250 ms for 10 s). What the guest writes before the
/// host opens the pty is lost; the board speaks only when spoken to, so nothing of the link is.
public final class QEMUBoard: Sendable {
    /// The port and machine QEMU runs.
    public let port: QEMUPort
    /// The pseudo-terminal of the board's link (`/dev/pts/N`).
    public let devicePath: String
    /// The file receiving the trace lines.
    public let actuatorLog: URL
    /// QEMU's process id.
    public let processIdentifier: Int32
    /// The command line QEMU was started with.
    public let commandLine: [String]
    private let supervision: Task<QEMUExit, Never>
    private let state: Locked<State>

    private struct State {
        var exited = false
        var terminationRequested = false
    }

    private init(
        port: QEMUPort, devicePath: String, actuatorLog: URL, processIdentifier: Int32, commandLine: [String],
        supervision: Task<QEMUExit, Never>, state: Locked<State>
    ) {
        self.port = port
        self.devicePath = devicePath
        self.actuatorLog = actuatorLog
        self.processIdentifier = processIdentifier
        self.commandLine = commandLine
        self.supervision = supervision
        self.state = state
    }

    /// Starts QEMU running `port`'s image and returns once it has said which pseudo-terminal the
    /// link is on (within `timeout`). `qemu`: the executable (default: `qemu-system-arm` on `PATH`).
    /// The actuator log is truncated first.
    public static func launch(
        port: QEMUPort = .stm32f4, firmware: URL, actuatorLog: URL, qemu: String? = nil,
        extraArguments: [String] = [], timeout: Duration = .seconds(20)
    ) async throws -> QEMUBoard {
        guard let executable = qemu ?? QEMUTools.find("qemu-system-arm") else {
            throw QEMUBoardError(QEMUTools.missingQEMUAdvice)
        }
        guard FileManager.default.fileExists(atPath: firmware.path) else {
            throw QEMUBoardError("no firmware image at \(firmware.path) (\(QEMUFirmware.buildAdvice(port)))")
        }
        _ = FileManager.default.createFile(atPath: actuatorLog.path, contents: nil)
        let arguments = port.arguments(firmware: firmware, traceFile: actuatorLog, extra: extraArguments)
        let state = Locked(State())
        let (started, startedContinuation) = AsyncStream<Started>.makeStream()
        let supervision = Task<QEMUExit, Never>.detached {
            do {
                // A process group of its own: a terminal's Ctrl-C reaches the supervisor, which stops QEMU.
                var options = PlatformOptions()
                options.processGroupID = 0
                let result = try await Subprocess.run(
                    .path(.init(executable)), arguments: Arguments(arguments), platformOptions: options, input: .none,
                    output: .sequence, error: .sequence
                ) { execution -> String in
                    try await withThrowingTaskGroup(of: String.self) { group in
                        group.addTask {
                            var announced = false
                            for try await line in execution.standardOutput.strings() {
                                if !announced, let path = Self.ptyPath(inQEMUOutput: line, label: port.linkLabel) {
                                    announced = true
                                    startedContinuation.yield(.pty(path, execution.processIdentifier.value))
                                }
                            }
                            return ""
                        }
                        group.addTask {
                            var text = ""
                            for try await line in execution.standardError.strings() where text.utf8.count < 16_384 {
                                text += line + "\n"
                            }
                            return text
                        }
                        var errors = ""
                        for try await text in group { errors += text }
                        return errors
                    }
                }
                state.withLock { $0.exited = true }
                let exit = QEMUExit(status: result.terminationStatus, standardError: result.closureResult)
                startedContinuation.yield(.ended(exit))
                startedContinuation.finish()
                return exit
            } catch {
                state.withLock { $0.exited = true }
                let exit = QEMUExit(status: nil, standardError: "cannot run \(executable): \(error)")
                startedContinuation.yield(.ended(exit))
                startedContinuation.finish()
                return exit
            }
        }
        let watchdog = Task {
            try? await Task.sleep(for: timeout)
            startedContinuation.yield(.timedOut)
        }
        defer { watchdog.cancel() }
        for await event in started {
            switch event {
            case .pty(let path, let pid):
                return QEMUBoard(
                    port: port, devicePath: path, actuatorLog: actuatorLog, processIdentifier: pid,
                    commandLine: [executable] + arguments, supervision: supervision, state: state)
            case .ended(let exit):
                throw QEMUBoardError("QEMU ended before offering its pty: \(exit)")
            case .timedOut:
                supervision.cancel()
                throw QEMUBoardError("QEMU did not name its pty within \(timeout)")
            }
        }
        throw QEMUBoardError("QEMU ended before offering its pty")
    }

    private enum Started: Sendable {
        case pty(String, Int32)
        case ended(QEMUExit)
        case timedOut
    }

    /// `/dev/pts/N` from QEMU's `char device redirected to /dev/pts/N (label serial1)`, for the
    /// serial port labelled `label`.
    static func ptyPath(inQEMUOutput line: String, label: String) -> String? {
        guard line.contains("char device redirected to"), line.contains("(label \(label))") else { return nil }
        let words = line.split(separator: " ")
        return words.first { $0.hasPrefix("/dev/") }.map(String.init)
    }

    /// Whether QEMU is still running.
    public var isRunning: Bool { !state.withLock { $0.exited } }

    /// Waits until QEMU exits, and how.
    public func waitForExit() async -> QEMUExit { await supervision.value }

    /// Stops QEMU (SIGTERM, then SIGKILL after `grace`) and waits for it to end.
    @discardableResult
    public func terminate(grace: Duration = .seconds(3)) async -> QEMUExit {
        signal(SIGTERM)
        let killer = Task {
            try await Task.sleep(for: grace)
            self.signal(SIGKILL)
        }
        let exit = await supervision.value
        killer.cancel()
        return exit
    }

    /// Sends `number` to QEMU while it runs (never to a reaped process id).
    public func signal(_ number: Int32) {
        state.withLock { state in
            guard !state.exited else { return }
            state.terminationRequested = true
            _ = kill(processIdentifier, number)
        }
    }
}

/// How QEMU ended.
public struct QEMUExit: Sendable, CustomStringConvertible {
    /// nil when it could not be run at all.
    public var status: TerminationStatus?
    /// What it printed on stderr (at most about 16 KB).
    public var standardError: String

    public var description: String {
        let how: String
        switch status {
        case .exited(let code)?: how = "exit status \(code)"
        case .signaled(let signal)?: how = "signal \(signal)"
        case nil: how = "not started"
        }
        let text = standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? how : "\(how): \(text)"
    }

    /// The exit code a command reports for this end (128 + signal for a signal).
    public var exitCode: Int32 {
        switch status {
        case .exited(let code)?: return code
        case .signaled(let signal)?: return 128 + signal
        case nil: return 127
        }
    }
}

public struct QEMUBoardError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
