import PropertyBased
import Testing
import ThrumModel

@testable import ThrumTimeline

@Suite("Property tests")
struct PropertyTests {
    @Test("the compiler never crashes; whatever it emits decodes")
    func compilerTotal() async {
        await propertyCheck(count: 300, input: Generators.wildGenerator) { pattern in
            do {
                let bytes = try TimelineCompiler.compile(pattern)
                let timeline = try TimelineDecoder.decode(bytes)
                #expect(timeline.byteCount == bytes.count)
            } catch let error as CompileError {
                // A refusal names where in the pattern; default options are never the cause.
                #expect(error.location != .root && error.reason != .badOption, "\(error)")
            } catch {
                Issue.record("compiled bytes rejected: \(error)")
            }
        }
    }

    @Test("random patterns round-trip within the structural bound (½ tick, ½ step)")
    func structuralBound() async throws {
        await propertyCheck(count: 200, input: Generators.saneGenerator) { pattern in
            let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
            let problems = QuantisationBound.violations(original: pattern, decoded: decoded)
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
    }

    @Test("random patterns render within the stated bound")
    func renderedBound() async throws {
        await propertyCheck(count: 100, input: Generators.saneGenerator) { pattern in
            let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
            let report = RenderingBound.check(original: pattern, decoded: decoded)
            #expect(report.passed, "\(report.worstLane) \(report.worstRatio)× the allowance at \(report.worstAt) s")
        }
    }

    /// Found by the property above (seed R0Cd4FOJ…): a release-time control quantised to SQ8
    /// moves a long release by ~15 ms, which the bound must allow for.
    @Test("a timing control's quantisation stays within the stated bound")
    func timingControlBound() throws {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 0.2, intensity: 0.8)],
            parameters: [DynamicParameter(.hapticReleaseTimeControl, value: 119.49 / 127, time: 0)]
        )
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        #expect(decoded.parameters.first?.value != pattern.parameters.first?.value, "the control is quantised")
        let report = RenderingBound.check(original: pattern, decoded: decoded)
        #expect(report.passed, "\(report.worstLane) \(report.worstRatio)× the allowance at \(report.worstAt) s")
        #expect(RenderingBound.delta(for: pattern) > 0.01, "δ includes the timing control's table shift")
    }

    /// Found by the property above (seed 4TlVqlRQ…): a 50 ms event whose 58 ms attack is cut short
    /// by its release peaks at d/A; rounding d up a tick raises that peak above anything the
    /// original reaches, which the bound must allow for.
    @Test("a release that begins during the attack stays within the stated bound")
    func midAttackReleaseBound() throws {
        var event = HapticEvent.continuous(at: 2.164221264433701, duration: 0.05041303446192691, intensity: 0.94584036)
        event.parameters += [EventParameter(.attackTime, 0.37043494), EventParameter(.releaseTime, 0.2660061)]
        let pattern = HapticPattern(events: [event])
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        let report = RenderingBound.check(original: pattern, decoded: decoded)
        #expect(report.passed, "\(report.worstLane) \(report.worstRatio)× the allowance at \(report.worstAt) s")
    }

    /// Found by the property above: a decay-time control curve that falls steeply just where the
    /// decay begins. The decay reads its control at that instant, and rounding moves the instant
    /// against the curve, so the decay's length follows the curve's change there.
    @Test("a timing control read on a steep part of its curve stays within the stated bound")
    func timingControlReadBound() throws {
        var event = HapticEvent.continuous(at: 0.0004, duration: 1, intensity: 0.76)
        event.parameters += [
            EventParameter(.attackTime, 0.767), EventParameter(.decayTime, 0.877), EventParameter(.sustained, 0),
        ]
        let attack = EnvelopeTiming.seconds(for: 0.767)
        let pattern = HapticPattern(
            events: [event],
            parameterCurves: [
                ParameterCurve(
                    .hapticDecayTimeControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: attack - 0.002, value: 0), ControlPoint(time: attack + 0.003, value: -0.5),
                    ])
            ])
        let decoded = try TimelineDecoder.decode(TimelineCompiler.compile(pattern)).toPattern()
        let report = RenderingBound.check(original: pattern, decoded: decoded)
        #expect(report.passed, "\(report.worstLane) \(report.worstRatio)× the allowance at \(report.worstAt) s")
        #expect(RenderingBound.delta(for: pattern) > 0.05, "δ follows the control across the read instant")
    }

    @Test("compiling the decoded pattern again gives the same bytes (quantisation is idempotent)")
    func idempotent() async throws {
        await propertyCheck(count: 200, input: Generators.saneGenerator) { pattern in
            let bytes = try TimelineCompiler.compile(pattern)
            let again = try TimelineCompiler.compile(TimelineDecoder.decode(bytes).toPattern())
            #expect(again == bytes)
        }
    }

    @Test("the decoder never crashes on random bytes")
    func decoderTotalOnRandomBytes() async {
        await propertyCheck(count: 3000, input: Generators.bytesGenerator) { bytes in
            Self.decodeAndUse(bytes)
        }
    }

    @Test("the decoder never crashes on mutations of valid timelines, with and without a fixed checksum")
    func decoderTotalOnMutations() async throws {
        let mutations = Generator<([UInt8], Bool), Shrink.None<([UInt8], Bool)>> { rng in
            var options = CompileOptions()
            options.keyframes = Bool.random(using: &rng) ? .always : .automatic
            options.keyframeInterval = [0.001, 0.1, 1].randomElement(using: &rng)!
            let valid = (try? TimelineCompiler.compile(Generators.sanePattern(using: &rng), options: options)) ?? []
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &rng) { bytes = Generators.mutate(bytes, using: &rng) }
            let fixed = Bool.random(using: &rng)
            if fixed { Generators.fixChecksum(&bytes) }
            return (bytes, fixed)
        }
        await propertyCheck(count: 3000, input: mutations) { bytes, _ in
            Self.decodeAndUse(bytes)
        }
    }

    /// Decodes, and when it succeeds uses every part of the result (so a bad index would trap here).
    static func decodeAndUse(_ bytes: [UInt8]) {
        do {
            let timeline = try TimelineDecoder.decode(bytes)
            _ = timeline.toPattern()
            _ = timeline.describe()
            _ = TimelineStats(timeline)
            for index in timeline.keyframes.indices { _ = timeline.activeReferences(ofKeyframe: index) }
        } catch {
            #expect(error.offset >= 0 && error.offset <= bytes.count, "\(error)")
        }
    }
}

@Suite("Mutation reach")
struct MutationReachTests {
    /// The mutation test is only worth something if mutations reach deep into the format.
    @Test("mutations of valid timelines trigger most rejection reasons, and some still decode")
    func mutationsReachDeep() throws {
        var rng = SystemRandomNumberGenerator()
        var reasons: [TimelineDecodeError.Reason: Int] = [:]
        var accepted = 0
        for round in 0..<4000 {
            var options = CompileOptions()
            options.keyframes = round % 2 == 0 ? .always : .never
            options.keyframeInterval = 0.1
            let valid = try TimelineCompiler.compile(Generators.sanePattern(using: &rng), options: options)
            var bytes = Generators.mutate(valid, using: &rng)
            if round % 4 != 0 { Generators.fixChecksum(&bytes) }
            do {
                _ = try TimelineDecoder.decode(bytes)
                accepted += 1
            } catch {
                reasons[error.reason, default: 0] += 1
            }
        }
        print(
            "mutation outcomes: accepted \(accepted), "
                + reasons.sorted { $0.value > $1.value }.map { "\($0.key.rawValue) \($0.value)" }.joined(
                    separator: ", "))
        #expect(reasons.count >= 10)
        #expect(accepted > 0)
    }
}
