import ThrumModel
import ThrumSimulator
import ThrumTimeline

extension PatternPlot.ActuatorLane {
    /// Plays the compiled pattern on a simulated board (the reference firmware) and records its
    /// actuator's acceleration for at most `maximumSeconds`; nil when the board recorded none.
    /// Throws the compiler's or the firmware rendering's error when the pattern cannot play there.
    public static func simulated(
        for pattern: HapticPattern, model: ActuatorModel, maximumSeconds: Double = 120
    ) throws -> PatternPlot.ActuatorLane? {
        let seconds = min(maximumSeconds, max(ReferenceRenderer.renderedDuration(of: pattern), 0.05))
        let bytes = try TimelineCompiler.compile(pattern)
        let lanes = try FirmwareRendering.render(
            timeline: bytes, seconds: seconds, actuator: model, recordsAcceleration: true)
        guard let trace = lanes.acceleration else { return nil }
        let label: String
        switch model {
        case .lra(let p):
            label =
                "simulated LRA, \(formatDecimal(p.resonantFrequency, decimals: 0)) Hz, Q \(formatDecimal(p.qualityFactor, decimals: 1)): acceleration (g)"
        case .erm(let p):
            label = "simulated ERM, τ \(formatDecimal(p.timeConstant * 1000, decimals: 0)) ms: acceleration (g)"
        }
        return PatternPlot.ActuatorLane(label: label, trace: trace)
    }
}
