import Foundation
import Thrum
import ThrumTransport

/// Flash slots on the one board (Protocol/SERVICE.md §6.6); a rig answers `not_supported`.
extension ServiceHub {
    private func flashEngine() throws(ServiceError) -> HapticEngine {
        guard let engine = stage.flashEngine else {
            throw ServiceError(
                .notSupported, "a rig has no flash slots: store on one board with `thrum serve --device`")
        }
        return engine
    }

    func storeInFlash(_ request: ServiceRequest, _ client: ClientConnection) async throws(ServiceError) -> JSONValue {
        let engine = try flashEngine()
        let loaded = try ownedPattern(request, by: client)
        let slot = try request.int("slot", in: 0...255)
        let requestID = request.id ?? .null
        // Progress at most every 5 % (and at the end), so a large store does not flood the client;
        // sent as it happens, so every progress event comes before the reply.
        let lastStep = Locked(-1)
        let (base, started) = (await stage.now(), ContinuousClock.now)
        try await self.engine {
            try await engine.storeInFlash(loaded.pattern, slot: slot) { sent, total in
                let step = total > 0 ? sent * 20 / total : 20
                let previous = lastStep.withLock { last in
                    defer { last = step }
                    return last
                }
                guard previous != step else { return }
                client.send(
                    ServiceMessages.event(
                        "flash.progress",
                        ["request": requestID, "slot": .int(slot), "sent": .int(sent), "total": .int(total)],
                        time: base + (ContinuousClock.now - started) / .seconds(1)))
            }
        }
        return ["slot": .int(slot), "bytes": .int(loaded.report.timeline?.count ?? 0)]
    }

    func listFlash() async throws(ServiceError) -> JSONValue {
        let engine = try flashEngine()
        let slots = try await self.engine { try await engine.flashSlots() }
        return [
            "slots": .array(
                slots.map { slot in
                    [
                        "slot": .int(slot.index), "used": .bool(slot.isUsed), "size": .int(slot.size),
                        "crc32c": .string(String(format: "%08x", slot.hash)),
                    ]
                })
        ]
    }

    func readFlash(_ request: ServiceRequest) async throws(ServiceError) -> JSONValue {
        let engine = try flashEngine()
        let slot = try request.int("slot", in: 0...255)
        let bytes = try await self.engine { try await engine.readFlash(slot: slot) }
        return ["slot": .int(slot), "size": .int(bytes.count), "base64": .string(Data(bytes).base64EncodedString())]
    }

    func playFlash(_ request: ServiceRequest, _ client: ClientConnection) async throws(ServiceError) -> JSONValue {
        let engine = try flashEngine()
        let slot = try request.int("slot", in: 0...255)
        let at = try request.time()
        let player = try await self.engine { try await engine.playFlash(slot: slot, atTime: at.seconds) }
        return ["slot": .int(slot), "boardPlayer": .int(player)]
    }

    func eraseFlash(_ request: ServiceRequest) async throws(ServiceError) -> JSONValue {
        let engine = try flashEngine()
        let slot = try request.int("slot", in: 0...255)
        try await self.engine { try await engine.eraseFlash(slot: slot) }
        return ["slot": .int(slot)]
    }
}
