import PropertyBased
import Testing

@testable import ThrumWire

@Suite("Framing: CRC-32C, COBS, frame decoder")
struct FramingTests {
    @Test("CRC-32C check value and split-independence")
    func crc() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        var split = CRC32C()
        split.update(Array("1234".utf8))
        split.update(Array("56789".utf8))
        #expect(split.value == CRC32C.check)
    }

    @Test("COBS known encodings")
    func cobsKnown() {
        #expect(COBS.encode([]) == [0x01])
        #expect(COBS.encode([0x00]) == [0x01, 0x01])
        #expect(COBS.encode([0x11, 0x22, 0x00, 0x33]) == [0x03, 0x11, 0x22, 0x02, 0x33])
        let run = [UInt8](repeating: 0x42, count: 254)
        #expect(COBS.encode(run) == [0xFF] + run + [0x01])
        #expect(COBS.decode([0x03, 0x11]) == .failure(.blockOverrun(at: 0)))
        #expect(COBS.decode([0x02, 0x00]) == .failure(.zeroByte(at: 1)))
    }

    @Test("COBS round-trips any bytes, never emits 0x00 and stays within n + n/254 + 1")
    func cobsRoundTrip() async {
        await propertyCheck(count: 200, input: Gen.uint8().array(of: 0...1200)) { data in
            let encoded = COBS.encode(data)
            #expect(!encoded.contains(0))
            #expect(encoded.count <= COBS.maxEncodedCount(data.count))
            if !data.contains(0) { #expect(encoded.count == COBS.maxEncodedCount(data.count)) }
            #expect(COBS.decode(encoded) == .success(data))
        }
    }

    static func sampleFrame(payload: [UInt8], seq: UInt8 = 3) -> (Frame, [UInt8]) {
        let header = FrameHeader(
            channel: .reliable, epoch: 0xBEEF, seq: seq, ack: 2, window: 4, type: MessageType.uploadChunk.rawValue)
        return (Frame(header: header, payload: payload), FrameEncoder.encode(header: header, payload: payload))
    }

    @Test("worst-case wire size formula holds")
    func wireSize() {
        for size in [0, 1, 241, 242, 243, 256, 512, 1024] {
            let (_, wire) = Self.sampleFrame(payload: [UInt8](repeating: 0x5A, count: size))
            #expect(wire.count <= FrameLimits.maxWireCount(payload: size), "payload \(size)")
        }
        #expect(FrameLimits.maxWireCount(payload: 512) == 529)
        #expect(FrameLimits.maxWireCount(payload: 1024) == 1043)
        #expect(FrameLimits.maxWireCount(payload: 256) == 272)
    }

    @Test("garbage never crashes the decoder, memory stays bounded, and the next frame after garbage survives")
    func garbageThenFrame() async {
        await propertyCheck(
            count: 300, input: Gen.uint8().array(of: 0...3000), Gen.uint8().array(of: 0...300), Gen.int(in: 1...64)
        ) { garbage, payload, chunk in
            var decoder = FrameDecoder(maxPayload: 300)
            let (frame, wire) = Self.sampleFrame(payload: payload)
            var frames: [Frame] = []
            var stream = garbage
            stream.append(contentsOf: wire)
            var index = 0
            while index < stream.count {
                let end = min(stream.count, index + chunk)
                for output in decoder.feed(stream[index..<end]) {
                    if case .frame(let decoded) = output { frames.append(decoded) }
                }
                #expect(decoder.pendingCount <= COBS.maxEncodedCount(300 + FrameLimits.overhead))
                index = end
            }
            #expect(frames.last == frame)
            #expect(decoder.pendingCount == 0)
        }
    }

    @Test("a payload larger than the limit is rejected as oversize however it is encoded")
    func oversize() {
        var decoder = FrameDecoder(maxPayload: 300)
        let (_, zeros) = Self.sampleFrame(payload: [UInt8](repeating: 0, count: 301))
        #expect(decoder.feed(zeros) == [.rejected(.oversize)])
        let (_, ones) = Self.sampleFrame(payload: [UInt8](repeating: 1, count: 301))
        #expect(decoder.feed(ones) == [.rejected(.oversize)])
        let (ok, fits) = Self.sampleFrame(payload: [UInt8](repeating: 1, count: 300))
        #expect(decoder.feed(fits) == [.frame(ok)])
        #expect(decoder.statistics.rejected[.oversize] == 2)
        #expect(decoder.statistics.frames == 1)
    }

    @Test("any single corrupted byte is caught")
    func singleByteCorruption() {
        let (frame, wire) = Self.sampleFrame(payload: Array(0..<40))
        for index in 1..<(wire.count - 1) {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var bad = wire
                bad[index] ^= flip
                var decoder = FrameDecoder()
                let outputs = decoder.feed(bad)
                #expect(!outputs.contains(.frame(frame)) || bad == wire, "byte \(index) ^ \(flip)")
                #expect(
                    !outputs.contains { if case .frame = $0 { true } else { false } },
                    "byte \(index) ^ \(flip) produced a frame")
            }
        }
    }
}
