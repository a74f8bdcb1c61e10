import Foundation
import PropertyBased
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting

/// SEMANTICS.md §10: the firmware (through the simulator's trace) against the reference renderer.
/// A mismatch names the pattern, the lane, the instant and both values.
@Suite struct DifferentialTests {
    @Test func examplesMatchTheReference() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Examples")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where name.hasSuffix(".ahap") {
            let pattern = try PatternFile.load(contentsOf: folder.appendingPathComponent(name))
            let report = try DifferentialComparison.compare(pattern, name: name)
            #expect(report.passed, "\(report)")
        }
    }

    /// Every corpus file, rendered over its first 8 s (long files would only repeat the same
    /// rules for minutes) at 1 kHz.
    @Test(.enabled(if: Repository.runsCorpusTests, "no corpus of real pattern files beside the checkout"))
    func corpusMatchesTheReference() throws {
        let files = try #require(Fixtures.corpusFiles())
        var worst: [DifferentialReport] = []
        for file in files {
            guard let pattern = try? PatternFile.load(contentsOf: file) else { continue }
            let report = try DifferentialComparison.compare(pattern, name: file.lastPathComponent, maximumSeconds: 8)
            #expect(report.passed, "\(report)")
            worst.append(report)
        }
        #expect(worst.count > 50, "most corpus files load")
        if let intensity = worst.max(by: { $0.intensity.value < $1.intensity.value }),
            let sharpness = worst.max(by: { $0.sharpness.value < $1.sharpness.value })
        {
            print(
                "differential corpus: \(worst.count) files; worst intensity \(intensity); worst sharpness \(sharpness)")
        }
    }

    @Test func randomPatternsMatchTheReference() async {
        await propertyCheck(count: 60, input: RandomPatterns.generator) { pattern in
            let report = try DifferentialComparison.compare(pattern, name: "random pattern \(pattern)")
            #expect(report.passed, "\(report)")
        }
    }

    /// A slower tick rate renders the same instants of the same functions (SEMANTICS.md §1.2).
    @Test(arguments: [250, 500, 2000])
    func otherTickRatesMatchTheReference(tickRate: Int) throws {
        let pattern = try PatternFile.load(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Examples/splash.ahap"))
        let report = try DifferentialComparison.compare(pattern, name: "splash at \(tickRate) Hz", tickRate: tickRate)
        #expect(report.ticks > 100)
        #expect(report.passed, "\(report)")
    }

    /// The comparison is not vacuous: a firmware lane off by 0.02 fails it and says where.
    @Test func aMismatchIsReportedWithWhereAndHowMuch() throws {
        let pattern = HapticPattern(events: [Fixtures.continuous(0.1, 0.3, [(.hapticIntensity, 0.8)])])
        let report = try DifferentialComparison.compare(
            pattern, name: "offset",
            perturb: { lanes in
                for index in 200..<220 { lanes.intensity[index] += 0.02 }
            })
        #expect(!report.passed)
        #expect(abs(report.intensity.value - 0.02) < 0.001)
        #expect(abs(report.intensity.time - 0.2) < 0.0011)
        #expect(report.description.contains("t=0.2"))
    }
}
