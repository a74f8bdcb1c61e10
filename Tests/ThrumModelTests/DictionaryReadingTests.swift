import Foundation
import PropertyBased
import Testing

@testable import ThrumModel

/// `PatternFile.read(dictionary:)` (what `CHHapticPattern(dictionary:)` calls) gives the pattern of
/// the AHAP text whichever way a client built the dictionary: Swift literals, JSONSerialization,
/// PropertyListSerialization or NSDictionary. Random patterns put exact 0s and 1s everywhere (event
/// times, parameter values, control points), which Foundation's number objects on Linux would
/// also cast to `Bool`.
@Suite struct DictionaryReadingTests {
    @Test func everyWayOfBuildingADictionaryReadsAsTheText() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int.max)) { seed in
            let pattern = RandomPattern.make(seed: UInt64(seed))
            let text = AHAPWriter.data(for: pattern, pretty: false)
            let ways = Self.dictionaries(from: text)
            #expect(ways.count == 5, "seed \(seed)")
            for (way, dictionary) in ways {
                let result = PatternFile.read(dictionary: dictionary)
                #expect(result.diagnostics.isEmpty, "seed \(seed), \(way): \(result.diagnostics)")
                // Foundation's JSON parser on Linux can be a unit in the last place off, so times
                // are compared to within a nanosecond; everything else exactly.
                #expect(result.pattern.map(Self.shape) == Self.shape(pattern), "seed \(seed), \(way)")
                let times = result.pattern.map(Self.times) ?? []
                #expect(times.count == Self.times(pattern).count, "seed \(seed), \(way)")
                #expect(
                    zip(times, Self.times(pattern)).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) },
                    "seed \(seed), \(way)")
            }
        }
    }

    @Test func numbersZeroAndOneFromJSONSerializationAreNumbers() throws {
        let text =
            #"{"Version": 1, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}]}}, {"Event": {"Time": 1, "EventType": "HapticTransient"}}]}"#
        let dictionary = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let result = PatternFile.read(dictionary: dictionary)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.pattern?.events.map(\.time) == [0, 1])
    }

    @Test func booleansStayBooleans() throws {
        // `EventWaveformLoopEnabled` is a boolean; a number there is a type error the reader names.
        for value: Any in [
            true, NSNumber(value: true), try JSONSerialization.jsonObject(with: Data("[true]".utf8)) as! [Any],
        ] {
            let flag = (value as? [Any])?.first ?? value
            let dictionary: [String: Any] = [
                "Pattern": [
                    [
                        "Event": [
                            "Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "a.wav",
                            "EventWaveformLoopEnabled": flag,
                        ]
                    ]
                ]
            ]
            let result = PatternFile.read(dictionary: dictionary)
            #expect(result.pattern?.events.first?.waveform?.loopEnabled == true, "\(type(of: flag))")
        }
    }

    /// Everything but the numbers' last digits: event types, parameters and their values (as
    /// `Float`, which a last-place error in a `Double` does not reach), counts.
    static func shape(_ pattern: HapticPattern) -> [String] {
        pattern.events.map { event in "\(event.type) \(event.parameters) \(event.waveform.map { "\($0)" } ?? "")" }
            + pattern.parameters.map { "\($0.id) \($0.value)" }
            + pattern.parameterCurves.map { "\($0.id) \($0.controlPoints.map(\.value))" }
    }

    static func times(_ pattern: HapticPattern) -> [Double] {
        pattern.events.flatMap { [$0.time, $0.duration] } + pattern.parameters.map(\.time)
            + pattern.parameterCurves.flatMap { [$0.time] + $0.controlPoints.map(\.time) }
    }

    /// The AHAP text as a dictionary, built each way a client builds one.
    static func dictionaries(from text: Data) -> [(String, [String: Any])] {
        guard let json = try? JSONSerialization.jsonObject(with: text) as? [String: Any] else { return [] }
        var ways: [(String, [String: Any])] = [("JSONSerialization", json)]
        if let native = swiftValues(json, integralAsInt: false) as? [String: Any] {
            ways.append(("Swift literals", native))
        }
        if let native = swiftValues(json, integralAsInt: true) as? [String: Any] {
            ways.append(("Swift literals, integer numbers", native))
        }
        if let data = try? PropertyListSerialization.data(fromPropertyList: json, format: .binary, options: 0),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        {
            ways.append(("PropertyListSerialization", plist))
        }
        if let bridged = NSDictionary(dictionary: json) as? [String: Any] { ways.append(("NSDictionary", bridged)) }
        return ways
    }

    /// What a Swift literal holds: `Double` (or `Int` for whole numbers) and `Bool`, not
    /// Foundation's number objects.
    static func swiftValues(_ value: Any, integralAsInt: Bool) -> Any {
        switch value {
        case let dictionary as [String: Any]:
            return dictionary.mapValues { swiftValues($0, integralAsInt: integralAsInt) }
        case let array as [Any]: return array.map { swiftValues($0, integralAsInt: integralAsInt) }
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            if String(cString: number.objCType) == "c" { return number.boolValue }
            let double = number.doubleValue
            if integralAsInt, double.rounded() == double, abs(double) < 1e15 { return Int(double) }
            return double
        default: return value
        }
    }
}
