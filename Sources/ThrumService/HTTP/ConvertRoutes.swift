import Dispatch
import Foundation
import Hummingbird
import HummingbirdWebSocket
import ThrumAudioAnalysis
import ThrumModel

/// `POST /api/convert` (Protocol/SERVICE.md §10): a sound in the body becomes an AHAP pattern, with
/// what the analysis found and the waveform to draw under it (the studio's "Open a sound").
///
/// The body streams to a temporary file (libsndfile reads files), at most `maxAudioBytes`, so a long
/// sound costs disk, not memory. Conversions run one at a time on a thread of their own: they are
/// CPU work, and the cooperative pool must stay free for the boards' real-time traffic.
struct ConvertRoutes: Sendable {
    let limits: ServiceLimits

    /// One conversion at a time, off the cooperative pool.
    private static let queue = DispatchQueue(label: "thrum.service.convert")

    func add(to router: Router<BasicWebSocketRequestContext>) {
        let limits = limits
        router.post("/api/convert") { request, _ in
            let name = Self.fileName(request.uri.queryParameters["name"].map(String.init))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "thrum-convert-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // The file keeps the sound's own name, so libsndfile's errors name what the user sent.
            let file = folder.appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                guard try await Self.store(request.body, to: file, limit: limits.maxAudioBytes) else {
                    return JSONResponse.error(
                        .contentTooLarge, code: "too_large",
                        message:
                            "\(name) is larger than \(limits.maxAudioBytes) bytes, the most the service converts")
                }
            } catch {
                return JSONResponse.error(
                    .internalServerError, code: "io", message: "cannot keep \(name) to convert it: \(error)")
            }
            switch await Self.convert(file) {
            case .success(let conversion): return JSONResponse.make(Self.answer(conversion, name: name))
            case .failure(let error):
                return JSONResponse.error(.unprocessableContent, code: "bad_audio", message: error.description)
            }
        }
    }

    /// The name the sound goes by: the request's `name`, its last path component only (at most its
    /// last 100 characters, within any file system's limit), or `sound`.
    static func fileName(_ requested: String?) -> String {
        let last = String((requested ?? "").split(separator: "/").last?.suffix(100) ?? "")
        return last.isEmpty || last == "." || last == ".." ? "sound" : last
    }

    /// Writes the body to `file`; false when it passes `limit` bytes (the file is then incomplete).
    private static func store(_ body: RequestBody, to file: URL, limit: Int) async throws -> Bool {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var written = 0
        for try await buffer in body {
            written += buffer.readableBytes
            guard written <= limit else { return false }
            try handle.write(contentsOf: Data(buffer: buffer))
        }
        return true
    }

    private static func convert(_ file: URL) async -> Result<AudioConversion, AudioConversionError> {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(AudioConversionError) in
                        try AudioToHaptics.convert(contentsOf: file)
                    })
            }
        }
    }

    /// `{name, ahap, summary, report, waveform}`: the pattern as AHAP text, named after the sound.
    static func answer(_ conversion: AudioConversion, name: String) -> JSONValue {
        let stem = (name as NSString).deletingPathExtension
        let report = conversion.report
        let waveform = conversion.waveform
        let rounded = { (values: [Float]) -> JSONValue in
            .array(values.map { .number((Double($0) * 1000).rounded() / 1000) })
        }
        return [
            "name": .string("\(stem.isEmpty ? "sound" : stem).ahap"),
            "ahap": .string(String(decoding: AHAPWriter.data(for: conversion.pattern, pretty: true), as: UTF8.self)),
            "summary": .string("\(name): \(report.summary)"),
            "report": [
                "format": .string(report.format), "sampleRate": .int(report.sampleRate),
                "channels": .int(report.channels), "duration": .number(report.duration),
                "peak": .number(report.peak), "clippedSamples": .int(report.clippedSamples),
                "onsets": .array(report.onsets.map { ["time": .number($0.time), "strength": .number($0.strength)] }),
                "continuousEvents": .int(report.continuousEvents), "curves": .int(report.curves),
            ],
            "waveform": [
                "duration": .number(Double(waveform.maximums.count) * waveform.columnDuration),
                "min": rounded(waveform.minimums), "max": rounded(waveform.maximums),
            ],
        ]
    }
}
