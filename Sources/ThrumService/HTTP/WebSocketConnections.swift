import Foundation
import HummingbirdWebSocket
import NIOCore

/// One WebSocket per client (Protocol/SERVICE.md §3): reads its messages, answers each request in
/// order, puts real-time values in the client's mailbox (they overtake requests still running),
/// and writes replies and events back. When the socket closes, the client's players stop.
struct WebSocketConnections: Sendable {
    let hub: ServiceHub
    let limits: ServiceLimits

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        guard let client = await hub.connect() else {
            try await outbound.close(.unexpectedServerError, reason: "the service has as many clients as it takes")
            return
        }
        let (requests, queue) = AsyncStream.makeStream(of: ServiceRequest.self, bufferingPolicy: .unbounded)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in client.outbound {
                    do { try await outbound.write(.text(text)) } catch { break }
                }
            }
            group.addTask { await client.runRealtime() }
            group.addTask {
                // Requests one at a time, in the order sent.
                for await request in requests { await answer(request, client) }
            }
            do {
                for try await message in inbound.messages(maxSize: limits.maxFrameBytes) {
                    if let request = read(message, client) { queue.yield(request) }
                }
            } catch {
                // The socket closed mid-message or broke: the client is gone all the same.
            }
            queue.finish()
            await hub.disconnect(client)
        }
    }

    /// A message as a request to queue; nil when it was answered here (an error, or real-time).
    private func read(_ message: WebSocketMessage, _ client: ClientConnection) -> ServiceRequest? {
        guard case .text(let text) = message else {
            client.send(
                ServiceMessages.error(
                    ServiceError(.badJSON, "binary messages are not part of the protocol: send JSON text"), id: nil,
                    request: nil))
            return nil
        }
        let size = text.utf8.count
        guard size <= limits.maxMessageBytes else {
            client.send(
                ServiceMessages.error(
                    ServiceError(
                        .tooLarge, "the message is \(size) bytes; the service takes at most \(limits.maxMessageBytes)",
                        details: ["limit": .int(limits.maxMessageBytes), "size": .int(size)]), id: nil, request: nil))
            return nil
        }
        let request: ServiceRequest
        switch ServiceRequest.parse(text) {
        case .success(let parsed): request = parsed
        case .failure(let unreadable):
            client.send(ServiceMessages.error(unreadable.error, id: unreadable.id, request: nil))
            return nil
        }
        if ParameterFields.isRealtime(request) {
            realtime(request, client)
            return nil
        }
        guard client.admitRequest() else {
            client.send(
                ServiceMessages.error(
                    ServiceError(
                        .rateLimited,
                        "more than \(Int(limits.requestsPerSecond)) requests a second: slow down (real-time parameters are not limited, they merge)"
                    ),
                    id: request.id, request: request.type))
            return nil
        }
        return request
    }

    /// Parameters or a pan with no time: into the mailbox, newest wins (§7).
    private func realtime(_ request: ServiceRequest, _ client: ClientConnection) {
        do throws(ServiceError) {
            let player = try request.int("player")
            guard client.owns(player) else {
                throw ServiceError(.unknownID, "no player \(player) of this client's", field: "player")
            }
            if request.type == "player.pan" {
                client.mailbox.put(player: player, parameters: [:], pan: try ParameterFields.pan(request))
            } else {
                client.mailbox.put(player: player, parameters: try ParameterFields.parse(request), pan: nil)
            }
            if let id = request.id { client.send(ServiceMessages.reply([:], id: id)) }
        } catch {
            client.send(ServiceMessages.error(error, id: request.id, request: request.type))
        }
    }

    private func answer(_ request: ServiceRequest, _ client: ClientConnection) async {
        do {
            let result = try await hub.handle(request, from: client)
            if let id = request.id { client.send(ServiceMessages.reply(result, id: id)) }
        } catch {
            client.send(ServiceMessages.error(error, id: request.id, request: request.type))
        }
    }
}
