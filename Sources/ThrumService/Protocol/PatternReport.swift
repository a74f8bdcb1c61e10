import Foundation
import ThrumModel
import ThrumTimeline

/// A pattern text read as `thrum validate` and `thrum compile` read files: the diagnostics, the
/// pattern when it has no error, and the summary the service sends back (Protocol/SERVICE.md §6.3).
/// The WebSocket's `pattern.load` and the HTTP validate and compile endpoints share it.
struct PatternReport: Sendable {
    var name: String
    var pattern: HapticPattern?
    var diagnostics: [Diagnostic]
    var format: PatternFileFormat?
    /// The compiled timeline, when the pattern compiles.
    var timeline: [UInt8]?

    init(text: Data, name: String, strict: Bool = false) {
        let result = PatternFile.read(data: text, name: name, mode: strict ? .strict : .standard)
        self.name = name
        self.format = result.format
        self.diagnostics = result.diagnostics
        self.pattern = result.diagnostics.hasErrors ? nil : result.pattern
        if let pattern = self.pattern {
            do {
                timeline = try TimelineCompiler.compile(pattern)
            } catch {
                diagnostics.append(Diagnostic(.error, at: .root, "the pattern does not compile: \(error)"))
                self.pattern = nil
            }
        }
    }

    var hasErrors: Bool { pattern == nil }

    var diagnosticsJSON: JSONValue {
        .array(
            diagnostics.map { diagnostic in
                var object: [String: JSONValue] = [
                    "severity": .string(diagnostic.severity.rawValue), "location": .string("\(diagnostic.location)"),
                    "message": .string(diagnostic.message),
                ]
                if let position = diagnostic.position {
                    object["line"] = .int(position.line)
                    object["column"] = .int(position.column)
                }
                return .object(object)
            })
    }

    /// Duration, counts, compiled size, and the events and curves a client draws.
    var summaryJSON: JSONValue {
        guard let pattern else { return .null }
        let events = pattern.events.map { event -> JSONValue in
            var object: [String: JSONValue] = [
                "type": .string(event.type.ahapName), "time": .number(event.time),
            ]
            if event.type != .hapticTransient { object["duration"] = .number(event.duration) }
            if event.type.isHaptic {
                object["intensity"] = .number(Double(event.intensity))
                object["sharpness"] = .number(Double(event.sharpness))
            }
            return .object(object)
        }
        let curves = pattern.parameterCurves.map { curve -> JSONValue in
            [
                "parameter": .string(curve.id.ahapName), "time": .number(curve.time),
                "points": .array(
                    curve.controlPoints.map { ["time": .number($0.time), "value": .number(Double($0.value))] }),
            ]
        }
        let parameters = pattern.parameters.map { parameter -> JSONValue in
            [
                "parameter": .string(parameter.id.ahapName), "time": .number(parameter.time),
                "value": .number(Double(parameter.value)),
            ]
        }
        return [
            "name": .string(name), "format": .string(format?.rawValue ?? "unknown"),
            "duration": .number(pattern.duration),
            "renderedDuration": .number(ReferenceRenderer.renderedDuration(of: pattern)),
            "timelineBytes": .int(timeline?.count ?? 0), "events": .array(events), "curves": .array(curves),
            "parameters": .array(parameters),
        ]
    }
}
