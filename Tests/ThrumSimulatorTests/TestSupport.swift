import Foundation
import ThrumModel

enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

    /// Every corpus pattern file, or nil (with a one-line message) when the corpus is absent.
    static func corpusFiles() -> [URL]? {
        var files: [URL] = []
        for folder in ["ahap", "haptic"] {
            let url = corpus.appendingPathComponent(folder)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
            files += names.sorted().map { url.appendingPathComponent($0) }
        }
        if files.isEmpty {
            print("skipped: no corpus at \(corpus.path)")
            return nil
        }
        return files
    }

    static func continuous(_ time: Double, _ duration: Double, _ parameters: [(EventParameterID, Float)]) -> HapticEvent {
        HapticEvent(.hapticContinuous, time: time, duration: duration, parameters: parameters.map { EventParameter($0.0, $0.1) })
    }
}
