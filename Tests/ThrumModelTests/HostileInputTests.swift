import Foundation
import PropertyBased
import Testing

@testable import ThrumModel

/// Hostile input never crashes or hangs: it yields a pattern or at least one error naming what and where.
@Suite struct HostileInputTests {
    /// The contract every read must keep.
    static func expectPatternOrError(_ result: PatternReadResult, _ note: @autoclosure () -> String = "") {
        if result.pattern == nil {
            #expect(!result.diagnostics.errors.isEmpty, "\(note())")
        } else {
            #expect(result.diagnostics.errors.isEmpty, "\(note())")
        }
    }

    @Test func deepNestingStopsAtTheLimit() throws {
        let json = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        let result = readAHAP(json)
        #expect(result.pattern == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.message == "invalid JSON: nesting deeper than 64 levels")
        #expect(error.position == SourcePosition(line: 1, column: 65, offset: 64))
    }

    @Test func hugeStringsAreRejected() throws {
        let big = String(repeating: "x", count: (1 << 20) + 1)
        let result = readAHAP(
            #"{"Version": 1, "Metadata": {"Description": "\#(big)"}, "Pattern": [\#(transientElement)]}"#)
        #expect(
            result.lines(.error) == [
                "Metadata.Description: invalid JSON: a string of 1048577 bytes, more than the limit of 1048576"
            ])
        #expect(result.diagnostics.first?.position?.column == 44)
    }

    @Test func hugeNumbersAreRejected() throws {
        let digits = String(repeating: "9", count: 1000)
        let result = readAHAP(ahap(#"{"Event": {"Time": \#(digits), "EventType": "HapticTransient"}}"#))
        #expect(
            result.diagnostics.first?.message == "invalid JSON: a number of 1000 characters, more than the limit of 400"
        )
    }

    @Test func tooManyJSONValuesAreRejectedWhileParsing() throws {
        let limits = PatternLimits(maxJSONValues: 1000)
        let zeros = Array(repeating: "0", count: 5000).joined(separator: ",")
        let result = readAHAP(#"{"Version": 1, "Pattern": [\#(zeros)]}"#, limits: limits)
        let error = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1)
        #expect(error.message == "invalid JSON: the file holds more than 1000 JSON values, more than the limit")
        #expect(error.position?.column == 27 + 2 * 996)
    }

    @Test func tooManyElementsAreRejected() {
        let limits = PatternLimits(maxPatternElements: 10)
        let elements = Array(repeating: transientElement, count: 11)
        let result = readAHAP("{\"Version\": 1, \"Pattern\": [\(elements.joined(separator: ","))]}", limits: limits)
        #expect(result.lines(.error) == ["Pattern: the pattern has 11 elements, more than the limit of 10"])
    }

    @Test func tooManyControlPointsAreRejected() {
        let limits = PatternLimits(maxControlPoints: 3)
        let points = Array(repeating: #"{"Time": 0, "ParameterValue": 0}"#, count: 4).joined(separator: ",")
        let result = readAHAP(
            ahap(
                #"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [\#(points)]}}"#
            ),
            limits: limits)
        #expect(
            result.lines(.error) == [
                "Pattern[0].ParameterCurve.ParameterCurveControlPoints: a curve of 4 control points, more than the limit of 3"
            ])
    }

    @Test func filesOverTheSizeLimitAreRejectedBeforeParsing() {
        let limits = PatternLimits(maxFileBytes: 100)
        let result = readAHAP(String(repeating: " ", count: 101) + "{}", limits: limits)
        #expect(result.lines(.error) == ["(root): the file is 103 bytes, more than the limit of 100 bytes"])
    }

    @Test func aLargeValidFileReadsQuickly() throws {
        // 20,000 events (≈ 2.6 MB); the 1,000,000-event figures come from thrum-bench.
        let data = SyntheticAHAP.make(events: 20_000, seed: 1)
        let result = PatternFile.read(data: data, name: "big.ahap")
        #expect(result.pattern?.events.count == 20_000)
    }

    @Test func wrongTypesEverywhereGiveErrorsNotCrashes() {
        let values = ["null", "true", "0", "-1", "\"x\"", "[]", "{}", "[[]]", "1e308", "\"1e400\""]
        let shapes = [
            #"{"Version": V, "Pattern": [\#(transientElement)]}"#,
            #"{"Version": 1, "Metadata": V, "Pattern": [\#(transientElement)]}"#,
            #"{"Version": 1, "Pattern": V}"#,
            #"{"Version": 1, "Pattern": [V]}"#,
            #"{"Version": 1, "Pattern": [{"Event": V}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": V, "EventType": "HapticTransient"}}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": V}}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": V}}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": V}}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [V]}}]}"#,
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": V, "ParameterValue": 1}]}}]}"#,
            #"{"Version": 1, "Pattern": [{"Parameter": V}]}"#,
            #"{"Version": 1, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": V}}]}"#,
            #"{"Version": 1, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [V]}}]}"#,
            #"{"version": V, "signals": {}}"#,
            #"{"version": {"major": 1}, "signals": V}"#,
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": V}}}}"#,
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [V]}}}}"#,
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": V, "amplitude": V}]}}}}"#,
            #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.5, "emphasis": V}]}}}}"#,
            #"{"voices": V}"#,
            #"{"voices": {"envelopes": V}}"#,
            #"{"voices": {"envelopes": [V]}}"#,
            #"{"metadata": {"duration": V}, "voices": {"envelopes": [[{"time": 0, "amplitude": 1}]], "transients": V}}"#,
            #"{"voices": {"envelopes": [[{"time": 0, "amplitude": 1}]], "transients": [V, V]}}"#,
        ]
        for shape in shapes {
            for value in values {
                let json = shape.replacingOccurrences(of: "V", with: value)
                for mode in [ValidationMode.standard, .strict] {
                    Self.expectPatternOrError(readAHAP(json, mode: mode), json)
                }
            }
        }
    }

    @Test func randomBytesNeverCrash() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-truefalsnPatnEvTime"#.utf8) + [0, 0xFF, 0xC3, 0x0A]
            let length = Int.random(in: 0...200, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random)
                    ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            Self.expectPatternOrError(PatternFile.read(data: Data(bytes), name: "random"), "seed \(seed)")
        }
    }

    @Test func mutatedCorpusFilesNeverCrash() async throws {
        let files = (corpusFiles("ahap") + corpusFiles("haptic")).compactMap { try? Data(contentsOf: $0) }
        let seeds = files.isEmpty ? [Data(ahap(transientElement).utf8)] : files
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            var bytes = [UInt8](seeds.randomElement(using: &random)!)
            for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&bytes, using: &random) }
            for mode in [ValidationMode.standard, .strict] {
                Self.expectPatternOrError(
                    PatternFile.read(data: Data(bytes), name: "mutant", mode: mode), "seed \(seed)")
            }
        }
    }

    private func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else { return bytes = [UInt8(ascii: "{")] }
        let position = Int.random(in: 0..<bytes.count, using: &random)
        let interesting = Array(#"{}[],:"-0.9e"#.utf8) + Array(" -1 1e999 null \"x\" ".utf8)
        switch Int.random(in: 0...5, using: &random) {
        case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
        case 1: bytes[position] = interesting.randomElement(using: &random)!
        case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...50, using: &random)))
        case 3:
            let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
        case 4:
            let replacements = ["-1", "1e999", "null", "\"\"", "[]", "{}", "NaN", "\"HapticTransient\"", "123456789"]
            bytes.insert(contentsOf: Array(replacements.randomElement(using: &random)!.utf8), at: position)
        default: bytes.removeSubrange(position...)
        }
    }
}
