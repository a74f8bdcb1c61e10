import ThrumModel
import ThrumTransport

/// Patterns stored on the board (`FlashStore`).
extension HapticEngine {
    /// Stores `pattern`'s compiled timeline in flash slot `slot` (atomically on the board: a power
    /// cut leaves the old content or the new). `progress(sent, total)` follows the upload.
    public func storeInFlash(
        _ pattern: HapticPattern, slot: Int, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws {
        try flash.checkSlot(slot)
        let timeline = try Self.compile(audioResources.resolve(pattern))
        let sent = Locked(0)  // bytes sent so far: how far a store cut off got
        try await HapticEngineError.naming(
            "storing flash slot \(slot) (\(sent.withLock { $0 }) of \(timeline.bytes.count) bytes sent)",
            lost: "slot \(slot) keeps what it held before, as the board writes a slot only once all of it has arrived"
        ) {
            try await flash.store(timeline, slot: slot) { done, total in
                sent.withLock { $0 = done }
                progress?(done, total)
            }
        }
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
