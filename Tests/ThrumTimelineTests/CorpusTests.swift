import Foundation
import Testing
import ThrumModel

@testable import ThrumTimeline

@Suite("Timeline over the shared corpus")
struct CorpusTests {
    @Test("every corpus pattern compiles, decodes, and round-trips within the quantisation bound")
    func everyPatternRoundTrips() throws {
        guard let corpus = Fixtures.corpusPatterns() else { return }
        #expect(corpus.count >= 80)
        for (name, pattern, _) in corpus {
            let bytes = try TimelineCompiler.compile(pattern)
            let timeline = try TimelineDecoder.decode(bytes)
            let problems = QuantisationBound.violations(original: pattern, decoded: timeline.toPattern())
            #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
        }
    }

    @Test("compactness: median ≥ 25× smaller than minified AHAP, smaller than gzip -9 on ≥ 95%")
    func compactness() throws {
        guard let corpus = Fixtures.corpusPatterns() else { return }
        var ratios: [Double] = []
        var smallerThanGzip = 0
        var compared = 0
        for (name, pattern, minified) in corpus {
            let size = try TimelineCompiler.compile(pattern).count
            ratios.append(Double(minified.count) / Double(size))
            if let gzip = Fixtures.gzipSize(minified) {
                compared += 1
                if size < gzip {
                    smallerThanGzip += 1
                } else {
                    print("not smaller than gzip -9: \(name) \(size) ≥ \(gzip)")
                }
            }
        }
        ratios.sort()
        let median =
            ratios.count % 2 == 1
            ? ratios[ratios.count / 2] : (ratios[ratios.count / 2 - 1] + ratios[ratios.count / 2]) / 2
        let share = compared == 0 ? 1 : Double(smallerThanGzip) / Double(compared)
        print(
            "timeline compactness over \(ratios.count) corpus files: median ratio \(median)×, smaller than gzip -9 on \(smallerThanGzip)/\(compared) (\(share * 100)%)"
        )
        #expect(median >= 25)
        #expect(compared > 0 && share >= 0.95)
    }
}

@Suite("Rendered error bound over the corpus")
struct CorpusRenderingTests {
    static let names = Fixtures.corpusNames()

    @Test("decoded corpus patterns render within the stated bound of the originals", arguments: names)
    func renderedWithinBound(_ name: String) throws {
        guard let pattern = Fixtures.corpusPattern(name) else { return }  // fragments are not patterns
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        let report = RenderingBound.check(original: pattern, decoded: decoded)
        #expect(
            report.passed,
            "\(name): \(report.worstLane) off by \(report.worstRatio)× the allowance at \(report.worstAt) s")
    }
}

@Suite("Timeline over the project's examples")
struct ExampleTests {
    static let names = Fixtures.exampleNames()

    @Test("the examples folder is there")
    func examplesPresent() {
        #expect(!Self.names.isEmpty)
    }

    @Test("every example compiles and round-trips within the structural and rendered bounds", arguments: names)
    func example(_ name: String) throws {
        let pattern = try PatternFile.load(contentsOf: Fixtures.examplesFolder.appendingPathComponent(name))
        let bytes = try TimelineCompiler.compile(pattern)
        let decoded = try TimelineDecoder.decode(bytes).toPattern()
        let problems = QuantisationBound.violations(original: pattern, decoded: decoded)
        #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
        let report = RenderingBound.check(original: pattern, decoded: decoded)
        #expect(
            report.passed,
            "\(name): \(report.worstLane) off by \(report.worstRatio)× the allowance at \(report.worstAt) s")
    }
}
