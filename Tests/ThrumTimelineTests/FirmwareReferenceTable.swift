import Foundation
import Testing
import ThrumModel

@testable import ThrumTimeline

/// The firmware's comparison table: patterns compiled to timelines and rendered by the reference
/// renderer at 1 kHz (the firmware's tick) from the *decoded* timeline, so the C tests in
/// Firmware-ref/ compare fixed point against float with quantisation taken out.
/// `THRUM_WRITE_FIRMWARE_TABLE=1 swift test --filter FirmwareReferenceTable` rewrites the header;
/// otherwise this test fails when the committed header is stale.
@Suite struct FirmwareReferenceTable {
    static let headerURL = Fixtures.packageRoot.appendingPathComponent(
        "Firmware-ref/tests/generated/reference_renders.h")

    struct Case {
        var name: String
        var pattern: HapticPattern
        var rate: Float = 1
        var loopEnd: Double?
        var seconds: Double?
    }

    static func continuous(_ time: Double, _ duration: Double, _ parameters: [(EventParameterID, Float)]) -> HapticEvent
    {
        HapticEvent(
            .hapticContinuous, time: time, duration: duration, parameters: parameters.map { EventParameter($0.0, $0.1) }
        )
    }

    static func transient(_ time: Double, _ parameters: [(EventParameterID, Float)]) -> HapticEvent {
        HapticEvent(.hapticTransient, time: time, parameters: parameters.map { EventParameter($0.0, $0.1) })
    }

