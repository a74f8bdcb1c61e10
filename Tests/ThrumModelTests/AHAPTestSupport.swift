import Foundation
import Testing
@testable import ThrumModel

/// Reads JSON text as a pattern file named `test.ahap`.
func readAHAP(_ json: String, mode: ValidationMode = .standard, limits: PatternLimits = .standard) -> PatternReadResult {
    PatternFile.read(data: Data(json.utf8), name: "test.ahap", mode: mode, limits: limits)
}

/// Wraps pattern elements in a minimal valid AHAP document.
func ahap(_ elements: String...) -> String {
    "{\"Version\": 1.0, \"Pattern\": [\(elements.joined(separator: ","))]}"
}

let transientElement = #"{"Event": {"Time": 0.0, "EventType": "HapticTransient"}}"#

extension PatternReadResult {
    /// `location: message` of every diagnostic with the given severity.
    func lines(_ severity: Diagnostic.Severity) -> [String] {
        diagnostics.filter { $0.severity == severity }.map { "\($0.location): \($0.message)" }
    }

    var errorLocations: [String] { diagnostics.errors.map { "\($0.location)" } }
    var warningLocations: [String] { diagnostics.warnings.map { "\($0.location)" } }
}

/// The package root, found from this file's path (Tests/ThrumModelTests/<file>).
func packageRoot(_ file: String = #filePath) -> URL {
    URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Whether ../shared/corpus exists next to the package; tests that need it are skipped otherwise.
let corpusIsAvailable = FileManager.default.fileExists(
    atPath: packageRoot().appendingPathComponent("../shared/corpus").standardizedFileURL.path)

/// The shared corpus folder, or nil (with a one-line note) when this checkout has none.
func corpusFolder(_ name: String) -> URL? {
    let folder = packageRoot().appendingPathComponent("../shared/corpus/\(name)").standardizedFileURL
    guard FileManager.default.fileExists(atPath: folder.path) else {
        print("skipping: no corpus at \(folder.path)")
        return nil
    }
    return folder
}

func corpusFiles(_ name: String) -> [URL] {
    guard let folder = corpusFolder(name) else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0 != "PROVENANCE.tsv" }.sorted().map { folder.appendingPathComponent($0) }
}
