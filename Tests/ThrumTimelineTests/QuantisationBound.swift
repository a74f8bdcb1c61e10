import ThrumModel

@testable import ThrumTimeline

/// The spec's error bound, checked structurally: same records in the same order, every instant
/// within half a tick, every value within half a quantisation step.
enum QuantisationBound {
    static let timeTolerance = Quantization.maxTimeError + 1e-9

    static func violations(original: HapticPattern, decoded: HapticPattern) -> [String] {
        var problems: [String] = []
        let source = original.normalized()
        func time(_ what: String, _ a: Double, _ b: Double) {
            if abs(a - b) > timeTolerance { problems.append("\(what): \(a) vs \(b)") }
        }
        func unit(_ what: String, _ a: Float, _ b: Float) {
            if abs(a - b) > Quantization.maxUnitError + 1e-6 { problems.append("\(what): \(a) vs \(b)") }
        }
        func signed(_ what: String, _ a: Float, _ b: Float) {
            if abs(a - b) > Quantization.maxSignedError + 1e-6 { problems.append("\(what): \(a) vs \(b)") }
        }
        guard source.events.count == decoded.events.count, source.parameters.count == decoded.parameters.count,
            source.parameterCurves.count == decoded.parameterCurves.count
        else {
            return ["record counts differ"]
        }
        // Events at the same tick may be reordered only among themselves; match by order after a stable sort.
        let decodedEvents = decoded.normalized().events
        for (index, (a, b)) in zip(source.events, decodedEvents).enumerated() {
            guard a.type == b.type else {
                problems.append("events[\(index)] type")
                continue
            }
            time("events[\(index)].time", a.time, b.time)
            time("events[\(index)].end", a.time + a.duration, b.time + b.duration)
            for id in EventParameterID.allCases where id != .sustained {
                let relevant =
                    a.type.isHaptic
                    ? [.hapticIntensity, .hapticSharpness, .attackTime, .decayTime, .releaseTime].contains(id)
                    : ![.hapticIntensity, .hapticSharpness].contains(id)
                guard relevant else { continue }
                if id.range == .unit {
                    unit("events[\(index)].\(id)", a.value(of: id), b.value(of: id))
                } else {
                    signed("events[\(index)].\(id)", a.value(of: id), b.value(of: id))
                }
            }
            if a.isSustained != b.isSustained { problems.append("events[\(index)].sustained") }
        }
        for (index, (a, b)) in zip(source.parameters, decoded.parameters).enumerated() {
            if a.id != b.id { problems.append("parameters[\(index)].id") }
            time("parameters[\(index)].time", a.time, b.time)
            control("parameters[\(index)]", a.id, a.value, b.value, &problems)
        }
        for (index, (a, b)) in zip(source.parameterCurves, decoded.parameterCurves).enumerated() {
            if a.id != b.id { problems.append("curves[\(index)].id") }
            time("curves[\(index)].time", a.time, b.time)
            let points = a.controlPoints.enumerated().sorted {
                $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
            }.map(\.element)
            guard points.count == b.controlPoints.count else {
                problems.append("curves[\(index)] point count")
                continue
            }
            for (k, (p, q)) in zip(points, b.controlPoints).enumerated() {
                time("curves[\(index)].points[\(k)]", a.time + p.time, b.time + q.time)
                control("curves[\(index)].points[\(k)]", a.id, p.value, q.value, &problems)
            }
        }
        return problems
    }

    private static func control(
        _ what: String, _ id: DynamicParameterID, _ a: Float, _ b: Float, _ problems: inout [String]
    ) {
        let bound = (id.isUnsignedInTimeline ? Quantization.maxUnitError : Quantization.maxSignedError) + 1e-6
        if abs(id.range.clamp(a) - b) > bound { problems.append("\(what): \(a) vs \(b)") }
    }
}
