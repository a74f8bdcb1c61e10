import Foundation

/// The codec a WAV file names (its `fmt ` chunk's format tag), read only to say why libsndfile
/// refused a file: libsndfile reports an unknown codec as a malformed chunk.
enum WAVFormatTag {
    /// Tags libsndfile decodes: PCM, MS ADPCM, IEEE float, A-law, µ-law, IMA ADPCM, GSM 6.10,
    /// G.721, MPEG layer III, extensible (which names its codec further in).
    static let decodable: Set<UInt16> = [
        0x0001, 0x0002, 0x0003, 0x0006, 0x0007, 0x0011, 0x0031, 0x0040, 0x0055, 0xFFFE,
    ]

    /// The tag of the first `fmt ` chunk within the file's first 4 KB, if it is a RIFF/WAVE file.
    static func read(_ url: URL) -> UInt16? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4096), data.count >= 22 else { return nil }
        let bytes = [UInt8](data)
        guard bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var offset = 12
        while offset + 10 <= bytes.count {
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8) {
                return UInt16(bytes[offset + 8]) | UInt16(bytes[offset + 9]) << 8
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
