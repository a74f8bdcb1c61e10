import Foundation

/// The length of a RIFF/WAVE file, read from its `fmt ` and `data` chunks: what a registered
/// audio resource needs to sound for its whole length on a board's audio lane (SEMANTICS.md §6.2).
struct WAVInfo: Sendable, Equatable {
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// 1 integer PCM, 3 IEEE float, …; for WAVE_FORMAT_EXTENSIBLE (0xFFFE) the tag its subformat
    /// GUID starts with, so both forms of a format decode alike (`WAVSamples`).
    var formatTag: Int
    /// Where `formatTag` was read, for messages about it.
    var formatTagOffset: Int
    /// Where the sample data starts.
    var dataOffset: Int
    /// Bytes of sample data.
    var dataBytes: Int

    var seconds: Double {
        let frameBytes = channels * max(1, bitsPerSample / 8)
        return Double(dataBytes / frameBytes) / Double(sampleRate)
    }

    /// Why a file is not a WAV file Thrum can time, with the byte offset where it went wrong.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var offset: Int
        var detail: String
        var description: String { "\(detail) at byte \(offset)" }
    }

    /// Reads the header chunks of `bytes` (the sample data itself is not looked at).
    static func read(_ bytes: [UInt8]) throws(Problem) -> WAVInfo {
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12 else {
            throw Problem(offset: bytes.count, detail: "too short for a RIFF header (\(bytes.count) bytes)")
        }
        guard tag(0) == "RIFF" else { throw Problem(offset: 0, detail: "not a RIFF file") }
        guard tag(8) == "WAVE" else { throw Problem(offset: 8, detail: "a RIFF file but not WAVE (\(tag(8)))") }
        var format: (rate: Int, channels: Int, bits: Int, tag: Int, tagAt: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset), size = u32(offset + 4), body = offset + 8
            switch id {
            case "fmt ":
                guard size >= 16, body + 16 <= bytes.count else {
                    throw Problem(offset: offset, detail: "fmt chunk of \(size) bytes is truncated")
                }
                let (channels, rate, bits) = (u16(body + 2), u32(body + 4), u16(body + 14))
                guard channels > 0, rate > 0, bits > 0 else {
                    throw Problem(
                        offset: body, detail: "fmt chunk states \(channels) channels, \(rate) Hz, \(bits) bits")
                }
                // An extensible fmt chunk too short for its subformat keeps 0xFFFE, which no decoder takes.
                let extensible = u16(body) == 0xFFFE && size >= 40 && body + 40 <= bytes.count
                let tagAt = extensible ? body + 24 : body
                format = (rate, channels, bits, u16(tagAt), tagAt)
            case "data":
                guard let format else { throw Problem(offset: offset, detail: "data chunk before the fmt chunk") }
                // A file cut short keeps what it has; a streaming writer may leave the size at 0 or ~0.
                let available = bytes.count - body
                let dataBytes = size == 0 || size > available ? available : size
                return WAVInfo(
                    sampleRate: format.rate, channels: format.channels, bitsPerSample: format.bits,
                    formatTag: format.tag, formatTagOffset: format.tagAt, dataOffset: body, dataBytes: dataBytes)
            default:
                break
            }
            offset = body + size + (size & 1)  // chunks are padded to an even length
        }
        throw Problem(offset: offset, detail: format == nil ? "no fmt chunk" : "no data chunk")
    }
}
