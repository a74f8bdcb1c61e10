import Foundation
import Synchronization
import Testing
import ThrumTesting

/// The service's clients in other languages, end to end: `thrum serve` in a child process, then
/// `Tests/ServiceClients/python_client_e2e.py` (the Python client, Examples/clients/python) and
/// `Tests/ServiceClients/browser_e2e.py` (the API page, in headless Chromium through Selenium)
/// against it, once on the embedded simulator and once on `thrum sim --pty` as a serial board; and
/// `Tests/ServiceClients/studio_e2e.py`, Thrum Studio at `/`: on the embedded simulator, on a pty
/// board with two channels named left and right (the pan), and with `--watch`. The studio's
/// screenshots stay as artifacts in `THRUM_TEST_ARTIFACTS`, else `.build/test-artifacts`.
///
/// They need `.build-venv` (websockets, selenium) and Debian's chromium and chromium-driver, which
/// `scripts/ensure-deps` installs. Without them the tests are skipped, except under CI (`CI` set),
/// where they fail. They run in the wall-clock group (scripts/test-groups): the patterns play in
/// real time.
@Suite("Service clients against thrum serve (WallClock)", .serialized, .timeLimit(.minutes(5)))
struct ServiceClientsWallClockTests {
    @Test("the Python client and the page, on the embedded simulator", .enabled(if: Tools.runs, Tools.missingNote))
    func againstTheEmbeddedSimulator() async throws {
        guard Tools.ready() else { return }
        let service = try await Child.launch(Tools.thrum, ["serve", "--port", "0"], name: "thrum serve")
        try await Self.runClients(against: service, label: "sim")
    }

    @Test("the Python client and the page, on a board over a pty", .enabled(if: Tools.runs, Tools.missingNote))
    func againstAPtyBoard() async throws {
        guard Tools.ready() else { return }
        // Its keep-alive 10 s, as the other child-process tests: on a loaded machine the host's
        // keep-alive thread can miss the default 500 ms.
        let board = try await Child.launch(
            Tools.thrum, ["sim", "--pty", "--keep-alive", "10000"], name: "thrum sim --pty")
        defer { _ = board.terminate() }
        #expect(board.firstLine.hasPrefix("/dev/"), "thrum sim --pty printed \(board.firstLine)")
        let service = try await Child.launch(
            Tools.thrum, ["serve", "--port", "0", "--device", board.firstLine], name: "thrum serve --device")
        try await Self.runClients(against: service, label: "pty")
    }

    @Test("Thrum Studio in the browser, on the embedded simulator", .enabled(if: Tools.runs, Tools.missingNote))
    func theStudio() async throws {
        guard Tools.ready() else { return }
        let service = try await Child.launch(Tools.thrum, ["serve", "--port", "0"], name: "thrum serve")
        try await Self.runStudio(against: service, label: "studio", arguments: [])
    }

    @Test(
        "Thrum Studio's pan, on a board with two channels named left and right",
        .enabled(if: Tools.runs, Tools.missingNote))
    func theStudioPansBetweenTwoChannels() async throws {
        guard Tools.ready() else { return }
        let board = try await Child.launch(
            Tools.thrum, ["sim", "--pty", "--keep-alive", "10000", "--channels", "2", "--channel-names", "left,right"],
            name: "thrum sim --pty --channels 2")
        defer { _ = board.terminate() }
        #expect(board.firstLine.hasPrefix("/dev/"), "thrum sim --pty printed \(board.firstLine)")
        let service = try await Child.launch(
            Tools.thrum, ["serve", "--port", "0", "--device", board.firstLine], name: "thrum serve --device")
        try await Self.runStudio(against: service, label: "studio-pan", arguments: ["--pan"])
    }

    @Test("Thrum Studio and thrum serve --watch", .enabled(if: Tools.runs, Tools.missingNote))
    func theStudioFollowsAWatchedFile() async throws {
        guard Tools.ready() else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-watched-\(UUID()).ahap")
        try Data(contentsOf: Tools.root.appendingPathComponent("Examples/slice.ahap")).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let service = try await Child.launch(
            Tools.thrum, ["serve", "--port", "0", "--watch", file.path], name: "thrum serve --watch")
        try await Self.runStudio(against: service, label: "studio-watch", arguments: ["--watch", file.path])
    }

