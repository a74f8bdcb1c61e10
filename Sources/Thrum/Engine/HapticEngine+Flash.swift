import ThrumWire

/// One flash slot as the board lists it.
public struct FlashSlot: Sendable, Equatable {
    public var index: Int
    public var isUsed: Bool
    public var size: Int
    /// CRC-32C of the stored timeline (the upload's content hash).
    public var hash: UInt32
    /// Whether the board plays this slot when it boots.
    public var playsAtBoot: Bool
}

extension HapticEngine {
    /// Stores `pattern`'s compiled timeline in flash slot `slot` (atomically on the board: a power
    /// cut leaves the old content or the new). `progress(sent, total)` follows the upload.
    public func storeInFlash(_ pattern: HapticPattern, slot: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws {
        try checkSlot(slot)
        let timeline = try Self.compile(audioResources.resolve(pattern))
        if let size = capabilities?.flashSlotSize, timeline.bytes.count > size {
            throw HapticEngineError.flash("the pattern's timeline is \(timeline.bytes.count) bytes; a flash slot holds \(size)")
        }
        let handle = try await load(timeline, progress: progress)
        try await runningLink().command { .slotStore(tag: $0, handle: handle, slot: UInt8(slot)) }
    }

    /// Every flash slot with its use, size and hash.
    public func flashSlots() async throws -> [FlashSlot] {
        let reply = try await runningLink().request { .slotList(tag: $0) }
        try BoardLink.check(reply, for: .slotList)
        guard case .slotListReply(let list) = reply else { throw HapticEngineError.link("SLOT_LIST answered with \(reply.type.name)") }
        return list.slots.map { entry in
            FlashSlot(
                index: Int(entry.slot), isUsed: entry.used, size: Int(entry.size), hash: entry.hash, playsAtBoot: entry.slot == list.bootSlot)
        }
    }

    /// The bytes stored in a slot: the compiled timeline, byte for byte.
    public func readFlash(slot: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> [UInt8] {
        try checkSlot(slot)
        guard let listed = try await flashSlots().first(where: { $0.index == slot }), listed.isUsed else {
            throw HapticEngineError.flash("slot \(slot) is empty")
        }
        let link = try runningLink()
        let piece = max(1, await link.preferredPayload - 16)  // SLOT_DATA's fields besides the data
        var bytes: [UInt8] = []
        while bytes.count < listed.size {
            let offset = UInt32(bytes.count)
            let length = UInt16(min(piece, listed.size - bytes.count))
            let reply = try await link.request { .slotRead(tag: $0, slot: UInt8(slot), offset: offset, length: length) }
            try BoardLink.check(reply, for: .slotRead)
            guard case .slotData(let slotData) = reply, !slotData.data.isEmpty, slotData.offset == offset else {
                throw HapticEngineError.link("SLOT_DATA for slot \(slot) at offset \(offset) came back empty or misplaced")
            }
            bytes += slotData.data
            progress?(bytes.count, listed.size)
        }
        guard CRC32C.checksum(bytes) == listed.hash else {
            throw HapticEngineError.link("flash slot \(slot) read back with a hash that does not match the slot's")
        }
        return bytes
    }

    /// Empties a slot.
    public func eraseFlash(slot: Int) async throws {
        try checkSlot(slot)
        try await runningLink().command { .slotErase(tag: $0, slot: UInt8(slot)) }
    }

    /// Plays a slot's timeline on one of the board's players; returns once the board accepted it,
    /// with the player number that ``HapticEngineEvent/playerFinished(player:)`` will name.
    @discardableResult
    public func playFlash(slot: Int, atTime time: Double = HapticEngine.timeImmediate) async throws -> Int {
        try checkSlot(slot)
        let at = try Self.boardTime(time)
        let id = players.register()
        guard let boardPlayer = players.assign(id, handle: Self.noHandle)?.index else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        do {
            try await runningLink().command { .slotPlay(tag: $0, slot: UInt8(slot), player: UInt8(boardPlayer), atTime: at) }
        } catch {
            players.release(id)
            throw error
        }
        return id
    }

    /// Marks a board player that plays from flash, not from a timeline in memory.
    static let noHandle: UInt8 = 0xFF

    private func checkSlot(_ slot: Int) throws {
        let count = capabilities?.flashSlots ?? 0
        guard (0..<count).contains(slot) else {
            throw HapticEngineError.flash(count == 0 ? "the board has no flash slots" : "slot \(slot) does not exist: the board has slots 0…\(count - 1)")
        }
    }
}
