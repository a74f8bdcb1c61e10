import Testing
import ThrumModel

@testable import ThrumTimeline

@Suite("Compiler")
struct CompilerTests {
    static func compileError(_ pattern: HapticPattern, options: CompileOptions = .init()) -> CompileError? {
        do {
            _ = try TimelineCompiler.compile(pattern, options: options)
            return nil
        } catch let error as CompileError {
            return error
        } catch {
            return nil
        }
    }

    @Test(
        "limits are rejected with the reason and the pattern location",
        arguments: [
            (HapticPattern(events: [.transient(at: -0.001)]), CompileError.Reason.timeOutOfRange, "events[0].time"),
            (HapticPattern(events: [.transient(at: .nan)]), .timeOutOfRange, "events[0].time"),
            (
                HapticPattern(events: [.transient(at: 0), .continuous(at: 1, duration: -1)]), .timeOutOfRange,
                "events[1].duration"
            ),
            (HapticPattern(events: [.continuous(at: 2_147_483, duration: 1)]), .timeOutOfRange, "events[0].duration"),
            (
                HapticPattern(parameters: [DynamicParameter(.hapticIntensityControl, value: 1, time: .infinity)]),
                .timeOutOfRange, "parameters[0].time"
            ),
            (
                HapticPattern(parameterCurves: [
                    ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: [ControlPoint(time: -1, value: 0)])
                ]),
                .timeOutOfRange, "parameterCurves[0].controlPoints[0].time"
            ),
            (
                HapticPattern(events: [HapticEvent(.audioCustom, time: 0, waveform: AudioWaveform(path: ""))]),
                .badWaveform, "events[0].waveform.path"
            ),
            (
                HapticPattern(events: [HapticEvent(.audioCustom, time: 0, waveform: AudioWaveform(resourceID: -1))]),
                .badWaveform, "events[0].waveform.resourceID"
            ),
        ])
    func limits(_ pattern: HapticPattern, _ reason: CompileError.Reason, _ location: String) throws {
        let error = try #require(Self.compileError(pattern))
        #expect(error.reason == reason)
        #expect(error.location.description == location)
    }

    @Test("the last representable instant compiles; one tick later does not")
    func maxTicks() throws {
        let last = Double(TimelineFormat.maxTicks) / 1000
        let bytes = try TimelineCompiler.compile(HapticPattern(events: [.transient(at: last)]))
        #expect(try TimelineDecoder.decode(bytes).duration == TimelineFormat.maxTicks)
        #expect(Self.compileError(HapticPattern(events: [.transient(at: last + 0.001)]))?.reason == .timeOutOfRange)
    }

    @Test("a curve with more than 65,535 points is refused")
    func tooManyPoints() {
        let points = (0...65_535).map { ControlPoint(time: Double($0) / 1000, value: 0.5) }
        let error = Self.compileError(
            HapticPattern(parameterCurves: [ParameterCurve(.hapticSharpnessControl, time: 0, controlPoints: points)]))
        #expect(error?.reason == .tooManyCurvePoints)
    }

    @Test("more than 255 distinct waveforms are refused")
    func tooManyWaveforms() {
        let events = (0...255).map { HapticEvent(.audioCustom, time: 0, waveform: AudioWaveform(resourceID: $0)) }
        #expect(Self.compileError(HapticPattern(events: events))?.reason == .tooManyWaveforms)
    }

    @Test("identical events share one shape; out-of-range values are clamped, not rejected")
    func sharingAndClamping() throws {
        let events = (0..<500).map { HapticEvent.transient(at: Double($0) * 0.05, intensity: 1.7, sharpness: -3) }
        let bytes = try TimelineCompiler.compile(HapticPattern(events: events))
        let timeline = try TimelineDecoder.decode(bytes)
        #expect(timeline.shapes == [Timeline.Shape(type: .hapticTransient, level: 255, tone: 0)])
        // Fixed header 8, duration 24950 ticks (3-byte varint), shape count 1, one 3-byte shape,
        // then 500 records of tag + one-byte delta (0, then 50 ticks each).
        #expect(bytes.count == 8 + 3 + 1 + 3 + 2 * 500)
    }

    @Test("unsorted input is sorted stably by time; curve points too")
    func sorting() throws {
        let pattern = HapticPattern(
            events: [
                .transient(at: 0.2, intensity: 0.2), .transient(at: 0.1, intensity: 0.1),
                .transient(at: 0.1, intensity: 0.3),
            ],
            parameterCurves: [
                ParameterCurve(
                    .hapticIntensityControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: 0.3, value: 1), ControlPoint(time: 0.1, value: 0),
                        ControlPoint(time: 0.1, value: 0.5),
                    ])
            ])
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        #expect(decoded.events.map(\.time) == [0.1, 0.1, 0.2])
        #expect(
            decoded.events.map { Quantization.unit($0.intensity) } == [
                Quantization.unit(0.1), Quantization.unit(0.3), Quantization.unit(0.2),
            ])
        #expect(decoded.parameterCurves[0].controlPoints.map(\.value) == [0, Quantization.unitValue(128), 1])
    }

    @Test("the header duration is Core Haptics' duration, quantised")
    func durationDefinition() throws {
        let pattern = HapticPattern(
            events: [.transient(at: 0.5), .continuous(at: 0.1, duration: 0.6004)],
            parameters: [DynamicParameter(.hapticSharpnessControl, value: 0, time: 0.65)],
            parameterCurves: [
                ParameterCurve(.hapticIntensityControl, time: 0.2, controlPoints: [ControlPoint(time: 0.3, value: 1)])
            ])
        let timeline = try TimelineDecoder.decode(TimelineCompiler.compile(pattern))
        #expect(pattern.duration == 0.7004)
        #expect(timeline.duration == 700)
    }
}

