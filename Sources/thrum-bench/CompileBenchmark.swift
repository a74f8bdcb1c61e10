import Foundation
import ThrumModel
import ThrumTesting
import ThrumTimeline

/// Scale of the timeline pipeline on a synthetic AHAP of 1,000,000 events (release build):
/// parse, read + validate, compile throughput, and peak memory against the file size; plus the
/// compactness figures over the shared corpus when it is present.
///
/// The pipeline runs in a child process (this executable again, with `THRUM_BENCH_COMPILE_FILE`
/// set), so its peak resident memory is measured from a clean start rather than polluted by
/// generating the file.
var compileSuite: Suite {
    Suite(name: "compile", summary: "AHAP parse/validate/compile of 1M events, peak memory, compactness") {
        if let path = ProcessInfo.processInfo.environment[CompileBench.childVariable] {
            return try CompileBench.pipeline(path: path)
        }
        return try CompileBench.parent() + CompileBench.compactness()
    }
}

enum CompileBench {
    static let childVariable = "THRUM_BENCH_COMPILE_FILE"
    static let eventCount = 1_000_000

    /// Writes the synthetic file, runs the pipeline in a child, and relays its figures.
    static func parent() throws -> [Metric] {
        let data = SyntheticAHAP.make(events: eventCount, seed: 1)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-bench-\(getpid()).ahap")
        try data.write(to: url)
        defer {
            if ProcessInfo.processInfo.environment["THRUM_BENCH_KEEP"] == nil {
                try? FileManager.default.removeItem(at: url)
            }
        }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["compile"]
        child.environment = ProcessInfo.processInfo.environment.merging([childVariable: url.path]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let metrics = text.split(separator: "\n").compactMap(Metric.init(line:))
        guard !metrics.isEmpty else {
            return [
                Metric(
                    name: "compile.child_failed", value: Double(child.terminationStatus), unit: "status",
                    goal: .atMost(0))
            ]
        }
        return metrics + (try WholeCompileBench.run(file: url, fileBytes: data.count))
    }

    /// The measured pipeline, in the child.
    static func pipeline(path: String) throws -> [Metric] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let events = Double(eventCount)
        var pattern: HapticPattern?
        var bytes: [UInt8] = []

        let parse = seconds { _ = PatternFile.checkSyntax(data: data) }
        let read = seconds { pattern = PatternFile.read(data: data, name: "synthetic.ahap").pattern }
        guard let pattern else { throw CompileBenchError.unreadable }
        let validate = seconds { _ = PatternValidator.validate(pattern) }
        let compile = try secondsThrowing { bytes = try TimelineCompiler.compile(pattern) }
        var timeline: Timeline?
        let decode = try secondsThrowing { timeline = try TimelineDecoder.decode(bytes) }
        let peak = peakResidentBytes()

        return [
            Metric(name: "compile.file_bytes", value: Double(data.count), unit: "bytes", goal: .none),
            Metric(
                name: "compile.parse_events_per_s", value: (events / parse).rounded(), unit: "events/s", goal: .none),
            Metric(name: "compile.parse_mb_per_s", value: Double(data.count) / parse / 1e6, unit: "MB/s", goal: .none),
            Metric(
                name: "compile.read_validate_events_per_s", value: (events / read).rounded(), unit: "events/s",
                goal: .none),
            Metric(
                name: "compile.validate_events_per_s", value: (events / validate).rounded(), unit: "events/s",
                goal: .none),
            Metric(
                name: "compile.compile_events_per_s", value: (events / compile).rounded(), unit: "events/s",
                goal: .atLeast(1_000_000)),
            Metric(
                name: "compile.decode_events_per_s", value: (events / decode).rounded(), unit: "events/s", goal: .none),
            Metric(name: "compile.timeline_bytes", value: Double(bytes.count), unit: "bytes", goal: .none),
            Metric(
                name: "compile.timeline_keyframes", value: Double(timeline?.keyframes.count ?? 0), unit: "count",
                goal: .none),
            Metric(
                name: "compile.peak_memory_over_file_size", value: Double(peak) / Double(data.count), unit: "ratio",
                goal: .atMost(10)),
        ]
    }

    /// Median minified-AHAP / timeline size and the share of files smaller than `gzip -9` of the
    /// minified AHAP, over the AHAP corpus (skipped when absent).
    static func compactness() throws -> [Metric] {
        var ratios: [Double] = []
        var smaller = 0
        for url in Repository.corpusFiles("ahap") where url.pathExtension == "ahap" || url.pathExtension == "json" {
            guard let pattern = try? PatternFile.load(contentsOf: url) else { continue }
            let size = try TimelineCompiler.compile(pattern).count
            let minified = Repository.minifiedJSON(url)
            ratios.append(Double(minified.count) / Double(size))
            if let gzip = Repository.gzipSize(minified), size < gzip { smaller += 1 }
        }
        guard !ratios.isEmpty else { return [] }
        ratios.sort()
        let median =
            ratios.count % 2 == 1
            ? ratios[ratios.count / 2] : (ratios[ratios.count / 2 - 1] + ratios[ratios.count / 2]) / 2
        return [
            Metric(name: "compile.corpus_median_ahap_over_timeline", value: median, unit: "ratio", goal: .atLeast(25)),
            Metric(
                name: "compile.corpus_share_smaller_than_gzip9", value: Double(smaller) / Double(ratios.count),
                unit: "share", goal: .atLeast(0.95)),
        ]
    }

    static func seconds(_ work: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(work)
        return max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }

    static func secondsThrowing(_ work: () throws -> Void) throws -> Double {
        var failure: Error?
        let time = seconds {
            do { try work() } catch { failure = error }
        }
        if let failure { throw failure }
        return time
    }

    /// Peak resident set size of this process (`ru_maxrss`, kilobytes on Linux, bytes on macOS).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }
}

enum CompileBenchError: Error {
    case unreadable
}

extension Metric {
    /// Reads back a printed `METRIC name value unit target …` line (the child's output).
    init?(line: Substring) {
        let fields = line.split(separator: " ")
        guard fields.count >= 6, fields[0] == "METRIC", let value = Double(fields[2]) else { return nil }
        let target = fields[5]
        let goal: Goal
        if target.hasPrefix(">="), let limit = Double(target.dropFirst(2)) {
            goal = .atLeast(limit)
        } else if target.hasPrefix("<="), let limit = Double(target.dropFirst(2)) {
            goal = .atMost(limit)
        } else {
            goal = .none
        }
        self.init(name: String(fields[1]), value: value, unit: String(fields[3]), goal: goal)
    }
}
