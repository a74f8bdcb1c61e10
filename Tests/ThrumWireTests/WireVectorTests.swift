import Testing

@testable import ThrumWire

@Suite("Protocol/vectors/wire")
struct WireVectorTests {
    @Test("the vector tables are complete")
    func tablesAreComplete() throws {
        let vectors = try WireVector.all()
        #expect(vectors.filter(\.valid).count >= 20)
        #expect(vectors.filter { !$0.valid }.count >= 10)
        let covered = Set(vectors.flatMap { $0.frames.map(\.message.type) })
        #expect(covered == Set(MessageType.allCases), "every message type has a valid vector")
        #expect(Set(vectors.map(\.id)).count == vectors.count, "ids are unique")
        for vector in vectors { #expect(vector.valid == vector.reasons.isEmpty, "\(vector)") }
    }

    @Test("decoded whole", arguments: try WireVector.all())
    func whole(_ vector: WireVector) {
        let outcome = decodeStream([vector.bytes[...]], maxPayload: vector.maxPayload)
        #expect(outcome.frames == vector.frames)
        #expect(outcome.reasons == vector.reasons)
    }

    @Test("decoded byte by byte and split at every position", arguments: try WireVector.all())
    func split(_ vector: WireVector) {
        let expected = StreamOutcome(frames: vector.frames, reasons: vector.reasons)
        let bytes = vector.bytes
        #expect(decodeStream(bytes.indices.map { bytes[$0...$0] }, maxPayload: vector.maxPayload) == expected)
        for cut in 0...bytes.count {
            let outcome = decodeStream([bytes[..<cut], bytes[cut...]], maxPayload: vector.maxPayload)
            #expect(outcome == expected, "split at \(cut)")
            if outcome != expected { break }
        }
    }

    @Test("decoded in random chunks", arguments: try WireVector.all())
    func randomChunks(_ vector: WireVector) {
        let expected = StreamOutcome(frames: vector.frames, reasons: vector.reasons)
        for seed in UInt64(1)...20 {
            let chunks = chunked(vector.bytes, seed: seed, maxChunk: 17)
            #expect(decodeStream(chunks, maxPayload: vector.maxPayload) == expected, "seed \(seed)")
        }
    }

    @Test(
        "encoding a valid single-frame vector reproduces its bytes",
        arguments: try WireVector.all().filter { $0.valid && $0.frames.count == 1 })
    func encode(_ vector: WireVector) throws {
        let frame = vector.frames[0]
        let payload = try MessageCodec.encode(frame.message)
        var wire = FrameEncoder.encode(header: frame.header, payload: payload)
        if vector.bytes.first != 0 { wire.removeFirst() }  // the leading delimiter is optional
        #expect(wire == vector.bytes)
    }
}
