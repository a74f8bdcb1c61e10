import Foundation
import ThrumAudioAnalysis

/// `thrum convert`'s analysis on a synthetic drum loop over a tone, stereo 44.1 kHz 16-bit WAV:
/// real-time factor on 3 minutes, and peak memory on 3 and 12 minutes, each converted in a child
/// process (this executable again, with `THRUM_BENCH_CONVERT_FILE` set) so the kernel's peak for
/// that child alone is the analysis's own.
var convertSuite: Suite {
    Suite(name: "convert", summary: "audio -> pattern: real-time factor (3 min stereo 44.1 kHz), peak memory vs length")
    {
        if let path = ProcessInfo.processInfo.environment[ConvertBench.childVariable] {
            _ = try AudioToHaptics.convert(contentsOf: URL(fileURLWithPath: path))
            return []
        }
        return try ConvertBench.parent()
    }
}

enum ConvertBench {
    static let childVariable = "THRUM_BENCH_CONVERT_FILE"
    static let rate = 44_100

    static func parent() throws -> [Metric] {
        let short = try run(minutes: 3)
        let long = try run(minutes: 12)
        let megabyte = 1024.0 * 1024.0
        return [
            Metric(name: "convert.realtime_factor", value: 180 / short.seconds, unit: "x", goal: .atLeast(200)),
            Metric(
                name: "convert.peak_memory_3min", value: Double(short.peakResidentBytes) / megabyte, unit: "MiB",
                goal: .none),
            Metric(
                name: "convert.peak_memory_12min", value: Double(long.peakResidentBytes) / megabyte, unit: "MiB",
                goal: .none),
            // Four times the sound, the same memory: at most 10 % more (the pattern itself grows).
            Metric(
                name: "convert.peak_memory_growth_4x_length",
                value: Double(long.peakResidentBytes) / Double(short.peakResidentBytes), unit: "ratio",
                goal: .atMost(1.1)),
        ]
    }

    /// Writes `minutes` of the loop, converts it in a child, and removes the file.
    static func run(minutes: Int) throws -> ChildRun {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "thrum-bench-\(getpid())-\(minutes).wav")
        try writeLoop(to: url, seconds: minutes * 60)
        defer { try? FileManager.default.removeItem(at: url) }
        setenv(childVariable, url.path, 1)
        defer { unsetenv(childVariable) }
        let child = try ChildRun.run(CommandLine.arguments[0], ["convert"])
        guard child.exitStatus == 0 else { throw ConvertBenchError.childFailed(child.exitStatus) }
        return child
    }

    /// 16-bit stereo PCM WAV, written a second at a time: kick and noise hits at 120 bpm over a
    /// slowly swelling 110 Hz tone, the right channel slightly quieter.
    static func writeLoop(to url: URL, seconds: Int) throws {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        let dataBytes = UInt32(seconds * rate * 4)
        var header = Data("RIFF".utf8)
        header += le32(36 + dataBytes) + Data("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2) + le32(UInt32(rate))
        header += le32(UInt32(rate * 4)) + le16(4) + le16(16) + Data("data".utf8) + le32(dataBytes)
        file.write(header)
        var noise: UInt64 = 0x2545_F491_4F6C_DD1D
        for second in 0..<seconds {
            // Interleaved samples, written as the little-endian bytes WAV stores (the host's order here).
            var block = [Int16](repeating: 0, count: rate * 2)
            for index in 0..<rate {
                let time = Double(second) + Double(index) / Double(rate)
                let sinceBeat = time.truncatingRemainder(dividingBy: 0.5)
                noise ^= noise << 13
                noise ^= noise >> 7
                noise ^= noise << 17
                let white = Double(noise >> 11) / Double(1 << 52) - 1
                let hit = exp(-sinceBeat / 0.05) * (0.6 * sin(2 * .pi * 70 * sinceBeat) + 0.3 * white)
                let tone = 0.2 * (0.6 + 0.4 * sin(2 * .pi * 0.25 * time)) * sin(2 * .pi * 110 * time)
                block[2 * index] = Int16(max(-1, min(1, hit + tone)) * 32_000).littleEndian
                block[2 * index + 1] = Int16(max(-1, min(1, 0.8 * (hit + tone))) * 32_000).littleEndian
            }
            file.write(block.withUnsafeBytes { Data($0) })
        }
    }

    private static func le32(_ value: UInt32) -> Data {
        Data((0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }
    private static func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
}

enum ConvertBenchError: Error, CustomStringConvertible {
    case childFailed(Int32)
    var description: String {
        switch self {
        case .childFailed(let status): return "the converting child exited with status \(status)"
        }
    }
}