@Suite("Encoding primitives")
struct PrimitiveTests {
    @Test("CRC-32/ISO-HDLC check value")
    func crcCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test(
        "varints: shortest form written, every other form refused",
        arguments: [
            (UInt32(0), "00"), (127, "7F"), (128, "80 01"), (1000, "E8 07"), (9961, "E9 4D"),
            (UInt32.max, "FF FF FF FF 0F"),
        ])
    func varints(_ value: UInt32, _ hex: String) throws {
        var writer = ByteWriter()
        writer.varint(value)
        #expect(hexString(writer.bytes) == hex)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.varint("test") == value)
        #expect(reader.isAtLimit)
    }

    @Test(
        "varint rejections",
        arguments: [
            ([UInt8]([0x80, 0x00]), TimelineDecodeError.Reason.badVarint),
            ([0xFF, 0xFF, 0xFF, 0xFF, 0x10], .badVarint),
            ([0x80, 0x80, 0x80, 0x80, 0x80, 0x01], .badVarint),
            ([0x80], .truncated),
            ([], .truncated),
        ])
    func varintRejections(_ bytes: [UInt8], _ reason: TimelineDecodeError.Reason) {
        var reader = ByteReader(bytes)
        do {
            let value = try reader.varint("test")
            Issue.record("accepted as \(value)")
        } catch {
            #expect(error.reason == reason)
            #expect(error.offset == (reason == .truncated ? bytes.count : 0))
        }
    }

    @Test(
        "quantisation: ends exact, halves away from zero, clamped",
        arguments: [
            (Float(0), UInt8(0)), (1, 255), (0.5, 128), (0.75, 191), (-0.2, 0), (7, 255), (.nan, 0),
        ])
    func unitQuantisation(_ value: Float, _ expected: UInt8) {
        #expect(Quantization.unit(value) == expected)
    }

    @Test(
        "signed quantisation",
        arguments: [
            (Float(0), Int8(0)), (1, 127), (-1, -127), (-0.5, -64), (0.5, 64), (-3, -127), (.nan, -127),
        ])
    func signedQuantisation(_ value: Float, _ expected: Int8) {
        #expect(Quantization.signed(value) == expected)
    }

    @Test("ticks: rounding and refusal")
    func ticks() {
        #expect(Quantization.ticks(0.0004) == 0)
        #expect(Quantization.ticks(0.0005) == 1)
        #expect(Quantization.ticks(0.265) == 265)
        #expect(Quantization.ticks(-0.0001) == nil)
        #expect(Quantization.ticks(.infinity) == nil)
        #expect(Quantization.ticks(Double(TimelineFormat.maxTicks) / 1000 + 0.001) == nil)
    }
}
