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

/// The board's flash slots: storing a timeline the board holds, listing, reading back, erasing,
/// and playing a slot on a board player.
final class FlashStore {
    /// Marks a board player that plays from flash, not from a timeline in memory.
    static let noHandle: UInt8 = 0xFF

    private let session: BoardSession
    private let players: PlayerTable
    private let timelines: TimelineStore

    init(session: BoardSession, players: PlayerTable, timelines: TimelineStore) {
        self.session = session
        self.players = players
        self.timelines = timelines
    }

    /// Uploads `timeline` (unless the board holds it) and stores it in `slot` (checked by the
    /// caller before it compiled the pattern).
    nonisolated(nonsending) func store(
        _ timeline: CompiledTimeline, slot: Int, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws {
        if let size = session.capabilities?.flashSlotSize, timeline.bytes.count > size {
            throw HapticEngineError.flash(
                "the pattern's timeline is \(timeline.bytes.count) bytes; a flash slot holds \(size)")
        }
        let handle = try await timelines.load(timeline, progress: progress)
        try await session.runningLink().command { .slotStore(tag: $0, handle: handle, slot: UInt8(slot)) }
    }

    nonisolated(nonsending) func slots() async throws -> [FlashSlot] {
        let reply = try await session.runningLink().request { .slotList(tag: $0) }
        try BoardLink.check(reply, for: .slotList)
        guard case .slotListReply(let list) = reply else {
            throw HapticEngineError.link("SLOT_LIST answered with \(reply.type.name)")
        }
        return list.slots.map { entry in
            FlashSlot(
                index: Int(entry.slot), isUsed: entry.used, size: Int(entry.size), hash: entry.hash,
                playsAtBoot: entry.slot == list.bootSlot)
        }
    }

    /// The bytes stored in `slot`, read piece by piece and checked against the slot's hash.
    nonisolated(nonsending) func read(slot: Int, progress: (@Sendable (Int, Int) -> Void)?) async throws -> [UInt8] {
        try checkSlot(slot)
        guard let listed = try await slots().first(where: { $0.index == slot }), listed.isUsed else {
            throw HapticEngineError.flash("slot \(slot) is empty")
        }
        let link = try session.runningLink()
        let piece = max(1, await link.preferredPayload - 16)  // SLOT_DATA's fields besides the data
        var bytes: [UInt8] = []
        while bytes.count < listed.size {
            let offset = UInt32(bytes.count)
            let length = UInt16(min(piece, listed.size - bytes.count))
            let reply = try await link.request { .slotRead(tag: $0, slot: UInt8(slot), offset: offset, length: length) }
            try BoardLink.check(reply, for: .slotRead)
            guard case .slotData(let slotData) = reply, !slotData.data.isEmpty, slotData.offset == offset else {
                throw HapticEngineError.link(
                    "SLOT_DATA for slot \(slot) at offset \(offset) came back empty or misplaced")
            }
            bytes += slotData.data
            progress?(bytes.count, listed.size)
        }
        guard CRC32C.checksum(bytes) == listed.hash else {
            throw HapticEngineError.link("flash slot \(slot) read back with a hash that does not match the slot's")
        }
        return bytes
    }

    nonisolated(nonsending) func erase(slot: Int) async throws {
        try checkSlot(slot)
        try await session.runningLink().command { .slotErase(tag: $0, slot: UInt8(slot)) }
    }

    /// Plays `slot` on a board player for player `id`; gives the board player back if the board
    /// refuses.
    nonisolated(nonsending) func play(slot: Int, player id: Int, at: UInt32) async throws {
        guard let boardPlayer = players.assign(id, handle: Self.noHandle)?.index else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        do {
            try await session.runningLink().command {
                .slotPlay(tag: $0, slot: UInt8(slot), player: UInt8(boardPlayer), atTime: at)
            }
        } catch {
            players.release(id)
            throw error
        }
    }

    func checkSlot(_ slot: Int) throws {
        let count = session.capabilities?.flashSlots ?? 0
        guard (0..<count).contains(slot) else {
            throw HapticEngineError.flash(
                count == 0
                    ? "the board has no flash slots" : "slot \(slot) does not exist: the board has slots 0…\(count - 1)"
            )
        }
    }
}
