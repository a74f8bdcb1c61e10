import ThrumTimeline

/// A pattern larger than the board's timeline memory, playing piece by piece (PROTOCOL.md §5.4).
///
/// The timeline is cut into pieces of a quarter of the board's memory (a third or half where it
/// cannot be cut that fine; `TimelineSegmenter`). Two tasks feed the board. The uploader sends
/// pieces in order, each as soon as the pieces on the board and it fit the memory, so the board
/// holds as much of what is coming as it can. The scheduler gives each uploaded piece a board
/// player once the piece two before it has finished (the board's PLAYER_FINISHED), and schedules
/// it to take over at the board time where the whole would reach it, with a stop of the piece
/// before at that same instant. Two board players take turns: one sounds, one waits.
struct StreamedPlayback: Sendable {
    let pieces: [TimelineSegment]
    /// Board time (µs) of the pattern's position 0.
    let origin: UInt32
    /// Tells this playback from an earlier one of the same player.
    let generation: Int
    /// Pieces uploaded and not finished, by handle (kept from eviction).
    var handles: [Int: UInt8] = [:]
    /// Pieces that finished and whose memory the uploader frees when it next needs room.
    var finishedUnfreed: [Int] = []
    /// The board player each scheduled piece plays on, until it finishes.
    var boardPlayerOfPiece: [Int: Int] = [:]
    /// Pieces scheduled so far (0 … scheduled − 1).
    var scheduled = 1
    var finishedPieces: Set<Int> = []
    /// When the app stopped the player (board µs; 0: at once): no piece starts from then on.
    var stopAt: UInt32?
    /// The run-time controls the app gave, replayed on each new piece's board player.
    var runtime = RuntimeLayer()
    /// The uploader and scheduler, waiting for a piece to be uploaded or to finish.
    var waiters: [CheckedContinuation<Void, Never>] = []

    /// Bytes of the pieces on the board that have not finished.
    var heldBytes: Int { handles.keys.reduce(0) { $0 + pieces[$1].bytes.count } }

    func handoff(of piece: Int) -> UInt32 { origin &+ pieces[piece].start &* 1000 }

    /// Whether nothing more will start: the last piece is scheduled, or the app stopped it.
    func noMorePieces(after piece: Int) -> Bool {
        guard piece + 1 < pieces.count else { return true }
        guard let stopAt else { return false }
        return stopAt == 0 || Int32(bitPattern: handoff(of: piece + 1) &- stopAt) >= 0
    }
}