    /// `studio_e2e.py` against `service`, which is terminated after whatever happened. Its
    /// screenshots stay, as the test's artifacts, in `Tools.artifacts`/`label`.
    static func runStudio(against service: Child, label: String, arguments: [String]) async throws {
        var stopped = false
        defer { if !stopped { _ = service.terminate() } }
        let url = service.firstLine
        #expect(url.hasPrefix("http://127.0.0.1:"), "thrum serve printed \(url)\n\(service.errorOutput())")
        let screenshots = Tools.artifacts.appendingPathComponent(label)
        try? FileManager.default.removeItem(at: screenshots)
        let studio = try await Tools.runScript(
            "studio_e2e.py", [url, "--screenshots", screenshots.path, "--timeout", "200"] + arguments, limit: 240)
        #expect(
            studio.status == 0,
            "studio_e2e.py \(arguments) exited \(studio.status) (screenshots in \(screenshots.path)):\n\(studio.output)\nthrum serve's log:\n\(service.errorOutput())"
        )
        stopped = true
        let status = service.terminate()
        #expect(status == 0, "thrum serve exited \(status) after SIGTERM:\n\(service.errorOutput())")
    }

    /// Both scripts against `service`, which is terminated after whatever happened.
    static func runClients(against service: Child, label: String) async throws {
        var stopped = false
        defer { if !stopped { _ = service.terminate() } }
        let url = service.firstLine
        #expect(url.hasPrefix("http://127.0.0.1:"), "thrum serve printed \(url)\n\(service.errorOutput())")

        let python = try await Tools.runScript("python_client_e2e.py", [url, "--timeout", "90"], limit: 120)
        #expect(
            python.status == 0,
            "python_client_e2e.py against \(label) exited \(python.status):\n\(python.output)\nthrum serve's log:\n\(service.errorOutput())"
        )

        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-browser-e2e-\(label)-\(UUID().uuidString.prefix(8))")
        let browser = try await Tools.runScript(
            "browser_e2e.py", [url, "--screenshots", screenshots.path, "--timeout", "120"], limit: 150)
        #expect(
            browser.status == 0,
            "browser_e2e.py against \(label) exited \(browser.status) (screenshots in \(screenshots.path)):\n\(browser.output)\nthrum serve's log:\n\(service.errorOutput())"
        )
        if browser.status == 0 { try? FileManager.default.removeItem(at: screenshots) }

        stopped = true
        let status = service.terminate()
        #expect(status == 0, "thrum serve exited \(status) after SIGTERM:\n\(service.errorOutput())")
    }

    /// Where the tools are, and whether they are there.
    enum Tools {
        static let root = Repository.root
        static let python = root.appendingPathComponent(".build-venv/bin/python")
        static let scripts = root.appendingPathComponent("Tests/ServiceClients")
        static let browserTools = ["/usr/bin/chromium", "/usr/bin/chromedriver"]
        /// Where the studio's screenshots are kept: `THRUM_TEST_ARTIFACTS`, else .build/test-artifacts.
        static let artifacts =
            ProcessInfo.processInfo.environment["THRUM_TEST_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(".build/test-artifacts")

        /// The `thrum` built beside the test bundle, else the package's debug build.
        static var thrum: URL {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("thrum")
            let candidates = [beside, root.appendingPathComponent(".build/debug/thrum")]
            return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? beside
        }

        /// What is missing of the venv, its modules and the browser, or nil when all is there.
        static let missing: String? = {
            var absent = browserTools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
            if !FileManager.default.isExecutableFile(atPath: python.path) {
                absent.append(python.path)
            } else {
                let check = Process()
                check.executableURL = python
                check.arguments = ["-c", "import websockets, selenium"]
                check.standardOutput = FileHandle.nullDevice
                check.standardError = FileHandle.nullDevice
                if (try? check.run()) == nil {
                    absent.append(python.path)
                } else {
                    check.waitUntilExit()
                    if check.terminationStatus != 0 { absent.append("websockets or selenium in .build-venv") }
                }
            }
            return absent.isEmpty ? nil : absent.joined(separator: ", ")
        }()

        static let underCI = ProcessInfo.processInfo.environment["CI"] != nil
        /// Whether the tests run: when the tools are there, and always under CI, where their absence fails.
        static var runs: Bool { missing == nil || underCI }
        static var missingNote: Comment {
            Comment(rawValue: "needs \(missing ?? "nothing more"): run scripts/ensure-deps")
        }

        /// Whether everything is there; when not (under CI), records why as the test's failure.
        static func ready() -> Bool {
            if let missing {
                Issue.record("missing \(missing): scripts/ensure-deps installs them (CI must have them)")
                return false
            }
            guard FileManager.default.isExecutableFile(atPath: thrum.path) else {
                Issue.record("\(thrum.path) is not built (swift build --build-tests builds it)")
                return false
            }
            return true
        }

        /// Runs `.build-venv/bin/python Tests/ServiceClients/SCRIPT ARGS`, killed after `limit`
        /// seconds whatever it does; its exit status (-1: killed) and its stdout and stderr together.
        static func runScript(_ script: String, _ arguments: [String], limit: Double) async throws -> ScriptRun {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-\(script)-\(UUID()).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: log) }
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            let process = Process()
            process.executableURL = python
            process.arguments = ["-u", scripts.appendingPathComponent(script).path] + arguments
            process.currentDirectoryURL = root
            // No __pycache__ left in the checkout.
            process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let finished = await Child.wait(for: process, seconds: limit)
            if !finished {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard finished else { return ScriptRun(status: -1, output: output + "\n(killed after \(limit) s)") }
            return ScriptRun(status: process.terminationStatus, output: output)
        }
    }

    struct ScriptRun {
        var status: Int32
        var output: String
    }

    /// A `thrum` child process whose first stdout line is what it serves at (a URL, a pty path).
    /// Its later stdout is drained; its stderr goes to a file, shown when a test fails.
    final class Child: @unchecked Sendable {
        let process: Process
        let firstLine: String
        let name: String
        private let errorLog: URL

        private init(process: Process, firstLine: String, name: String, errorLog: URL) {
            self.process = process
            self.firstLine = firstLine
            self.name = name
            self.errorLog = errorLog
        }

        static func launch(_ executable: URL, _ arguments: [String], name: String) async throws -> Child {
            let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-child-\(UUID()).log")
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            let output = Pipe()
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorLog)
            // Everything it prints, until the first line is complete; drained to the end after.
            let received = Received()
            output.fileHandleForReading.readabilityHandler = { handle in
                let chunk = handle.availableData
                if chunk.isEmpty {
                    handle.readabilityHandler = nil
                } else {
                    received.data.withLock { $0.append(chunk) }
                }
            }
            try process.run()
            let deadline = ContinuousClock.now + .seconds(30)
            var line: String?
            while line == nil, ContinuousClock.now < deadline, process.isRunning {
                line = received.data.withLock { data in
                    data.firstIndex(of: 10).map { String(decoding: data[..<$0], as: UTF8.self) }
                }
                if line == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let child = Child(process: process, firstLine: line ?? "", name: name, errorLog: errorLog)
            guard line != nil else {
                let status = child.terminate()
                throw ChildError(
                    "\(name) printed no first line within 30 s (exit \(status)):\n\(child.errorOutput())")
            }
            return child
        }

        private final class Received: Sendable {
            let data = Mutex(Data())
        }

        /// SIGTERM, then SIGKILL after 10 s; its exit status (-1: killed).
        @discardableResult
        func terminate() -> Int32 {
            if process.isRunning {
                process.terminate()
                let deadline = Date().addingTimeInterval(10)
                while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    return -1
                }
            }
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// What it wrote to stderr (its log), the last 8,000 characters.
        func errorOutput() -> String {
            let text = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            return text.count > 8000 ? "…" + text.suffix(8000) : text
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: errorLog)
        }

        /// Whether `process` ended within `seconds`, polled without blocking a thread of the pool.
        static func wait(for process: Process, seconds: Double) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while process.isRunning, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(100))
            }
            if process.isRunning { return false }
            process.waitUntilExit()
            return true
        }
    }

    struct ChildError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
