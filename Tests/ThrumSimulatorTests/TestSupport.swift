import Foundation
import ThrumModel
import ThrumTesting

enum Fixtures {
    static let packageRoot = Repository.root

    /// Every corpus pattern file, or nil when the corpus is absent.
    static func corpusFiles() -> [URL]? {
        let files = Repository.corpusFiles("ahap", "haptic")
        return files.isEmpty ? nil : files
    }

    static func continuous(_ time: Double, _ duration: Double, _ parameters: [(EventParameterID, Float)]) -> HapticEvent
    {
        HapticEvent(
            .hapticContinuous, time: time, duration: duration, parameters: parameters.map { EventParameter($0.0, $0.1) }
        )
    }
}
