import ArgumentParser
import Foundation
import ThrumAudioAnalysis
import ThrumModel
import ThrumPlot

/// `thrum convert FILE -o OUT.ahap [--svg OUT.svg]`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Turn a sound (WAV, FLAC, Ogg, MP3) into an AHAP pattern.",
        discussion: """
            The sound's amplitude in the band becomes a continuous event's intensity curve, its spectral \
            centroid the sharpness curve, and its onsets transients (Protocol/AUDIO-TO-HAPTICS.md). \
            Silence gives no events. Prints one summary line; with --svg, plots the waveform under the \
            derived curves.
            """
    )

    @Argument(help: "The sound to convert.")
    var file: String

    @Option(name: .shortAndLong, help: "Where to write the AHAP pattern.")
    var output: String

    @Option(help: "Also plot the waveform and the pattern, as an SVG.")
    var svg: String?

    @Option(help: "The band analysed, LOW-HIGH in hertz (at most 12000).")
    var band: String = "30-8000"

    @Option(help: "Multiplies every intensity.")
    var gain: Double = 1

    @Flag(inversion: .prefixedNo, help: "Make the loudest moment intensity 1 (else a full-scale sine is 1).")
    var normalize = true

    @Option(help: "Largest error allowed in the intensity curve (0-1); larger means fewer breakpoints.")
    var tolerance: Double = 0.04

    @Option(help: "How readily onsets become transients, 0 (strong ones only) to 1 (faint ones too).")
    var sensitivity: Double = 0.5

    @Option(help: "Band level, in dBFS, below which the sound counts as silence.")
    var noiseFloor: Double = -60

    @Flag(help: "Add the sound itself as an AudioCustom event beside the haptics.")
    var keepAudio = false

    func options() throws -> AudioConversionOptions {
        let parts = band.split(separator: "-").compactMap { Double($0) }
        guard parts.count == 2, parts[0] < parts[1] else {
            throw ValidationError("--band '\(band)': give LOW-HIGH in hertz, such as 30-8000")
        }
        return AudioConversionOptions(
            band: parts[0]...parts[1], gain: gain, normalizes: normalize, intensityTolerance: tolerance,
            transientSensitivity: sensitivity, noiseFloor: noiseFloor, keepsAudio: keepAudio)
    }

    func validate() throws { _ = try options() }

    func run() throws {
        let input = URL(fileURLWithPath: file)
        let bar = ProgressBar(label: "converting", unit: nil)
        let conversion: AudioConversion
        do {
            conversion = try AudioToHaptics.convert(contentsOf: input, options: options()) { fraction in
                bar.update(Int(fraction * 1000), of: 1000)
            }
        } catch let error as AudioConversionError {
            bar.finish()
            throw failure("\(file): \(error.problem)")
        }
        bar.finish()
        var pattern = conversion.pattern
        if keepAudio { pattern = Self.pointingAtTheSound(pattern, sound: input, from: URL(fileURLWithPath: output)) }
        do {
            try AHAPWriter.data(for: pattern).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw failure("cannot write \(output): \(error.localizedDescription)")
        }
        if let svg {
            let wave = conversion.waveform
            try writePlot(
                of: pattern, title: input.lastPathComponent, to: svg,
                waveform: PatternPlot.WaveformLane(
                    minimums: wave.minimums, maximums: wave.maximums, columnDuration: wave.columnDuration))
        }
        Console.current.line("wrote \(output): \(conversion.report.summary)")
    }

    /// `EventWaveformPath` is relative to the pattern's folder: the sound's path from there.
    static func pointingAtTheSound(_ pattern: HapticPattern, sound: URL, from output: URL) -> HapticPattern {
        let soundFolder = sound.standardizedFileURL.deletingLastPathComponent().pathComponents
        let outputFolder = output.standardizedFileURL.deletingLastPathComponent().pathComponents
        let shared = zip(soundFolder, outputFolder).prefix { $0 == $1 }.count
        let path =
            (Array(repeating: "..", count: outputFolder.count - shared) + soundFolder[shared...]
            + [sound.lastPathComponent]).joined(separator: "/")
        var copy = pattern
        for index in copy.events.indices where copy.events[index].type == .audioCustom {
            copy.events[index].waveform?.path = path
        }
        return copy
    }
}
