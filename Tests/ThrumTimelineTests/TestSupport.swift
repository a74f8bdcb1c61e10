import Foundation
import ThrumModel
@testable import ThrumTimeline

/// Paths and loaders shared by the timeline tests.
enum Fixtures {
    /// The package root, found from this file's path (Tests/ThrumTimelineTests/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let corpusFolder = packageRoot.appendingPathComponent("../shared/corpus/ahap").standardizedFileURL
    static let vectorsFolder = packageRoot.appendingPathComponent("Protocol/vectors/timeline")
    static let examplesFolder = packageRoot.appendingPathComponent("Examples")

    /// The project's own example patterns (always present, unlike the shared corpus).
    static func exampleNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examplesFolder.path)) ?? []).filter { $0.hasSuffix(".ahap") }.sorted()
    }

    /// Every full pattern in the shared AHAP corpus (fragments without `Pattern` are skipped),
    /// or nil with a one-line note when the corpus is absent (a fresh clone).
    static func corpusPatterns() -> [(name: String, pattern: HapticPattern, minifiedBytes: Data)]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path) else {
            print("skipping corpus checks: \(corpusFolder.path) is absent")
            return nil
        }
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".ahap") || name.hasSuffix(".json") else { return nil }
            let url = corpusFolder.appendingPathComponent(name)
            guard let pattern = try? PatternFile.load(contentsOf: url) else { return nil }
            return (name, pattern, minified(url))
        }
    }

    /// Names of the corpus files (empty, with a note, when the corpus is absent).
    static func corpusNames() -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpusFolder.path) else {
            print("skipping corpus checks: \(corpusFolder.path) is absent")
            return []
        }
        return names.filter { $0.hasSuffix(".ahap") || $0.hasSuffix(".json") }.sorted()
    }

    static func corpusPattern(_ name: String) -> HapticPattern? {
        try? PatternFile.load(contentsOf: corpusFolder.appendingPathComponent(name))
    }

    /// The file as compact JSON (Foundation's serialiser after a tolerant read), for size comparisons.
    static func minified(_ url: URL) -> Data {
        guard let data = try? Data(contentsOf: url) else { return Data() }
        let cleaned = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #",(\s*[}\]])"#, with: "$1", options: .regularExpression)
        guard let object = try? JSONSerialization.jsonObject(with: Data(cleaned.utf8), options: [.fragmentsAllowed]),
              let compact = try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
        else { return data }
        return compact
    }

    /// `gzip -9` size through /bin/gzip (nil when it cannot run).
    static func gzipSize(_ data: Data) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-9", "-c", "-n"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? compressed.count : nil
    }
}
