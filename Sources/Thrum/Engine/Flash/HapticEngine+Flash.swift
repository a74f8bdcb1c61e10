import ThrumModel

/// Patterns stored on the board (`FlashStore`).
extension HapticEngine {
    /// Stores `pattern`'s compiled timeline in flash slot `slot` (atomically on the board: a power
    /// cut leaves the old content or the new). `progress(sent, total)` follows the upload.
    public func storeInFlash(
        _ pattern: HapticPattern, slot: Int, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws {
        try flash.checkSlot(slot)
        try await flash.store(Self.compile(audioResources.resolve(pattern)), slot: slot, progress: progress)
    }

    /// Every flash slot with its use, size and hash.
    public func flashSlots() async throws -> [FlashSlot] {
        try await flash.slots()
    }

    /// The bytes stored in a slot: the compiled timeline, byte for byte.
    public func readFlash(slot: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> [UInt8] {
        try await flash.read(slot: slot, progress: progress)
    }

    /// Empties a slot.
    public func eraseFlash(slot: Int) async throws {
        try await flash.erase(slot: slot)
    }

    /// Plays a slot's timeline on one of the board's players; returns once the board accepted it,
    /// with the player number that ``HapticEngineEvent/playerFinished(player:)`` will name.
    @discardableResult
    public func playFlash(slot: Int, atTime time: Double = HapticEngine.timeImmediate) async throws -> Int {
        try flash.checkSlot(slot)
        let at = try BoardSession.boardTime(time)
        let id = players.register()
        try await flash.play(slot: slot, player: id, at: at)
        return id
    }
}
