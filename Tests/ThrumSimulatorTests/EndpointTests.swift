import Foundation
import Synchronization
import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// The simulator's endpoints in real time: in-process pipe, pseudo-terminal, and `thrum sim --pty`
/// as a child process. A host speaking ThrumWire's handshake gets INFO back.
@Suite struct EndpointTests {
    /// HELLO until INFO over `transport`, on the real clock; gives up after `limit`.
    ///
    /// The limit is generous on purpose: on a 2-core machine the CPU-heavy tests that run in
    /// parallel (the differential ones) can hold both threads of the cooperative pool for many
    /// seconds, during which neither this loop nor the server gets to run at all.
    static func handshake(over transport: any ByteTransport, limit: Duration = .seconds(60)) async throws -> WireMessage
    {
        let inbox = Mutex<[UInt8]>([])
        let reader = Task {
            for try await chunk in transport.chunks { inbox.withLock { $0 += chunk } }
        }
        defer { reader.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> MonotonicInstant {
            let elapsed = start.duration(to: clock.now)
            return MonotonicInstant(
                nanoseconds: UInt64(elapsed.components.seconds) * 1_000_000_000
                    + UInt64(elapsed.components.attoseconds / 1_000_000_000))
        }
        var session = LinkSession(configuration: LinkConfiguration(role: .host))
        session.connect(at: now())
        while start.duration(to: clock.now) < limit {
            for frame in session.takeFrames() { try await transport.write(frame) }
            let bytes = inbox.withLock { bytes in
                defer { bytes.removeAll() }
                return bytes
            }
            if !bytes.isEmpty { session.receive(bytes, at: now()) }
            session.advance(to: now())
            for event in session.takeEvents() {
                if case .connected(let info) = event { return info }
            }
            try await clock.sleep(for: .milliseconds(2))
        }
        throw SimulatorError("no INFO within \(limit)")
    }

    @Test func inProcessEndpointAnswersTheHandshake() async throws {
        var configuration = BoardConfiguration()
        configuration.board = "in-process"
        let (host, server) = try SimulatorServer.inProcess(configuration: configuration)
        let serving = Task { try await server.run() }
        let info = try await Self.handshake(over: host)
        #expect(try BoardCapabilities(info: info).boardName == "in-process")
        #expect(try BoardCapabilities(info: info).tickRate == 1000)
        serving.cancel()
        try await serving.value
        await host.close()
    }

    @Test func ptyEndpointAnswersTheHandshake() async throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        var configuration = BoardConfiguration()
        configuration.channels = [.erm()]
        configuration.line = LineModel(baudRate: 115_200)
        let server = try SimulatorServer(configuration: configuration, transport: terminal.controller)
        let serving = Task { try await server.run() }
        let client = try TermiosTransport.open(path: terminal.devicePath)
        let info = try await Self.handshake(over: client)
        #expect(try BoardCapabilities(info: info).channels.first?.kind == .erm)
        await client.close()
        serving.cancel()
        try await serving.value
        await terminal.controller.close()
    }

    /// The in-process pipe the simulator serves on keeps the transport contract.
    @Test(arguments: TransportConformance.checks)
    func inProcessPipeConforms(_ check: TransportConformance.Check) async throws {
        try await check.run {
            let (host, server) = try SimulatorServer.inProcess()
            return (host, server.transport)
        }
    }

    /// `thrum sim --pty` as a child process: first line is the pty, INFO comes back, SIGTERM ends
    /// it with status 0.
    static var thrumExecutable: URL? {
        let binary = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("thrum")
        let candidates = [binary, Fixtures.packageRoot.appendingPathComponent(".build/debug/thrum")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(.enabled(if: thrumExecutable != nil, "needs the built thrum executable (swift build --product thrum)"))
    func thrumSimPtyInAChildProcess() async throws {
        let executable = try #require(Self.thrumExecutable)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["sim", "--pty", "--actuator", "lra", "--baud", "230400"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let path = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        #expect(path.hasPrefix("/dev/"), "first line: \(path)")
        let client = try TermiosTransport.open(path: path)
        let info = try await Self.handshake(over: client)
        #expect(info.type == .info)
        await client.close()
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(process.terminationReason == .exit)
    }
}
