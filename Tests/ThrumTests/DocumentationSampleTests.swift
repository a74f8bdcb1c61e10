import Foundation
import Testing
import ThrumTesting

/// Every line of every Swift sample in the getting-started articles appears in the test that
/// compiles and runs it, so an article cannot show code that no longer builds.
@Suite("Documentation samples")
struct DocumentationSampleTests {
    struct Sample: Sendable, CustomStringConvertible {
        var article: String
        var test: String
        var description: String { article }
    }

    static let samples = [
        Sample(
            article: "Sources/Thrum/Thrum.docc/GettingStarted.md",
            test: "Tests/ThrumTests/GettingStartedSampleTests.swift"),
        Sample(
            article: "Sources/ThrumModel/ThrumModel.docc/GettingStarted.md",
            test: "Tests/ThrumModelTests/GettingStartedSampleTests.swift"),
        Sample(
            article: "Sources/ThrumCoreHaptics/ThrumCoreHaptics.docc/GettingStarted.md",
            test: "Tests/ThrumCoreHapticsTests/GettingStartedSampleTests.swift"),
        Sample(
            article: "Sources/ThrumTesting/ThrumTesting.docc/GettingStarted.md",
            test: "Tests/ThrumTests/ThrumTestingSampleTests.swift"),
    ]

    /// The lines of the article's ```swift blocks, trimmed, blank ones left out.
    static func sampleLines(of article: String) -> [String] {
        var lines: [String] = []
        var inSample = false
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inSample, trimmed == "```" {
                inSample = false
            } else if inSample {
                if !trimmed.isEmpty { lines.append(trimmed) }
            } else if trimmed == "```swift" {
                inSample = true
            }
        }
        return lines
    }

    @Test("the article's sample is in its test", arguments: samples)
    func sampleIsTested(_ sample: Sample) throws {
        let article = try String(contentsOf: Repository.url(sample.article), encoding: .utf8)
        let test = try String(contentsOf: Repository.url(sample.test), encoding: .utf8)
        let tested = Set(test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let lines = Self.sampleLines(of: article)
        #expect(!lines.isEmpty, "no Swift sample in \(sample.article)")
        for line in lines where !tested.contains(line) {
            Issue.record("\(sample.article): not in \(sample.test): \(line)")
        }
    }
}
