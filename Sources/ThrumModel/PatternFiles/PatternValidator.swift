/// Validates patterns built in code, with the same rules and messages as the file reader.
///
/// Locations are those the pattern would have once written by `AHAPWriter`: events first, then parameters,
/// then curves (`Pattern[i]` counts across all three).
public enum PatternValidator {
    public static func validate(
        _ pattern: HapticPattern, mode: ValidationMode = .standard, limits: PatternLimits = .standard
    ) -> [Diagnostic] {
        var check = Checker(
            collector: DiagnosticCollector(mode: mode, limit: limits.maxDiagnosticsPerSeverity), limits: limits)
        check.run(pattern)
        return check.collector.finished()
    }

    private struct Checker {
        var collector: DiagnosticCollector
        let limits: PatternLimits

        mutating func run(_ pattern: HapticPattern) {
            if !(pattern.version >= 1.0 && pattern.version <= 1.1) {
                collector.error("unsupported Version \(pattern.version); AHAP knows 1.0 to 1.1", at: "Version")
            }
            let count = pattern.events.count + pattern.parameters.count + pattern.parameterCurves.count
            if count > limits.maxPatternElements {
                collector.error(
                    "the pattern has \(count) elements, more than the limit of \(limits.maxPatternElements)",
                    at: "Pattern")
                return
            }
            for (index, event) in pattern.events.enumerated() {
                check(event, at: element(index, "Event"))
            }
            for (offset, parameter) in pattern.parameters.enumerated() {
                let path = element(pattern.events.count + offset, "Parameter")
                time(parameter.time, at: path / "Time")
                value(parameter.value, range: parameter.id.range, at: path / "ParameterValue")
            }
            for (offset, curve) in pattern.parameterCurves.enumerated() {
                check(curve, at: element(pattern.events.count + pattern.parameters.count + offset, "ParameterCurve"))
            }
        }

        private func element(_ index: Int, _ kind: String) -> DiagnosticPath {
            DiagnosticPath([.key("Pattern"), .index(index), .key(kind)])
        }

        private mutating func check(_ event: HapticEvent, at path: DiagnosticPath) {
            let timeValid = time(event.time, at: path / "Time")
            if time(event.duration, at: path / "EventDuration"), timeValid, event.time + event.duration > limits.maxTime
            {
                collector.error(
                    "the event ends at \(TimeRules.format(event.time + event.duration)) s, later than the limit of \(TimeRules.format(limits.maxTime)) s",
                    at: path / "EventDuration")
            }
            for (index, parameter) in event.parameters.enumerated() {
                value(
                    parameter.value, range: parameter.id.range, at: path / "EventParameters" / index / "ParameterValue")
            }
            if event.type == .audioCustom {
                if event.waveform?.path == nil, event.waveform?.resourceID == nil {
                    collector.error("an AudioCustom event needs a waveform path or a registered resource", at: path)
                } else if event.waveform?.path == nil {
                    collector.lint(
                        "an AudioCustom event with only a resource ID cannot be written to an AHAP file",
                        at: path / "EventWaveformPath")
                }
            } else if event.waveform != nil {
                collector.lint("a waveform is ignored on \(event.type.ahapName) events", at: path / "EventWaveformPath")
            }
            if event.type.isContinuous {
                if event.duration > 30 {
                    collector.lint(
                        "a continuous event of \(TimeRules.format(event.duration)) s; Core Haptics plays at most 30 s",
                        at: path / "EventDuration")
                } else if event.duration == 0 && event.isSustained {
                    collector.lint("a sustained continuous event without `EventDuration` has no length", at: path)
                }
            }
        }

        private mutating func check(_ curve: ParameterCurve, at path: DiagnosticPath) {
            guard time(curve.time, at: path / "Time") else { return }
            let points = path / "ParameterCurveControlPoints"
            if curve.controlPoints.count > limits.maxControlPoints {
                collector.error(
                    "a curve of \(curve.controlPoints.count) control points, more than the limit of \(limits.maxControlPoints)",
                    at: points)
                return
            }
            var previous = -Double.infinity
            for (index, point) in curve.controlPoints.enumerated() {
                if time(point.time, at: points[index] / "Time") {
                    if curve.time + point.time > limits.maxTime {
                        collector.error(
                            "the point is at \(TimeRules.format(curve.time + point.time)) s in the pattern, later than the limit of \(TimeRules.format(limits.maxTime)) s",
                            at: points[index] / "Time")
                    }
                    if point.time < previous {
                        collector.warning(
                            "control-point times go backwards here; they play sorted by time",
                            at: points[index] / "Time")
                    }
                    previous = max(previous, point.time)
                }
                value(point.value, range: curve.id.range, at: points[index] / "ParameterValue")
            }
            if curve.controlPoints.count > 16 {
                collector.lint(
                    "a curve of \(curve.controlPoints.count) control points; Core Haptics devices take at most 16",
                    at: points)
            }
            if curve.time > 0, let first = curve.controlPoints.first,
                abs(first.time - curve.time) <= 1e-9 * max(1, curve.time)
            {
                collector.lint(
                    "control-point times look absolute: the first point is at the curve's own start time \(curve.time); control-point times are relative to the curve's `Time`",
                    at: points[0] / "Time")
            }
        }

        /// Records a problem with a time; returns whether the time is usable.
        @discardableResult
        private mutating func time(_ time: Double, at path: @autoclosure () -> DiagnosticPath) -> Bool {
            guard let problem = TimeRules.problem(with: time, limits: limits) else { return true }
            collector.error(problem, at: path())
            return false
        }

        private mutating func value(_ value: Float, range: ParameterRange, at path: @autoclosure () -> DiagnosticPath) {
            if value.isNaN {
                collector.error("the value is not a number (NaN)", at: path())
            } else if !range.contains(value) {
                collector.warning(
                    ValueRules.clampMessage(ValueRules.format(value), range: range, clamped: range.clamp(value)),
                    at: path())
            }
        }
    }
}

extension DiagnosticPath {
    static func / (path: DiagnosticPath, index: Int) -> DiagnosticPath { path.appending(index: index) }
}
