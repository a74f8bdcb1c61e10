import Foundation
import ThrumQEMU
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

#if canImport(Glibc)
import Glibc
#endif

/// The QEMU boards the suite shares (one boot per port for every test), the engines on them, and
/// waiting on conditions with deadlines.
enum QEMUHarness {
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
    /// What is missing to boot the board (advice lines).
    static let missing = QEMUTools.missing(needCompiler: true)
    /// Whether the tests run: always under CI (where a missing tool fails them), else when
    /// qemu-system-arm and arm-none-eabi-gcc are there.
    static var runs: Bool {
        if !missing.isEmpty, !isCI {
            print("QEMU board tests skipped: \(missing.joined(separator: "; "))")
        }
        return missing.isEmpty || isCI
    }

    private static let shared = SharedBoard()

    /// The suite's board of `port`, booted on first use (the image made up to date with make first);
    /// with `channels`, the image built with them (the STM32F4's four DRV2605Ls behind a TCA9548A).
    static func board(_ port: QEMUPort, channels: QEMUFirmware.Channels = .single) async throws -> QEMUBoard {
        try await shared.board(Image(port: port, channels: channels))
    }

    /// The port's QEMU image, made up to date once per test process (concurrent makes in one build
    /// folder would race).
    static func image(_ port: QEMUPort) async throws -> URL {
        try await shared.image(Image(port: port, channels: .single))
    }

    /// One of the images the tests boot: a port, built with its channels.
    struct Image: Hashable {
        var port: QEMUPort
        var channels: QEMUFirmware.Channels
    }

    /// The images and boards of the test process. An actor's `await` lets other calls in, so each
    /// make and each launch is kept as a task that later callers wait for: two tests asking at once
    /// get the same image and board, and makes run one at a time (two in one port folder raced and
    /// left an empty image).
    actor SharedBoard {
        private var launches: [Image: Task<QEMUBoard, any Error>] = [:]
        private var builds: [Image: Task<URL, any Error>] = [:]
        private var lastBuild: Task<URL, any Error>?

        func image(_ wanted: Image) async throws -> URL {
            if let build = builds[wanted] { return try await build.value }
            if !QEMUHarness.missing.isEmpty {
                throw QEMUBoardError("cannot boot the QEMU board: \(QEMUHarness.missing.joined(separator: "; "))")
            }
            let previous = lastBuild
            let build = Task {
                _ = try? await previous?.value
                return try await QEMUFirmware.ensureImage(wanted.port, channels: wanted.channels)
            }
            builds[wanted] = build
            lastBuild = build
            return try await build.value
        }

        func board(_ wanted: Image) async throws -> QEMUBoard {
            if let launch = launches[wanted], let board = try? await launch.value, board.isRunning { return board }
            let launch = Task {
                let image = try await image(wanted)
                let log = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "thrum-qemu-tests-\(getpid())-\(wanted.port)\(wanted.channels.mux ? "-mux\(wanted.channels.count)" : "")-actuator.log"
                )
                let board = try await QEMUBoard.launch(port: wanted.port, firmware: image, actuatorLog: log)
                QEMUHarness.killAtExit(board.processIdentifier)
                return board
            }
            launches[wanted] = launch
            return try await launch.value
        }
    }

    /// QEMU is killed when the test process exits (the suite shares one board and never stops it).
    static func killAtExit(_ pid: Int32) {
        children.withLock { $0.append(pid) }
        atexit {
            for pid in QEMUHarness.children.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }
    static let children = Locked<[Int32]>([])
    private static let lines = Locked<[TappedLine]>([])

    /// An engine on the board's pty through a transport the test can write raw bytes into or mute.
    /// The lines of earlier tests are closed first: an engine's `stop()` keeps its transport open,
    /// and a second reader on the pty would take the board's bytes.
    static func engine(_ board: QEMUBoard) async -> (HapticEngine, TappedLine) {
        for earlier in lines.withLock({ lines in
            defer { lines.removeAll() }
            return lines
        }) { await earlier.close() }
        let line = TappedLine(path: board.devicePath)
        lines.withLock { $0.append(line) }
        let engine = HapticEngine(
            device: .path(board.devicePath), clock: SystemEngineClock(), simulator: BoardConfiguration(),
            open: { (try line.open(), nil) })
        return (engine, line)
    }

    /// Polls `condition` until it holds or `timeout` passes.
    static func poll(_ timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return try await condition()
    }

    /// Runs `body`, failing with `TimedOut` after `timeout`.
    static func within<T: Sendable>(
        _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else { throw TimedOut(what: what, timeout: timeout) }
            return value
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        var what: String
        var timeout: Duration
        var description: String { "\(what): no result within \(timeout)" }
    }
}

/// The host's end of the pty (termios), with a test's hands on it: raw bytes written past the
/// engine (garbage, the stall text) and a mute that swallows everything the engine writes (the
/// host vanishing without closing the port).
final class TappedLine: ByteTransport, @unchecked Sendable {
    let path: String
    private let current = Locked<TermiosTransport?>(nil)
    private let muted = Locked(false)

    init(path: String) { self.path = path }

    /// A new termios transport on the pty (the engine opens one for each session).
    func open() throws -> TappedLine {
        let transport = try TermiosTransport.open(path: path)
        if let previous = current.withLock({ current in
            defer { current = transport }
            return current
        }) {
            Task { await previous.close() }
        }
        return self
    }

    var name: String { path }

    func read() async throws -> [UInt8] {
        guard let transport = current.withLock({ $0 }) else { throw TransportError(.closed, device: path) }
        return try await transport.read()
    }

    func write(_ bytes: [UInt8]) async throws {
        if muted.withLock({ $0 }) { return }
        guard let transport = current.withLock({ $0 }) else { throw TransportError(.closed, device: path) }
        try await transport.write(bytes)
    }

    func close() async { await current.withLock { $0 }?.close() }

    /// Writes `bytes` on the line as they are (not framed).
    func inject(_ bytes: [UInt8]) async throws {
        guard let transport = current.withLock({ $0 }) else { throw TransportError(.closed, device: path) }
        try await transport.write(bytes)
    }

    func setMuted(_ value: Bool) { muted.withLock { $0 = value } }
}
