/// Host side of one timeline upload (PROTOCOL.md §5.3) as a pure state machine: announce size and hash, send
/// chunks from the offset the board states, keep a bounded number ahead, commit. Feed it the board's replies;
/// it answers with the messages to send. After a reconnect, `restart()` announces again and the board's
/// stated offset makes the upload resume instead of starting over. Pass the link's `preferredPayload` with each
/// reply and chunks follow the payload size the link finds worth sending (PROTOCOL.md §6.5).
public struct TimelineUpload: Sendable {
    public enum State: Equatable, Sendable {
        case idle
        case announcing
        case sending(handle: UInt8)
        case committing(handle: UInt8)
        case committed(handle: UInt8)
        case failed(status: WireStatus, during: MessageType)
    }

    public let bytes: [UInt8]
    /// CRC-32C of `bytes`: the content hash the board verifies at commit.
    public let hash: UInt32
    /// Data bytes of the largest chunk (the board's `max_payload` less the chunk's 7 bytes of fields).
    public let chunkSize: Int
    /// Chunks sent beyond the last offset the board confirmed.
    public let chunksAhead: Int
    public private(set) var state: State = .idle
    /// The next offset the board said it expects.
    public private(set) var confirmed = 0

    private var nextTag: UInt16
    private var beginTag: UInt16?
    private var commitTag: UInt16?
    private var chunkTags: Set<UInt16> = []
    private var sentUpTo = 0

    /// `maxPayload` is the board's stated limit; each chunk carries 7 bytes of fields besides its data.
    public init(bytes: [UInt8], maxPayload: Int, firstTag: UInt16 = 1, chunksAhead: Int = 8) {
        self.bytes = bytes
        self.hash = CRC32C.checksum(bytes)
        self.chunkSize = max(1, maxPayload - 7)
        self.chunksAhead = max(1, chunksAhead)
        self.nextTag = firstTag
    }

    private mutating func takeTag() -> UInt16 {
        defer { nextTag &+= 1 }
        return nextTag
    }

    /// UPLOAD_BEGIN; also the way to resume after a reconnect or a peer reset.
    public mutating func restart() -> [WireMessage] {
        let tag = takeTag()
        beginTag = tag
        commitTag = nil
        chunkTags.removeAll()
        state = .announcing
        return [.uploadBegin(tag: tag, size: UInt32(bytes.count), hash: hash)]
    }

    /// The board's UPLOAD_STATUS or RESULT for one of this upload's tags; returns what to send next
    /// (nothing for replies that belong to someone else). `payloadLimit`: the largest payload to use for the
    /// chunks it returns (the link's `preferredPayload`); never more than the board's stated maximum.
    public mutating func handle(_ reply: WireMessage, payloadLimit: Int? = nil) -> [WireMessage] {
        switch (reply, state) {
        case (.uploadStatus(let status), .announcing) where status.tag == beginTag,
            (.uploadStatus(let status), .sending) where chunkTags.contains(status.tag):
            let tag = status.tag
            chunkTags.remove(tag)
            guard status.status == .ok else {
                state = .failed(status: status.status, during: tag == beginTag ? .uploadBegin : .uploadChunk)
                return []
            }
            let next = Int(status.nextOffset)
            if tag == beginTag {
                confirmed = min(next, bytes.count)  // resume where the board is
                sentUpTo = confirmed
            } else {
                confirmed = max(confirmed, min(next, bytes.count))
            }
            state = .sending(handle: status.handle)
            return sendChunks(handle: status.handle, payloadLimit: payloadLimit)
        case (.result(let result), .committing(let handle)) where result.tag == commitTag:
            state =
                result.status == .ok
                ? .committed(handle: handle) : .failed(status: result.status, during: .uploadCommit)
            return []
        default:
            return []
        }
    }

    private mutating func sendChunks(handle: UInt8, payloadLimit: Int?) -> [WireMessage] {
        if confirmed >= bytes.count {
            let tag = takeTag()
            commitTag = tag
            state = .committing(handle: handle)
            return [.uploadCommit(tag: tag, handle: handle)]
        }
        var out: [WireMessage] = []
        sentUpTo = max(sentUpTo, confirmed)
        let size = payloadLimit.map { min(chunkSize, max(1, $0 - 7)) } ?? chunkSize
        while sentUpTo < bytes.count && sentUpTo < confirmed + chunksAhead * size {
            let end = min(bytes.count, sentUpTo + size)
            let tag = takeTag()
            chunkTags.insert(tag)
            out.append(
                .uploadChunk(tag: tag, handle: handle, offset: UInt32(sentUpTo), data: Array(bytes[sentUpTo..<end])))
            sentUpTo = end
        }
        return out
    }
}