    static var cases: [Case] {
        var list: [Case] = [
            Case(
                name: "transient",
                pattern: HapticPattern(events: [transient(0.1, [(.hapticIntensity, 0.8), (.hapticSharpness, 0.3)])])),
            Case(
                name: "attack-release",
                pattern: HapticPattern(events: [
                    continuous(0.1, 0.3, [(.hapticIntensity, 0.8), (.attackTime, 0.5), (.releaseTime, 0.25)])
                ])),
            Case(
                name: "attack-decay",
                pattern: HapticPattern(events: [
                    continuous(
                        0, 1, [(.hapticIntensity, 0.6), (.attackTime, 0.25), (.decayTime, 0.5), (.sustained, 0)])
                ])),
            Case(
                name: "drums-decay",
                pattern: HapticPattern(events: [
                    continuous(0, 1, [(.hapticIntensity, 0.45), (.decayTime, 1), (.sustained, 0)])
                ])),
            Case(name: "zero-duration", pattern: HapticPattern(events: [continuous(0, 0, [(.releaseTime, 0.5)])])),
            Case(
                name: "curve",
                pattern: HapticPattern(
                    events: [continuous(0, 4, [(.hapticIntensity, 1)])],
                    parameterCurves: [
                        ParameterCurve(
                            .hapticIntensityControl, time: 1,
                            controlPoints: [
                                ControlPoint(time: 0.5, value: 0.2), ControlPoint(time: 1, value: 1),
                                ControlPoint(time: 1.5, value: 0.6),
                            ])
                    ])),
            Case(
                name: "curve-superseded",
                pattern: HapticPattern(
                    events: [continuous(0, 4, [(.hapticIntensity, 1)])],
                    parameters: [DynamicParameter(.hapticIntensityControl, value: 0.3, time: 2.25)],
                    parameterCurves: [
                        ParameterCurve(
                            .hapticIntensityControl, time: 1,
                            controlPoints: [
                                ControlPoint(time: 0.5, value: 0.2), ControlPoint(time: 1, value: 1),
                                ControlPoint(time: 1.5, value: 0.6),
                            ])
                    ])),
            Case(
                name: "mix",
                pattern: HapticPattern(events: [
                    continuous(0, 1, [(.hapticIntensity, 0.3), (.hapticSharpness, 0.2)]),
                    continuous(0.2, 0.5, [(.hapticIntensity, 0.6), (.hapticSharpness, 0.8), (.attackTime, 0.3)]),
                    transient(0.4, [(.hapticIntensity, 1), (.hapticSharpness, 1)]),
                ])),
            Case(
                name: "sharpness-timing-controls",
                pattern: HapticPattern(
                    events: [
                        continuous(
                            0, 0.6,
                            [
                                (.hapticIntensity, 0.7), (.hapticSharpness, 0.5), (.attackTime, 0.2), (.decayTime, 0.4),
                                (.releaseTime, 0.4), (.sustained, 0),
                            ]),
                        continuous(0.7, 0.3, [(.hapticIntensity, 0.9), (.releaseTime, 0.3)]),
                    ],
                    parameters: [
                        DynamicParameter(.hapticSharpnessControl, value: -0.3, time: 0.1),
                        DynamicParameter(.hapticReleaseTimeControl, value: 0.3, time: 0.65),
                    ],
                    parameterCurves: [
                        ParameterCurve(
                            .hapticSharpnessControl, time: 0.3,
                            controlPoints: [
                                ControlPoint(time: 0, value: -0.5), ControlPoint(time: 0.2, value: 0.5),
                            ])
                    ])),
            Case(
                name: "rate-2",
                pattern: HapticPattern(events: [continuous(1, 1, [(.hapticIntensity, 1)]), transient(0.5, [])]), rate: 2
            ),
            Case(
                name: "rate-half",
                pattern: HapticPattern(
                    events: [continuous(0.1, 0.4, [(.hapticIntensity, 0.8), (.attackTime, 0.4), (.releaseTime, 0.4)])],
                    parameterCurves: [
                        ParameterCurve(
                            .hapticIntensityControl, time: 0,
                            controlPoints: [
                                ControlPoint(time: 0, value: 0.2), ControlPoint(time: 0.5, value: 1),
                            ])
                    ]), rate: 0.5),
            Case(
                name: "loop-default-end",
                pattern: HapticPattern(events: [
                    transient(0, [(.hapticIntensity, 1)]), continuous(0.1, 0.1, [(.hapticIntensity, 0.5)]),
                ]), loopEnd: 0, seconds: 1.2),
            Case(
                name: "loop-overlapping-tails",
                pattern: HapticPattern(events: [
                    continuous(0, 0.1, [(.hapticIntensity, 0.4), (.releaseTime, 1)])
                ]), loopEnd: 0.5, seconds: 1.5),
            Case(
                name: "loop-one-control-state",
                pattern: HapticPattern(
                    events: [continuous(0, 0.1, [(.hapticIntensity, 0.4), (.releaseTime, 1)])],
                    parameters: [DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0.3)]), loopEnd: 0.5,
                seconds: 1.5),
            Case(
                name: "loop-curve-across-passes",
                pattern: HapticPattern(
                    events: [
                        continuous(0.05, 0.3, [(.hapticIntensity, 0.9), (.hapticSharpness, 0.6), (.releaseTime, 0.6)])
                    ],
                    parameterCurves: [
                        ParameterCurve(
                            .hapticIntensityControl, time: 0.2,
                            controlPoints: [
                                ControlPoint(time: 0, value: 1), ControlPoint(time: 0.4, value: 0.1),
                            ])
                    ]), loopEnd: 0.35, seconds: 1.6),
        ]
        let examples = Fixtures.packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".ahap") {
            if let pattern = try? PatternFile.load(contentsOf: examples.appendingPathComponent(name)) {
                list.append(
                    Case(
                        name: "example-" + name.replacingOccurrences(of: ".ahap", with: ""), pattern: pattern,
                        seconds: nil))
            }
        }
        return list
    }

    static func q15(_ value: Float) -> Int { Int((Double(value) * 32768).rounded()) }

    static func header() throws -> String {
        var lines = [
            "/* Generated by Tests/ThrumTimelineTests/FirmwareReferenceTable.swift: the Swift reference renderer's",
            "   output (Q15, 1 kHz) for decoded timelines. Do not edit; regenerate with",
            "   THRUM_WRITE_FIRMWARE_TABLE=1 swift test --filter FirmwareReferenceTable */",
            "#ifndef THR_REFERENCE_RENDERS_H", "#define THR_REFERENCE_RENDERS_H", "#include <stdint.h>", "",
            "typedef struct reference_render {", "    const char *name;", "    const uint8_t *timeline;",
            "    uint32_t timeline_length;", "    uint16_t rate_q8;", "    uint8_t loop;", "    uint32_t loop_end_us;",
            "    uint32_t samples;", "    const uint16_t *intensity;", "    const uint16_t *sharpness;",
            "} reference_render;", "",
        ]
        var entries: [String] = []
        for (number, item) in cases.enumerated() {
            let bytes = try TimelineCompiler.compile(item.pattern)
            let decoded = try TimelineDecoder.decode(bytes).toPattern()
            let seconds = min(
                3, item.seconds ?? ReferenceRenderer.renderedDuration(of: decoded) / Double(item.rate) + 0.005)
            let count = Int((seconds * 1000).rounded(.up)) + 1
            let playback = Playback(
                pattern: decoded, startTime: 0, playbackRate: item.rate,
                loop: item.loopEnd.map { LoopSettings(loopEnd: $0) })
            let channel = ReferenceRenderer.render(
                [playback], channels: 1, sampleRate: 1000, from: 0,
                to: Double(count - 1) / 1000)[0]
            let symbol = "ref_\(number)"
            lines.append(
                "static const uint8_t \(symbol)_tl[] = { "
                    + bytes.map { String(format: "0x%02X", $0) }.joined(separator: ", ") + " };")
            lines.append(
                "static const uint16_t \(symbol)_i[] = { "
                    + channel.intensity.values.map { String(q15($0)) }.joined(separator: ",") + " };")
            lines.append(
                "static const uint16_t \(symbol)_s[] = { "
                    + channel.sharpness.values.map { String(q15($0)) }.joined(separator: ",") + " };")
            let loopEndMicroseconds = Int(((item.loopEnd ?? 0) * 1_000_000).rounded())
            entries.append(
                "    { \"\(item.name)\", \(symbol)_tl, \(bytes.count)u, \(Int(item.rate * 256)), \(item.loopEnd == nil ? 0 : 1), \(loopEndMicroseconds)u, \(channel.intensity.values.count)u, \(symbol)_i, \(symbol)_s },"
            )
        }
        lines +=
            ["", "static const reference_render reference_renders[] = {"] + entries + [
                "};", "",
                "#define REFERENCE_RENDER_COUNT (sizeof reference_renders / sizeof reference_renders[0])", "", "#endif",
                "",
            ]
        return lines.joined(separator: "\n")
    }

    @Test func committedTableIsCurrent() throws {
        let text = try Self.header()
        if ProcessInfo.processInfo.environment["THRUM_WRITE_FIRMWARE_TABLE"] != nil {
            try text.write(to: Self.headerURL, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.headerURL, encoding: .utf8)
        #expect(
            committed == text,
            "Firmware-ref/tests/generated/reference_renders.h is stale: regenerate it (see the file's first lines)")
    }
}
