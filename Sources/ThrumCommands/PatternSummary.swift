import ThrumModel
import ThrumPlot

/// A few lines that tell a person what a pattern holds.
struct PatternSummary {
    var name: String
    var pattern: HapticPattern

    var lines: [String] {
        let counts = Dictionary(grouping: pattern.events, by: \.type).mapValues(\.count)
        var lines = ["\(name)"]
        if let description = pattern.metadata["Description"], !description.isEmpty { lines.append("  \(description)") }
        lines.append(
            "  duration     \(formatDecimal(pattern.duration, decimals: 3)) s (until \(formatDecimal(ReferenceRenderer.renderedDuration(of: pattern), decimals: 3)) s with release tails)"
        )
        lines.append(
            "  events       \(pattern.events.count): "
                + HapticEventType.allCases.compactMap { type in
                    counts[type].map { "\($0) \(type.ahapName)" }
                }.joined(separator: ", "))
        if !pattern.parameterCurves.isEmpty {
            let points = pattern.parameterCurves.reduce(0) { $0 + $1.controlPoints.count }
            lines.append(
                "  curves       \(pattern.parameterCurves.count) (\(points) control points): "
                    + Set(pattern.parameterCurves.map(\.id.ahapName)).sorted().joined(separator: ", "))
        }
        if !pattern.parameters.isEmpty {
            lines.append(
                "  parameters   \(pattern.parameters.count): "
                    + Set(pattern.parameters.map(\.id.ahapName)).sorted().joined(separator: ", "))
        }
        let haptic = pattern.events.filter(\.type.isHaptic)
        if let peak = haptic.map(\.intensity).max() {
            lines.append("  intensity    up to \(formatDecimal(Double(peak), decimals: 2)) (authored, before controls)")
        }
        return lines
    }
}
