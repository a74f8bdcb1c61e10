import Foundation
import Testing

/// The acceleration lane of `thrum render`: the pattern played by the simulated firmware on a
/// virtual actuator.
@Suite("thrum render actuator lane")
struct RenderActuatorLaneTests {
    /// The lane's full-scale label, "+N.N g", as a number.
    static func fullScale(_ svg: String) -> Double? {
        guard let range = svg.range(of: #">\+[0-9.]+ g<"#, options: .regularExpression) else { return nil }
        return Double(svg[range].dropFirst(2).dropLast(3))
    }

    @Test func renderAddsALabelledLRAAccelerationLane() throws {
        let svg = try scratchDirectory().appendingPathComponent("splash.svg")
        let outcome = runThrum(["render", example("splash.ahap"), "--svg", svg.path])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains(">Acceleration<"))
        #expect(text.contains("simulated LRA, 170 Hz"))
        #expect(text.contains("actuator acceleration (simulated)"))
        // A rated LRA shakes with about a g at full intensity: the scale shows what was reached.
        let scale = try #require(Self.fullScale(text))
        #expect(scale >= 0.3 && scale <= 3, "full scale \(scale) g")
    }

    @Test func ermAndNoneChooseTheLane() throws {
        let folder = try scratchDirectory()
        let erm = folder.appendingPathComponent("erm.svg"), none = folder.appendingPathComponent("none.svg")
        #expect(runThrum(["render", example("swish.ahap"), "--svg", erm.path, "--actuator", "erm"]).exitCode == 0)
        #expect(runThrum(["render", example("swish.ahap"), "--svg", none.path, "--actuator", "none"]).exitCode == 0)
        let ermText = try String(contentsOf: erm, encoding: .utf8)
        #expect(ermText.contains("simulated ERM"))
        #expect(Self.fullScale(ermText).map { $0 >= 0.2 } == true)
        #expect(!(try String(contentsOf: none, encoding: .utf8)).contains("Acceleration"))
        #expect(runThrum(["render", example("swish.ahap"), "--svg", none.path, "--actuator", "piezo"]).exitCode != 0)
    }
}
