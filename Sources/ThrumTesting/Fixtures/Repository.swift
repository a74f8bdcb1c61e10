import Foundation

/// The folders of this checkout that Thrum's own tests and benchmarks read, and the corpus of real
/// pattern files written by others. For Thrum's targets only (`package`): an app's tests have
/// folders of their own.
package enum Repository {
    /// The checkout: three folders above this file (Sources/ThrumTesting/Fixtures).
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Real AHAP and `.haptic` files by others, kept outside the repository (their licences are
    /// theirs): `THRUM_CORPUS`, else a `shared/corpus` folder beside the checkout, which CI lays
    /// there.
    package static let corpus: URL =
        ProcessInfo.processInfo.environment["THRUM_CORPUS"].map { URL(fileURLWithPath: $0) }
        ?? root.appendingPathComponent("../shared/corpus").standardizedFileURL

    package static var hasCorpus: Bool { FileManager.default.fileExists(atPath: corpus.path) }

    /// Whether tests that read the corpus run: when it is there, and always under CI (`CI` set),
    /// where a missing corpus must fail them rather than skip them.
    package static var runsCorpusTests: Bool { hasCorpus || ProcessInfo.processInfo.environment["CI"] != nil }

    /// The files of the corpus folders `kinds` (`ahap`, `haptic`), sorted; empty, with a note, when
    /// the corpus is absent (under CI: a failure for the caller to report, since `runsCorpusTests`
    /// let the test run).
    package static func corpusFiles(_ kinds: String...) -> [URL] {
        var files: [URL] = []
        for kind in kinds {
            let folder = corpus.appendingPathComponent(kind)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            files += names.filter { $0 != "PROVENANCE.tsv" }.sorted().map { folder.appendingPathComponent($0) }
        }
        if files.isEmpty { print("no corpus files at \(corpus.path) (\(kinds.joined(separator: ", ")))") }
        return files
    }

    /// The file as compact JSON (Foundation's serialiser after a tolerant read that drops trailing
    /// commas), for size comparisons.
    package static func minifiedJSON(_ url: URL) -> Data {
        guard let data = try? Data(contentsOf: url) else { return Data() }
        let cleaned = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #",(\s*[}\]])"#, with: "$1", options: .regularExpression)
        guard let object = try? JSONSerialization.jsonObject(with: Data(cleaned.utf8), options: [.fragmentsAllowed]),
            let compact = try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
        else { return data }
        return compact
    }

    /// The size of `gzip -9` of `data` (nil when gzip cannot run).
    package static func gzipSize(_ data: Data) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-9", "-c", "-n"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        // Written from a thread of its own: gzip's output pipe must be drained while it reads.
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
