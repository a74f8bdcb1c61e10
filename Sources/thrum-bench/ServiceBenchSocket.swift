import Foundation
import HummingbirdWSClient
import Logging
import ThrumService
import ThrumTransport

/// A client of the service for the benchmark: requests answered by id, errors and events counted,
/// real-time values sent without waiting. Runs `body` while connected.
final class ServiceBenchSocket: Sendable {
    private let outbound: WebSocketOutboundWriter
    private let waiting = Locked([Int: CheckedContinuation<JSONValue, Never>]())
    private let nextID = Locked(0)
    /// Error messages and events received.
    let errors = Locked(0)
    let events = Locked([String: Int]())
    private let lastEvent = Locked([String: JSONValue]())

    private init(outbound: WebSocketOutboundWriter) { self.outbound = outbound }

    /// A request's whole answer (reply or error).
    func request(_ type: String, _ fields: [String: JSONValue] = [:]) async -> JSONValue {
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        var message = fields
        message["type"] = .string(type)
        message["id"] = .int(id)
        let text = JSONValue.object(message).encoded
        // Registered before it is sent, so that no reply can come before its waiter.
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0[id] = continuation }
            Task {
                do { try await outbound.write(.text(text)) } catch {
                    waiting.withLock { $0.removeValue(forKey: id) }?.resume(returning: .null)
                }
            }
        }
    }

    /// A request's result; throws on an error reply.
    @discardableResult
    func result(_ type: String, _ fields: [String: JSONValue] = [:]) async throws -> JSONValue {
        let reply = await request(type, fields)
        guard reply["type"] == "reply", let result = reply["result"] else {
            throw BenchFailure("\(type) failed: \(reply.encoded)")
        }
        return result
    }

    /// Sends without an id: no reply unless it fails.
    func send(_ message: JSONValue) async throws { try await outbound.write(.text(message.encoded)) }

    func count(_ event: String) -> Int { events.withLock { $0[event] ?? 0 } }
    func last(_ event: String) -> JSONValue? { lastEvent.withLock { $0[event] } }

    private func receive(_ text: String) {
        guard case .success(let message) = JSONValue.parse(Data(text.utf8)) else { return }
        if let id = message["id"]?.intValue, message["type"] == "reply" || message["type"] == "error",
            let waiter = waiting.withLock({ $0.removeValue(forKey: id) })
        {
            if message["type"] == "error" { errors.withLock { $0 += 1 } }
            waiter.resume(returning: message)
            return
        }
        if message["type"] == "error" { errors.withLock { $0 += 1 } }
        if let name = message["event"]?.stringValue {
            events.withLock { $0[name, default: 0] += 1 }
            lastEvent.withLock { $0[name] = message }
        }
    }

    static func connect(port: Int, _ body: @escaping @Sendable (ServiceBenchSocket) async throws -> Void) async throws {
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/ws", configuration: .init(maxFrameSize: 1 << 24),
            logger: Logger(label: "thrum-bench.service")
        ) { inbound, outbound, _ in
            let socket = ServiceBenchSocket(outbound: outbound)
            let reader = Task {
                do {
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { socket.receive(text) }
                    }
                } catch {}
            }
            do {
                try await body(socket)
            } catch {
                reader.cancel()
                await reader.value
                throw error
            }
            try? await outbound.close(.normalClosure, reason: nil)
            await reader.value
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
