import Foundation
import Testing

@testable import ThrumModel

/// Every real file in the corpus: full patterns load, fragments and invalid Lofelt files are rejected with the reason.
@Suite(.enabled(if: corpusIsAvailable, "no corpus of real pattern files beside the checkout"))
struct CorpusTests {
    /// The two AHAP fragments (a lone `Event`, a lone `EventParameters`), which are not patterns.
    static let ahapFragments: Set<String> = [
        "fuziki__HapticsBox__Event.ahap", "fuziki__HapticsBox__EventParameter.ahap",
    ]

    /// Lofelt's own invalid test files, with the error each must give.
    static let invalidLofelt: [String: String] = [
        "Lofelt__NiceVibrations__invalid_version_v1.haptic":
            "version.major: unsupported .haptic version 2.0.0; this reader knows version 1",
        "Lofelt__NiceVibrations__validation_v1_emphasis_amplitude.haptic":
            "signals.continuous.envelopes.amplitude[2].emphasis.amplitude: the emphasis amplitude 0.2 is below the breakpoint's amplitude 0.5",
        "Lofelt__NiceVibrations__validation_v1_sequence.haptic":
            "signals.continuous.envelopes.amplitude[2].time: breakpoint times go backwards: 0.1 s comes after 0.2 s",
    ]

    @Test func everyFullAHAPPatternLoads() throws {
        let files = corpusFiles("ahap")
        var loaded = 0
        for file in files where !Self.ahapFragments.contains(file.lastPathComponent) {
            let result = PatternFile.read(contentsOf: file)
            #expect(result.pattern != nil, "\(file.lastPathComponent): \(result.diagnostics)")
            #expect(result.format == .ahap, "\(file.lastPathComponent)")
            if let pattern = result.pattern {
                loaded += 1
                #expect(!pattern.isEmpty)
                #expect(pattern.events.map(\.time) == pattern.events.map(\.time).sorted(), "\(file.lastPathComponent)")
            }
        }
        if !files.isEmpty { #expect(loaded == 88) }
    }

    @Test func fragmentsAreRejectedBecausePatternIsMissing() throws {
        guard let folder = corpusFolder("ahap") else { return }
        for name in Self.ahapFragments.sorted() {
            let result = PatternFile.read(contentsOf: folder.appendingPathComponent(name))
            #expect(result.pattern == nil)
            let error = try #require(result.diagnostics.errors.first)
            #expect(result.diagnostics.errors.count == 1)
            #expect("\(error.location)" == "Pattern")
            #expect(error.message.hasPrefix("missing `Pattern`"), "\(error.message)")
        }
    }

    @Test func everyValidHapticOrVijFileImports() throws {
        let files = corpusFiles("haptic")
        var loaded = 0
        for file in files where Self.invalidLofelt[file.lastPathComponent] == nil {
            let result = PatternFile.read(contentsOf: file)
            #expect(
                result.format == (file.pathExtension == "vij" ? .lofeltV0 : .lofeltHaptic), "\(file.lastPathComponent)")
            let pattern = try #require(result.pattern, "\(file.lastPathComponent): \(result.diagnostics)")
            #expect(result.diagnostics.isEmpty, "\(file.lastPathComponent): \(result.diagnostics)")
            #expect(pattern.events.contains { $0.type == .hapticContinuous })
            #expect(pattern.parameterCurves.first?.id == .hapticIntensityControl)
            loaded += 1
        }
        if !files.isEmpty { #expect(loaded == 16) }
    }

    @Test func invalidLofeltFilesAreRejectedWithTheirReason() throws {
        guard let folder = corpusFolder("haptic") else { return }
        for (name, expected) in Self.invalidLofelt.sorted(by: { $0.key < $1.key }) {
            let result = PatternFile.read(contentsOf: folder.appendingPathComponent(name))
            #expect(result.pattern == nil, "\(name)")
            #expect(result.lines(.error) == [expected], "\(name)")
        }
    }

    @Test func knownQuirksAreReportedAsExpected() throws {
        guard let folder = corpusFolder("ahap") else { return }
        func read(_ name: String, _ mode: ValidationMode = .standard) -> PatternReadResult {
            PatternFile.read(contentsOf: folder.appendingPathComponent(name), mode: mode)
        }
        // mario.ahap uses HapticAttackTime & co.: dropped with warnings that suggest the right name.
        let mario = read("denizsincar29__ahap_rs__mario.ahap")
        #expect(mario.pattern != nil)
        #expect(
            mario.diagnostics.warnings.contains {
                $0.message.contains("`HapticAttackTime` ignored (did you mean `AttackTime`?)")
            })
        // Apple's DamageTaken has HapticIntensityControl values a little above 1: clamped with a warning.
        let damage = read("mihaelamj__cupertino-sample-code__DamageTaken.ahap")
        #expect(damage.pattern != nil)
        #expect(damage.diagnostics.warnings.contains { $0.message.contains("clamped to 1") })
        // Gravel from 2019 has no Version.
        #expect(
            read("fuziki__HapticsBox__Gravel.ahap").lines(.warning).contains("Version: missing `Version`; assuming 1.0")
        )
        // Lowercase names and a 175 s continuous event with a 1,435-point curve: lints in strict mode.
        let lowercase = read("ryendu__sound2ahap__test-checkpoint.ahap", .strict)
        #expect(
            lowercase.diagnostics.warnings.contains {
                $0.message == "`hapticTransient` should be spelled `HapticTransient`"
            })
        let heatWaves = read("ryendu__sound2ahap__Heat_Waves-checkpoint.ahap", .strict)
        #expect(heatWaves.diagnostics.warnings.contains { $0.message.hasPrefix("a continuous event of") })
        #expect(heatWaves.diagnostics.warnings.contains { $0.message.hasPrefix("a curve of 1435 control points") })
        // Lofelt exports write control-point times as absolute ones.
        let studio = read("Lofelt__NiceVibrations__studio_export.ahap", .strict)
        #expect(studio.diagnostics.warnings.contains { $0.message.hasPrefix("control-point times look absolute") })
    }

    @Test func everyLoadedPatternSurvivesAWriteReadRoundTrip() throws {
        for file in corpusFiles("ahap") + corpusFiles("haptic") {
            guard let pattern = PatternFile.read(contentsOf: file).pattern else { continue }
            for pretty in [true, false] {
                let written = AHAPWriter.data(for: pattern, pretty: pretty)
                let again = PatternFile.read(data: written, name: file.lastPathComponent)
                #expect(again.pattern == pattern, "\(file.lastPathComponent)")
                #expect(again.diagnostics.isEmpty, "\(file.lastPathComponent): \(again.diagnostics)")
            }
        }
    }
}
