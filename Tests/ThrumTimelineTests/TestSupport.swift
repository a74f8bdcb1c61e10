import Foundation
import ThrumModel
import ThrumTesting

@testable import ThrumTimeline

/// Paths and loaders shared by the timeline tests.
enum Fixtures {
    static let packageRoot = Repository.root
    static let corpusFolder = Repository.corpus.appendingPathComponent("ahap")
    static let vectorsFolder = packageRoot.appendingPathComponent("Protocol/vectors/timeline")
    static let examplesFolder = packageRoot.appendingPathComponent("Examples")

    /// The project's own example patterns (always present, unlike the shared corpus).
    static func exampleNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examplesFolder.path)) ?? []).filter {
            $0.hasSuffix(".ahap")
        }.sorted()
    }

    /// Every full pattern in the AHAP corpus (fragments without `Pattern` are skipped), or nil
    /// when the corpus is absent (a fresh clone).
    static func corpusPatterns() -> [(name: String, pattern: HapticPattern, minifiedBytes: Data)]? {
        guard Repository.hasCorpus else { return nil }
        return corpusNames().compactMap { name in
            let url = corpusFolder.appendingPathComponent(name)
            guard let pattern = try? PatternFile.load(contentsOf: url) else { return nil }
            return (name, pattern, Repository.minifiedJSON(url))
        }
    }

    /// Names of the AHAP corpus files (empty, with a note, when the corpus is absent).
    static func corpusNames() -> [String] {
        Repository.corpusFiles("ahap").map(\.lastPathComponent).filter {
            $0.hasSuffix(".ahap") || $0.hasSuffix(".json")
        }
    }

    static func corpusPattern(_ name: String) -> HapticPattern? {
        try? PatternFile.load(contentsOf: corpusFolder.appendingPathComponent(name))
    }

    static func minified(_ url: URL) -> Data { Repository.minifiedJSON(url) }

    static func gzipSize(_ data: Data) -> Int? { Repository.gzipSize(data) }
}
