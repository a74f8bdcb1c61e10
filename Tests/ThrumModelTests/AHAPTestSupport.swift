import Foundation
import Testing
import ThrumTesting

@testable import ThrumModel

/// Reads JSON text as a pattern file named `test.ahap`.
func readAHAP(_ json: String, mode: ValidationMode = .standard, limits: PatternLimits = .standard) -> PatternReadResult
{
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

/// Whether the corpus tests run (the corpus is there, or this is CI, where its absence fails them).
let corpusIsAvailable = Repository.runsCorpusTests

/// The corpus folder `name` (`ahap`, `haptic`); nil when the corpus is absent.
func corpusFolder(_ name: String) -> URL? {
    Repository.hasCorpus ? Repository.corpus.appendingPathComponent(name) : nil
}

func corpusFiles(_ name: String) -> [URL] { Repository.corpusFiles(name) }
