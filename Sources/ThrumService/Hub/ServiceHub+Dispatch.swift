import Foundation
import Thrum

/// Every request type (Protocol/SERVICE.md §6), routed to the handler that answers it.
extension ServiceHub {
    /// The result of `request`, or the error that answers it.
    func handle(_ request: ServiceRequest, from client: ClientConnection) async throws(ServiceError) -> JSONValue {
        switch request.type {
        case "hello": return try await hello(request, client)
        case "time": return ["now": .number(await stage.now())]
        case "status": return await status()
        case "boards": return ["boards": .array(await stage.boardDescriptions())]
        case "pattern.load": return try loadPattern(request, client)
        case "pattern.free": return try freePattern(request, client)
        case "player.create": return try await createPlayer(request, client)
        case "player.destroy": return try await destroyPlayer(request, client)
        case "player.start", "player.stop", "player.pause", "player.resume", "player.seek", "player.loop",
            "player.rate", "player.parameters", "player.pan", "player.locality":
            return try await control(request, client)
        case "flash.store": return try await storeInFlash(request, client)
        case "flash.list": return try await listFlash()
        case "flash.read": return try await readFlash(request)
        case "flash.play": return try await playFlash(request, client)
        case "flash.erase": return try await eraseFlash(request)
        case "trace.subscribe": return try await traceFeed.subscribe(client, request)
        case "trace.unsubscribe":
            await traceFeed.unsubscribe(client)
            return [:]
        default:
            throw ServiceError(
                .unknownType, "unknown message type `\(request.type)` (Protocol/SERVICE.md §6 lists them)",
                field: "type")
        }
    }

    /// Runs an engine call, turning its error into the service's.
    func engine<T: Sendable>(_ body: () async throws -> T) async throws(ServiceError) -> T {
        do { return try await body() } catch { throw ServiceError.from(error) }
    }

    // MARK: hello, status

    private func hello(_ request: ServiceRequest, _ client: ClientConnection) async throws(ServiceError) -> JSONValue {
        let version = try request.int("version")
        guard version == ServiceMessages.protocolVersion else {
            throw ServiceError(
                .versionMismatch,
                "this service speaks protocol version \(ServiceMessages.protocolVersion), not \(version)",
                field: "version", details: ["supported": [.int(ServiceMessages.protocolVersion)]])
        }
        if let name = try request.optionalString("client") { client.name = String(name.prefix(80)) }
        return [
            "protocol": .int(ServiceMessages.protocolVersion), "service": "thrum", "client": .int(client.id),
            "now": .number(await stage.now()), "boards": .array(await stage.boardDescriptions()),
        ]
    }

    func status() async -> JSONValue {
        [
            "protocol": .int(ServiceMessages.protocolVersion), "service": "thrum",
            "now": .number(await stage.now()),
            "uptime": .number((ContinuousClock.now - startedAt) / .seconds(1)),
            "clients": .array(
                clients.values.sorted { $0.id < $1.id }.map { client in
                    let figures = client.figures
                    return [
                        "id": .int(client.id), "name": .string(figures.name),
                        "players": .int(players.values.filter { $0.owner == client.id }.count),
                        "patterns": .int(patterns.values.filter { $0.owner == client.id }.count),
                        "realtimeSent": .int(figures.realtimeSent), "realtimeReplaced": .int(client.mailbox.replaced),
                        "dropped": .int(figures.dropped),
                    ]
                }),
            "boards": .array(await stage.boardDescriptions()),
            "links": .array(await stage.linkFigures()),
        ]
    }

    // MARK: patterns

    private func loadPattern(_ request: ServiceRequest, _ client: ClientConnection) throws(ServiceError) -> JSONValue {
        let text = try request.string("text")
        let name = try request.optionalString("name") ?? "pattern"
        guard patterns.values.filter({ $0.owner == client.id }).count < limits.maxPatternsPerClient else {
            throw ServiceError(
                .badRequest, "this client has \(limits.maxPatternsPerClient) patterns loaded already: free one first")
        }
        let report = PatternReport(
            text: Data(text.utf8), name: name, strict: try request.optionalBool("strict") ?? false)
        guard !report.hasErrors else {
            throw ServiceError(
                .invalidPattern,
                "\(name) has errors: "
                    + (report.diagnostics.first { $0.severity == .error }.map { "\($0)" } ?? "unknown"),
                field: "text", details: ["diagnostics": report.diagnosticsJSON])
        }
        let id = nextPatternID
        nextPatternID += 1
        patterns[id] = LoadedPattern(owner: client.id, report: report)
        return ["pattern": .int(id), "diagnostics": report.diagnosticsJSON, "summary": report.summaryJSON]
    }

    private func freePattern(_ request: ServiceRequest, _ client: ClientConnection) throws(ServiceError) -> JSONValue {
        _ = try ownedPattern(request, by: client)
        patterns[try request.int("pattern")] = nil
        return [:]
    }

    // MARK: players

    private func createPlayer(
        _ request: ServiceRequest, _ client: ClientConnection
    ) async throws(ServiceError)
        -> JSONValue
    {
        let loaded = try ownedPattern(request, by: client)
        let locality = try request.optionalString("locality")
        let player = try await engine { try await stage.makePlayer(with: loaded.pattern, locality: locality) }
        players[player.id] = OwnedPlayer(owner: client.id, player: player)
        client.own(player)
        return ["player": .int(player.id)]
    }

    private func destroyPlayer(
        _ request: ServiceRequest, _ client: ClientConnection
    ) async throws(ServiceError)
        -> JSONValue
    {
        let entry = try ownedPlayer(request, by: client)
        players[entry.player.id] = nil
        client.disown(entry.player.id)
        await entry.player.cancel()
        return [:]
    }

    /// The transport and scheduled controls of a player.
    private func control(_ request: ServiceRequest, _ client: ClientConnection) async throws(ServiceError) -> JSONValue
    {
        let player = try ownedPlayer(request, by: client).player
        switch request.type {
        case "player.start":
            let at = try request.time()
            players[player.id]?.stopRequested = false
            try await engine { try await player.start(at: at) }
        case "player.stop":
            let at = try request.time()
            players[player.id]?.stopRequested = true
            try await engine { try await player.stop(at: at) }
        case "player.pause":
            let at = try request.time()
            try await engine { try await player.pause(at: at) }
        case "player.resume":
            let at = try request.time()
            try await engine { try await player.resume(at: at) }
        case "player.seek":
            let offset = try request.number("offset", in: 0...86_400)
            try await engine { try await player.seek(to: offset) }
        case "player.loop":
            let enabled = try request.bool("enabled")
            let end = try request.optionalNumber("end", in: 0...86_400) ?? 0
            try await engine { try await player.setLoop(enabled: enabled, end: end) }
        case "player.rate":
            let rate = try request.number("rate", in: (1.0 / 256)...16)
            try await engine { try await player.setRate(rate) }
        case "player.parameters":
            let parameters = try ParameterFields.parse(request).map {
                DynamicParameter($0.key, value: $0.value, time: 0)
            }
            let at = try request.time()
            try await engine { try await player.sendParameters(parameters, at: at) }
        case "player.pan":
            let position = try ParameterFields.pan(request)
            let at = try request.time()
            try await engine { try await player.setPan(position, at: at) }
        case "player.locality":
            let locality = try request.string("locality")
            let at = try request.time()
            try await engine { try await player.setLocality(locality, at: at) }
        default:
            throw ServiceError(.unknownType, "unknown message type `\(request.type)`", field: "type")
        }
        return [:]
    }
}
