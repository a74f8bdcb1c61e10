/// Reading `Event` elements: type, times, parameters, custom-audio keys.
extension AHAPReader {
    func readEvent(_ node: Int, element: Int) -> HapticEvent? {
        func base() -> DiagnosticPath { Self.elementPath(element, "Event") }
        guard reader.expectObject(node, at: base()) else { return nil }
        let errorsBefore = diagnostics.errorCount
        var type: HapticEventType?
        var time: Double?
        var duration = 0.0
        var durationNode: Int?
        var parameters: [EventParameter] = []
        var waveformPath: String?
        var waveformPathNode: Int?
        var useVolumeEnvelope = true
        var loopEnabled = false
        var typeSeen = false
        document.forEachMember(of: node) { key, value in
            if document.stringEquals(key, "Time") || document.stringEquals(key, "EventTime") {
                time = reader.time(value, at: base() / document.string(key))
            } else if document.stringEquals(key, "EventType") {
                typeSeen = true
                type = readEventType(value, at: base() / "EventType")
            } else if document.stringEquals(key, "EventParameters") {
                parameters = readEventParameters(value, at: base() / "EventParameters")
            } else if document.stringEquals(key, "EventDuration") {
                durationNode = value
                duration = reader.time(value, at: base() / "EventDuration") ?? 0
            } else if document.stringEquals(key, "EventWaveformPath") {
                waveformPathNode = value
                waveformPath = reader.string(value, at: base() / "EventWaveformPath")
            } else if document.stringEquals(key, "EventWaveformUseVolumeEnvelope") {
                useVolumeEnvelope = reader.bool(value, at: base() / "EventWaveformUseVolumeEnvelope") ?? true
            } else if document.stringEquals(key, "EventWaveformLoopEnabled") {
                loopEnabled = reader.bool(value, at: base() / "EventWaveformLoopEnabled") ?? false
            } else {
                diagnostics.lint(
                    "unknown key `\(document.sourceText(key))` ignored", at: base(), offset: reader.offset(of: key))
            }
        }
        if !typeSeen {
            diagnostics.error("missing required key `EventType`", at: base(), offset: reader.offset(of: node))
        }
        guard let time else {
            if diagnostics.errorCount == errorsBefore {
                diagnostics.error("missing required key `Time`", at: base(), offset: reader.offset(of: node))
            }
            return nil
        }
        guard let type, diagnostics.errorCount == errorsBefore else { return nil }
        if time + duration > limits.maxTime {
            diagnostics.error(
                "the event ends at \(TimeRules.format(time + duration)) s, later than the limit of \(TimeRules.format(limits.maxTime)) s",
                at: base() / "EventDuration", offset: durationNode.map(reader.offset(of:)))
            return nil
        }
        var waveform: AudioWaveform?
        if type == .audioCustom {
            guard let waveformPath else {
                diagnostics.error(
                    "an AudioCustom event needs `EventWaveformPath`", at: base(), offset: reader.offset(of: node))
                return nil
            }
            waveform = AudioWaveform(path: waveformPath, useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
        } else if let waveformPathNode {
            diagnostics.lint(
                "`EventWaveformPath` is ignored on \(type.ahapName) events", at: base() / "EventWaveformPath",
                offset: reader.offset(of: waveformPathNode))
        }
        let event = HapticEvent(type, time: time, duration: duration, parameters: parameters, waveform: waveform)
        if type.isContinuous {
            if duration > 30 {
                diagnostics.lint(
                    "a continuous event of \(TimeRules.format(duration)) s; Core Haptics plays at most 30 s",
                    at: base() / "EventDuration", offset: durationNode.map(reader.offset(of:)))
            } else if duration == 0 && event.isSustained {
                // Sustained 0 events end with their decay, so they need no duration (HapticBounce's audio tone).
                diagnostics.lint(
                    "a sustained continuous event without `EventDuration` has no length", at: base(),
                    offset: reader.offset(of: node))
            }
        }
        return event
    }

    func readEventType(_ node: Int, at path: DiagnosticPath) -> HapticEventType? {
        guard reader.expectString(node, at: path) else { return nil }
        guard let match = AHAPNames.match(node, in: document, table: AHAPNames.eventTypes) else {
            let name = document.sourceText(node)
            let known = HapticEventType.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.error(
                "unknown EventType `\(name)`; expected one of \(known)", at: path, offset: reader.offset(of: node))
            return nil
        }
        if !match.exact {
            diagnostics.lint(
                "`\(document.sourceText(node))` should be spelled `\(match.value.rawValue)`", at: path,
                offset: reader.offset(of: node))
        }
        return match.value
    }

    func readEventParameters(_ node: Int, at base: @autoclosure () -> DiagnosticPath) -> [EventParameter] {
        guard reader.expectArray(node, at: base()) else { return [] }
        var parameters: [EventParameter] = []
        document.forEachElement(of: node) { position, element in
            func path() -> DiagnosticPath { base()[position] }
            guard reader.expectObject(element, at: path()) else { return }
            var idNode: Int?
            var valueNode: Int?
            document.forEachMember(of: element) { key, value in
                if document.stringEquals(key, "ParameterID") {
                    idNode = value
                } else if document.stringEquals(key, "ParameterValue") {
                    valueNode = value
                } else {
                    diagnostics.lint(
                        "unknown key `\(document.sourceText(key))` ignored", at: path(), offset: reader.offset(of: key))
                }
            }
            guard let idNode else {
                diagnostics.error("missing required key `ParameterID`", at: path(), offset: reader.offset(of: element))
                return
            }
            guard let valueNode else {
                diagnostics.error(
                    "missing required key `ParameterValue`", at: path(), offset: reader.offset(of: element))
                return
            }
            guard let id = readParameterID(idNode, table: AHAPNames.eventParameterIDs, at: path() / "ParameterID")
            else { return }
            if let value = reader.value(valueNode, range: id.range, at: path() / "ParameterValue") {
                parameters.append(EventParameter(id, value))
            }
        }
        return parameters
    }

    /// An event or dynamic parameter ID; unknown IDs are dropped with a warning (nil), as are non-strings (error).
    func readParameterID<ID>(
        _ node: Int, table: AHAPNames.Table<ID>, at path: @autoclosure () -> DiagnosticPath
    ) -> ID? {
        guard reader.expectString(node, at: path()) else { return nil }
        guard let match = AHAPNames.match(node, in: document, table: table) else {
            let name = document.sourceText(node)
            let hint = AHAPNames.suggestion(for: document.string(node)).map { " (did you mean `\($0)`?)" } ?? ""
            diagnostics.warning(
                "unknown ParameterID `\(name)` ignored\(hint)", at: path(), offset: reader.offset(of: node))
            return nil
        }
        if !match.exact {
            diagnostics.lint(
                "`\(document.sourceText(node))` should be spelled `\(match.value.rawValue)`", at: path(),
                offset: reader.offset(of: node))
        }
        return match.value
    }
}
