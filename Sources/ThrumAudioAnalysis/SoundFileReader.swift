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
            throw AudioConversionError(
                file: displayName, kind: .notAudio, problem: "not a sound libsndfile can read (\(reason))")
        }
        handle = opened
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        announcedFrames = Int(info.frames)
        format = Self.describe(format: info.format)
        interleaved = []
        // Floats read from integer files span -1…1 (libsndfile's default); float files come as stored.
        guard sampleRate >= 1000, sampleRate <= 768_000 else {
            sf_close(handle)
            throw AudioConversionError(
                file: displayName, kind: .notAudio, problem: "a sample rate of \(sampleRate) Hz (1000…768000 are read)")
        }
        guard channels >= 1, channels <= 256 else {
            sf_close(handle)
            throw AudioConversionError(
                file: displayName, kind: .notAudio, problem: "\(channels) channels (1…256 are read)")
        }
        interleaved = [Float](repeating: 0, count: Self.blockFrames * channels)
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
        mono.removeAll(keepingCapacity: true)
        let scale = 1 / Float(channels)
        for frame in 0..<count {
            var sum: Float = 0
            for channel in 0..<channels {
                let sample = interleaved[frame * channels + channel]
                guard sample.isFinite else {
                    let at = framesRead + frame
                    throw AudioConversionError(
                        file: file, kind: .nonFiniteSample,
                        problem:
                            "sample \(at) of channel \(channel + 1) (at \(Self.seconds(at, sampleRate)) s) is \(sample.isNaN ? "NaN" : "infinite"), not a number a sound can hold"
                    )
                }
                sum += sample
            }
            mono.append(sum * scale)
        }
        framesRead += count
        return true
    }

    /// A file whose data stops short of what its header announces is truncated. libsndfile shortens
    /// the count itself when the data chunk runs past the file's end, and notes it in its log.
    private func checkEnd() throws(AudioConversionError) {
        if framesRead == 0 {
            throw AudioConversionError(file: file, kind: .empty, problem: "the file holds no samples")
        }
        let log = logText()
        if framesRead < announcedFrames || log.localizedCaseInsensitiveContains("truncated")
            || log.contains("> file length") || log.contains("Unexpected end")
        {
            let announced = announcedFrames > framesRead ? " of \(announcedFrames) announced" : ""
            throw AudioConversionError(
                file: file, kind: .truncated,
                problem: "the file is truncated: its data ends after \(framesRead) frames\(announced)")
        }
    }

    private func logText() -> String {
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
            guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let text = info.name
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
