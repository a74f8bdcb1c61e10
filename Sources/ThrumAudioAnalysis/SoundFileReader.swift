import CSndFile
import Foundation

/// A sound file opened with libsndfile and read in blocks, each mixed down to one channel.
/// Memory is one block, whatever the file's length.
final class SoundFileReader {
    let file: String
    let sampleRate: Int
    let channels: Int
    /// Frames the header announces (libsndfile's count; an estimate for some compressed formats).
    let announcedFrames: Int
    let format: String
    private let handle: OpaquePointer
    private var interleaved: [Float]
    private(set) var framesRead = 0

    static let blockFrames = 8192

    init(url: URL, displayName: String) throws(AudioConversionError) {
        file = displayName
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw AudioConversionError(file: displayName, kind: .unreadable, problem: "no such file")
        }
        guard !isFolder.boolValue else {
            throw AudioConversionError(file: displayName, kind: .unreadable, problem: "this is a folder, not a sound")
        }
        var info = SF_INFO()
        guard let opened = sf_open(url.path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            if let tag = WAVFormatTag.read(url), !WAVFormatTag.decodable.contains(tag) {
                throw AudioConversionError(
                    file: displayName, kind: .unsupportedCodec,
                    problem:
                        "a WAV file in codec 0x\(String(tag, radix: 16, uppercase: true)), which libsndfile does not decode (\(reason))"
                )
            }
            throw AudioConversionError(
                file: displayName, kind: .notAudio, problem: "not a sound libsndfile can read (\(reason))")
        }
        // Checked before the reader exists, so the handle is closed exactly once on every path.
        let rate = Int(info.samplerate)
        let channelCount = Int(info.channels)
        var problem: AudioConversionError?
        if rate < 1000 || rate > 768_000 {
            problem = AudioConversionError(
                file: displayName, kind: .notAudio, problem: "a sample rate of \(rate) Hz (1000…768000 are read)")
        } else if channelCount < 1 || channelCount > 256 {
            problem = AudioConversionError(
                file: displayName, kind: .notAudio, problem: "\(channelCount) channels (1…256 are read)")
        } else if let shortened = Self.shortenedDataChunk(opened) {
            problem = AudioConversionError(
                file: displayName, kind: .truncated,
                problem: "the file is truncated: the header announces more data than it holds (\(shortened))")
        }
        if let problem {
            sf_close(opened)
            throw problem
        }
        handle = opened
        sampleRate = rate
        channels = channelCount
        announcedFrames = Int(info.frames)
        format = Self.describe(format: info.format)
        // Floats read from integer files span -1…1 (libsndfile's default); float files come as stored.
        interleaved = [Float](repeating: 0, count: Self.blockFrames * channelCount)
    }

    deinit { sf_close(handle) }

    /// Reads the next block mixed down (the channels' mean) into `mono`; false at the end.
    /// Throws on a non-finite sample and on a file that ends before its header says.
    func read(into mono: inout [Float]) throws(AudioConversionError) -> Bool {
        let count = interleaved.withUnsafeMutableBufferPointer { buffer in
            Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(Self.blockFrames)))
        }
        if count == 0 {
            let code = sf_error(handle)
            if code != 0 {
                let reason = String(cString: sf_strerror(handle))
                throw AudioConversionError(
                    file: file, kind: .truncated,
                    problem: "decoding stopped after \(framesRead) frames: \(reason)")
            }
            try checkEnd()
            return false
        }
        // Mixed down over raw buffers (the hot loop of a long file); a non-finite sample poisons its
        // frame's sum, so only such frames are looked at again.
        let channels = self.channels
        let scale = 1 / Float(channels)
        var poisoned: Int?
        mono.removeAll(keepingCapacity: true)
        mono.append(contentsOf: repeatElement(0, count: count))
        interleaved.withUnsafeBufferPointer { samples in
            mono.withUnsafeMutableBufferPointer { mixed in
                for frame in 0..<count {
                    var sum: Float = 0
                    for channel in 0..<channels { sum += samples[frame * channels + channel] }
                    if !sum.isFinite, poisoned == nil { poisoned = frame }
                    mixed[frame] = sum * scale
                }
            }
        }
        if let poisoned { try reportNonFinite(in: poisoned, count: count) }
        framesRead += count
        return true
    }

    /// Names the first non-finite sample at or after `frame` of the block, or the frame whose finite
    /// samples sum beyond the largest float.
    private func reportNonFinite(in frame: Int, count: Int) throws(AudioConversionError) {
        for index in frame..<count {
            for channel in 0..<channels {
                let sample = interleaved[index * channels + channel]
                guard sample.isFinite else {
                    let at = framesRead + index
                    throw AudioConversionError(
                        file: file, kind: .nonFiniteSample,
                        problem:
                            "sample \(at) of channel \(channel + 1) (at \(Self.seconds(at, sampleRate)) s) is \(sample.isNaN ? "NaN" : "infinite"), not a number a sound can hold"
                    )
                }
            }
        }
        let at = framesRead + frame
        throw AudioConversionError(
            file: file, kind: .nonFiniteSample,
            problem: "the samples of frame \(at) (at \(Self.seconds(at, sampleRate)) s) are too large to add up")
    }

    /// A file whose data stops short of what its header announces is truncated: a decoder that
    /// stops early (FLAC) delivers fewer frames than announced.
    private func checkEnd() throws(AudioConversionError) {
        if framesRead == 0 {
            throw AudioConversionError(file: file, kind: .empty, problem: "the file holds no samples")
        }
        if framesRead < announcedFrames {
            throw AudioConversionError(
                file: file, kind: .truncated,
                problem: "the file is truncated: its data ends after \(framesRead) of \(announcedFrames) frames")
        }
    }

    /// libsndfile shortens a WAV or AIFF data chunk that runs past the file's end by itself and only
    /// notes it in its log, as `data : 88200 (should be 44078)`: that file is truncated.
    private static func shortenedDataChunk(_ handle: OpaquePointer) -> String? {
        let line = logText(handle).split(separator: "\n").first { line in
            line.trimmingCharacters(in: .whitespaces).hasPrefix("data") && line.contains("(should be")
        }
        return line.map(String.init)
    }

    private static func logText(_ handle: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = buffer.withUnsafeMutableBytes { bytes in
            Int(sf_command(handle, Int32(SFC_GET_LOG_INFO), bytes.baseAddress, Int32(bytes.count)))
        }
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// libsndfile's names of the container and the encoding.
    private static func describe(format: Int32) -> String {
        func name(_ code: Int32) -> String? {
            var info = SF_FORMAT_INFO()
            info.format = code
            guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                let text = info.name
            else { return nil }
            return String(cString: text)
        }
        let container = name(format & Int32(SF_FORMAT_TYPEMASK)) ?? "unknown container"
        let encoding = name(format & Int32(SF_FORMAT_SUBMASK)) ?? "unknown encoding"
        return "\(container), \(encoding)"
    }

    static func seconds(_ frame: Int, _ rate: Int) -> String {
        String(format: "%.3f", Double(frame) / Double(rate))
    }
}
