import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import Synchronization
import Testing
import Thrum
import ThrumService
import ThrumSimulator
import ThrumTesting
import ThrumTransport

/// A service on an embedded simulated board (real time, two named channels), served in-process on
/// a free port, with WebSocket clients that talk to it as a program would.
struct ServiceHarness {
    let hub: ServiceHub
    let server: ThrumServer
    let engine: HapticEngine

    init(configuration: ServiceConfiguration = ServiceConfiguration(port: 0), channels: Int = 2) {
        var board = BoardConfiguration()
        board.channels = Array(repeating: .lra(), count: channels)
        for (index, name) in ["left", "right"].prefix(channels).enumerated() { board.channelNames[index] = name }
        self.init(engine: HapticEngine(simulating: board), configuration: configuration)
    }

    /// A service on `engine`'s board; the stage tries a lost board again every `rejoinInterval`.
    init(
        engine: HapticEngine, configuration: ServiceConfiguration = ServiceConfiguration(port: 0),
        rejoinInterval: Duration = .milliseconds(500)
    ) {
        self.engine = engine
        hub = ServiceHub(
            stage: EngineStage(engine: engine, rejoinInterval: rejoinInterval), limits: configuration.limits)
        var configuration = configuration
        configuration.port = 0
        server = ThrumServer(hub: hub, configuration: configuration)
    }

    /// Starts the board, serves, runs `body` with the HTTP test client and the port, stops it all.
    func run(_ body: @Sendable (any TestClientProtocol, Int) async throws -> Void) async throws {
        try await hub.start()
        do {
            let finished = Locked(false)
            do {
                try await server.makeApplication().test(.live) { client in
                    try await body(client, client.port!)
                    finished.withLock { $0 = true }
                }
            } catch is CancellationError where finished.withLock({ $0 }) {
                // The server's shutdown cancelled a socket still closing after the test had run to its
                // end: nothing the test checked.
            }
        } catch {
            await hub.stop()
            throw error
        }
        await hub.stop()
    }
}

/// One WebSocket client: requests that wait for their reply, and the events that arrived.
final class ServiceSocket: Sendable {
    private let outbound: WebSocketOutboundWriter
    private let inbox = Inbox()
    private let nextID = Counter()

    init(outbound: WebSocketOutboundWriter) {
        self.outbound = outbound
    }

    func deliver(_ text: String) async {
        if case .success(let value) = JSONValue.parse(Data(text.utf8)) { await inbox.deliver(value) }
    }

    /// Sends raw text.
    func send(text: String) async throws { try await outbound.write(.text(text)) }

    func send(_ message: JSONValue) async throws { try await send(text: message.encoded) }

    /// Sends a request with a fresh id and returns its reply or error message (the whole message).
    @discardableResult
    func request(_ type: String, _ fields: [String: JSONValue] = [:]) async throws -> JSONValue {
        let id = nextID.next()
        var message = fields
        message["type"] = .string(type)
        message["id"] = .int(id)
        try await send(.object(message))
        return try await next { ($0["type"] == "reply" || $0["type"] == "error") && $0["id"] == .int(id) }
    }

    /// A request's result, failing the test on an error reply.
    @discardableResult
    func result(_ type: String, _ fields: [String: JSONValue] = [:]) async throws -> JSONValue {
        let reply = try await request(type, fields)
        #expect(reply["type"] == "reply", "\(type) failed: \(reply.encoded)")
        return reply["result"] ?? .null
    }

    /// The first message (kept or arriving) that `matches`, within `seconds`.
    func next(
        within seconds: Double = 10, where matches: @escaping @Sendable (JSONValue) -> Bool
    ) async throws
        -> JSONValue
    {
        let inbox = inbox
        let id = nextID.next()
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            await inbox.expire(id)
        }
        defer { timer.cancel() }
        guard let message = await inbox.next(id: id, matches) else {
            throw HarnessError("no matching message within \(seconds) s")
        }
        return message
    }

    /// Connects to the service at `port` and runs `body` with the socket; `headers` go with the handshake.
    static func connect(
        port: Int, path: String = "/ws", headers: HTTPFields = [:],
        _ body: @escaping @Sendable (ServiceSocket) async throws -> Void
    ) async throws {
        let logger = Logger(label: "test.client")
        let finished = Locked(false)
        do {
            try await WebSocketClient.connect(
                url: "ws://localhost:\(port)\(path)",
                configuration: .init(maxFrameSize: 1 << 24, additionalHeaders: headers), logger: logger
            ) { inbound, outbound, _ in
                let socket = ServiceSocket(outbound: outbound)
                let reader = Task {
                    do {
                        for try await message in inbound.messages(maxSize: 1 << 24) {
                            if case .text(let text) = message { await socket.deliver(text) }
                        }
                    } catch {}
                }
                do {
                    try await body(socket)
                } catch {
                    // The reader's iterator must be gone before the WebSocket layer reads on.
                    reader.cancel()
                    await reader.value
                    throw error
                }
                finished.withLock { $0 = true }
                // Close, then let the reader see the service's close frame: no iterator of the inbound
                // stream outlives this handler.
                try? await outbound.close(.normalClosure, reason: nil)
                await reader.value
            }
        } catch is CancellationError where finished.withLock({ $0 }) {
            // The close handshake was cut short after the test's part had run to its end.
        }
    }
}

/// Messages that arrived, kept until a waiter takes them; waiters resume as their message arrives.
actor Inbox {
    private var kept: [JSONValue] = []
    private var waiters:
        [Int: (matches: @Sendable (JSONValue) -> Bool, continuation: CheckedContinuation<JSONValue?, Never>)] = [:]

    func deliver(_ message: JSONValue) {
        if let (id, waiter) = waiters.first(where: { $0.value.matches(message) }) {
            waiters[id] = nil
            waiter.continuation.resume(returning: message)
            return
        }
        kept.append(message)
        if kept.count > 20_000 { kept.removeFirst(kept.count - 20_000) }
    }

    func next(id: Int, _ matches: @escaping @Sendable (JSONValue) -> Bool) async -> JSONValue? {
        if let index = kept.firstIndex(where: matches) { return kept.remove(at: index) }
        return await withCheckedContinuation { continuation in waiters[id] = (matches, continuation) }
    }

    /// A waiter whose time ran out gets nil.
    func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume(returning: nil)
    }
}

final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A pattern file from Examples/.
func example(_ name: String) throws -> String {
    try String(contentsOf: Repository.url("Examples/\(name)"), encoding: .utf8)
}
