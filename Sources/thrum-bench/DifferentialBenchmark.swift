import Foundation
import ThrumModel
import ThrumSimulator
import ThrumTesting

/// `thrum-bench differential`: the reference firmware (in the board simulator) against the Swift
/// reference renderer (SEMANTICS.md §10) over the examples, every corpus file (when
/// the corpus is present) and seeded random patterns, at 1 kHz. The worst figures against
/// the bound: 0.01 in value after a timing allowance of one tick.
var differentialSuite: Suite {
    Suite(
        name: "differential",
        summary: "firmware (simulator trace) vs reference renderer: worst intensity, sharpness and timing error"
    ) {
        var files: [URL] = []
        let examples = Repository.url("Examples")
        files += ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).sorted().map {
            examples.appendingPathComponent($0)
        }
        files += Repository.corpusFiles("ahap", "haptic")
        var patterns: [(String, HapticPattern)] = files.compactMap { file in
            (try? PatternFile.load(contentsOf: file)).map { (file.lastPathComponent, $0) }
        }
        for seed in 0..<200 as Range<UInt64> {
            patterns.append(("random seed \(seed)", SyntheticAHAP.pattern(events: 1 + Int(seed % 24), seed: seed)))
        }

        var worst = (
            intensity: DifferentialReport?.none, sameTick: DifferentialReport?.none,
            sharpness: DifferentialReport?.none, timing: DifferentialReport?.none
        )
        var ticks = 0, failures = 0
        let started = Date()
        for (name, pattern) in patterns {
            let report = try DifferentialComparison.compare(pattern, name: name, maximumSeconds: 60)
            ticks += report.ticks
            if !report.passed {
                failures += 1
                print("# differential: \(report)")
            }
            if report.intensity.value >= worst.intensity?.intensity.value ?? -1 { worst.intensity = report }
            if report.intensitySameTick.value >= worst.sameTick?.intensitySameTick.value ?? -1 {
                worst.sameTick = report
            }
            if report.sharpness.value >= worst.sharpness?.sharpness.value ?? -1 { worst.sharpness = report }
            if report.timing.value >= worst.timing?.timing.value ?? -1 { worst.timing = report }
        }
        let seconds = Date().timeIntervalSince(started)
        for (label, report) in [
            ("intensity", worst.intensity), ("same tick", worst.sameTick), ("sharpness", worst.sharpness),
            ("timing", worst.timing),
        ] {
            if let report { print("# differential worst \(label): \(report)") }
        }
        let bound = Double(DifferentialReport.valueBound)
        return [
            Metric(name: "differential.patterns", value: Double(patterns.count), unit: "patterns", goal: .none),
            Metric(name: "differential.ticks_compared", value: Double(ticks), unit: "ticks", goal: .none),
            Metric(
                name: "differential.intensity_max_error", value: Double(worst.intensity?.intensity.value ?? 0),
                unit: "intensity", goal: .atMost(bound)),
            Metric(
                name: "differential.intensity_same_tick_max_error",
                value: Double(worst.sameTick?.intensitySameTick.value ?? 0), unit: "intensity", goal: .none),
            Metric(
                name: "differential.sharpness_max_error", value: Double(worst.sharpness?.sharpness.value ?? 0),
                unit: "sharpness", goal: .atMost(bound)),
            Metric(
                name: "differential.timing_max_error", value: Double(worst.timing?.timing.value ?? 0) * 1000,
                unit: "ms",
                goal: .atMost(Double(DifferentialReport.timingBoundTicks))),
            Metric(
                name: "differential.patterns_outside_bound", value: Double(failures), unit: "patterns", goal: .atMost(0)
            ),
            Metric(
                name: "differential.simulated_ticks_per_second", value: Double(ticks) / max(seconds, 1e-9),
                unit: "ticks/s", goal: .none),
        ]
    }
}
