import Testing
import ThrumTesting

@testable import ThrumWire

/// A test double for the board's side of upload (PROTOCOL.md §5.3), just enough to exercise the host's
/// upload state machine. The real board side is C in Firmware-ref.
private struct UploadResponder {
    var size = 0
    var hash: UInt32 = 0
    var stored: [UInt8] = []
    var chunksSeen = 0

    mutating func answer(_ message: WireMessage) -> WireMessage? {
        switch message {
        case .uploadBegin(let begin):
            let newSize = Int(begin.size), newHash = begin.hash
            if newSize != size || newHash != hash { (size, hash, stored) = (newSize, newHash, []) }
            return .uploadStatus(tag: begin.tag, status: .ok, handle: 0, nextOffset: UInt32(stored.count))
        case .uploadChunk(let chunk):
            chunksSeen += 1
            let offset = Int(chunk.offset), data = chunk.data
            if offset <= stored.count && offset + data.count > stored.count {
                stored.append(contentsOf: data[(stored.count - offset)...])
            }
            return .uploadStatus(tag: chunk.tag, status: .ok, handle: 0, nextOffset: UInt32(stored.count))
        case .uploadCommit(let commit):
            let status: WireStatus =
                stored.count < size ? .incomplete : CRC32C.checksum(stored) == hash ? .ok : .hashMismatch
            return .result(tag: commit.tag, status: status)
        default:
            return nil
        }
    }
}

@Suite("Timeline upload")
struct TimelineUploadTests {
    /// Runs the simulation, relaying between the upload machine and the responder, until `stop`.
    private static func pump(
        _ simulation: inout LinkSimulation, _ upload: inout TimelineUpload, _ board: inout UploadResponder,
        for duration: Duration, stop: (TimelineUpload) -> Bool
    ) throws {
        let deadline = simulation.now + duration
        var failure: (any Error)?
        simulation.run(until: deadline) { sim in
            for (message, _) in sim.takeBoardReceived() {
                if let reply = board.answer(message) {
                    do { try sim.boardSend(reply) } catch { failure = error }
                }
            }
            for event in sim.takeHostEvents() {
                guard case .received(let reply, _) = event else { continue }
                for next in upload.handle(reply) {
                    do { try sim.hostSend(next) } catch { failure = error }
                }
            }
            return stop(upload) || failure != nil
        }
        if let failure { throw failure }
    }

    @Test("an upload under faults commits with the right hash; a reconnect resumes from the board's offset")
    func uploadAndResume() throws {
        let data = LinkTransferTests.payload(size: 30_000, seed: 4)
        var simulation = LinkTransferTests.simulation(seed: 31, faults: .issue3)
        simulation.connect()
        simulation.run(until: .zero + .seconds(2)) { $0.host.isEstablished }
        var upload = TimelineUpload(bytes: data, maxPayload: simulation.host.peerMaxPayload)
        var board = UploadResponder()
        for message in upload.restart() { try simulation.hostSend(message) }
        try Self.pump(&simulation, &upload, &board, for: .seconds(10)) { $0.confirmed >= 12_000 }
        let before = upload.confirmed
        #expect(before >= 12_000 && before < data.count)

        // The host process restarts: a new session, same board (its upload state survives).
        var host = LinkConfiguration(role: .host)
        host.nonceSeed = 999
        simulation.host = LinkSession(configuration: host)
        simulation.connect()
        simulation.run(until: simulation.now + .seconds(2)) { $0.host.isEstablished }
        #expect(simulation.host.isEstablished)
        _ = simulation.takeBoardReceived()
        let chunksBefore = board.chunksSeen
        var resumed = TimelineUpload(bytes: data, maxPayload: simulation.host.peerMaxPayload, firstTag: 5000)
        for message in resumed.restart() { try simulation.hostSend(message) }
        try Self.pump(&simulation, &resumed, &board, for: .seconds(20)) { upload in
            if case .committed = upload.state { true } else if case .failed = upload.state { true } else { false }
        }
        #expect(resumed.state == .committed(handle: 0))
        #expect(board.stored == data)
        let chunkSize = simulation.host.peerMaxPayload - 7
        let resentChunks = board.chunksSeen - chunksBefore
        #expect(resentChunks <= (data.count - before) / chunkSize + 12, "resumed near \(before), not from 0")
    }

    @Test("a hash mismatch at commit fails the upload, naming the step")
    func hashMismatch() {
        var upload = TimelineUpload(bytes: [1, 2, 3], maxPayload: 256, firstTag: 1)
        let begin = upload.restart()
        #expect(begin == [.uploadBegin(tag: 1, size: 3, hash: CRC32C.checksum([1, 2, 3]))])
        let chunks = upload.handle(.uploadStatus(tag: 1, status: .ok, handle: 2, nextOffset: 0))
        #expect(chunks == [.uploadChunk(tag: 2, handle: 2, offset: 0, data: [1, 2, 3])])
        #expect(
            upload.handle(.uploadStatus(tag: 99, status: .ok, handle: 2, nextOffset: 3)).isEmpty, "someone else's tag")
        #expect(
            upload.handle(.uploadStatus(tag: 2, status: .ok, handle: 2, nextOffset: 3)) == [
                .uploadCommit(tag: 3, handle: 2)
            ])
        _ = upload.handle(.result(tag: 3, status: WireStatus.hashMismatch))
        #expect(upload.state == .failed(status: WireStatus.hashMismatch, during: .uploadCommit))
    }
}

@Suite("Board capabilities")
struct BoardCapabilitiesTests {
    @Test("INFO becomes typed capabilities; impossible values are named")
    func fromInfo() throws {
        let info = LinkSessionTests.info(nonce: 1)
        let capabilities = try BoardCapabilities(info: info)
        #expect(capabilities.maxPayload == 512)
        #expect(capabilities.receiveWindow == 4)
        #expect(
            capabilities.channels == [
                .init(kind: .lra, resonantFrequency: 170, ratedDriveMillivolts: 2000, maximumDriveMillivolts: 3300)
            ])
        #expect(capabilities.keepAlive == .milliseconds(500))
        #expect(!capabilities.audio.isPresent)
        var broken = info
        broken.window = 0
        #expect(throws: BoardCapabilities.InvalidCapabilities(field: "window", problem: "0 outside 1…127")) {
            try BoardCapabilities(info: broken)
        }
    }
}
