/// Reading `Parameter` and `ParameterCurve` elements.
extension AHAPReader {
    func readParameter(_ node: Int, element: Int) -> DynamicParameter? {
        func base() -> DiagnosticPath { Self.elementPath(element, "Parameter") }
        guard reader.expectObject(node, at: base()) else { return nil }
        let errorsBefore = diagnostics.errorCount
        var idNode: Int?
        var time: Double?
        var valueNode: Int?
        document.forEachMember(of: node) { key, value in
            if document.stringEquals(key, "ParameterID") {
                idNode = value
            } else if document.stringEquals(key, "Time") || document.stringEquals(key, "ParameterTime") {
                time = reader.time(value, at: base() / document.string(key))
            } else if document.stringEquals(key, "ParameterValue") {
                valueNode = value
            } else {
                diagnostics.lint(
                    "unknown key `\(document.sourceText(key))` ignored", at: base(), offset: reader.offset(of: key))
            }
        }
        guard let idNode else {
            diagnostics.error("missing required key `ParameterID`", at: base(), offset: reader.offset(of: node))
            return nil
        }
        guard let time else {
            if diagnostics.errorCount == errorsBefore {
                diagnostics.error("missing required key `Time`", at: base(), offset: reader.offset(of: node))
            }
            return nil
        }
        guard let id = readParameterID(idNode, table: AHAPNames.dynamicParameterIDs, at: base() / "ParameterID") else {
            return nil
        }
        var value = Float(0)  // Apple's reader defaults a missing ParameterValue to 0.
        if let valueNode {
            guard let read = reader.value(valueNode, range: id.range, at: base() / "ParameterValue") else { return nil }
            value = read
        }
        guard diagnostics.errorCount == errorsBefore else { return nil }
        return DynamicParameter(id, value: value, time: time)
    }

    // MARK: ParameterCurve

    func readCurve(_ node: Int, element: Int) -> ParameterCurve? {
        func base() -> DiagnosticPath { Self.elementPath(element, "ParameterCurve") }
        guard reader.expectObject(node, at: base()) else { return nil }
        let errorsBefore = diagnostics.errorCount
        var idNode: Int?
        var time: Double?
        var pointsNode: Int?
        document.forEachMember(of: node) { key, value in
            if document.stringEquals(key, "ParameterID") {
                idNode = value
            } else if document.stringEquals(key, "Time") {
                time = reader.time(value, at: base() / "Time")
            } else if document.stringEquals(key, "ParameterCurveControlPoints") {
                pointsNode = value
            } else {
                diagnostics.lint(
                    "unknown key `\(document.sourceText(key))` ignored", at: base(), offset: reader.offset(of: key))
            }
        }
        guard let idNode else {
            diagnostics.error("missing required key `ParameterID`", at: base(), offset: reader.offset(of: node))
            return nil
        }
        guard let time else {
            if diagnostics.errorCount == errorsBefore {
                diagnostics.error("missing required key `Time`", at: base(), offset: reader.offset(of: node))
            }
            return nil
        }
        guard let id = readParameterID(idNode, table: AHAPNames.dynamicParameterIDs, at: base() / "ParameterID") else {
            return nil
        }
        var points: [ControlPoint] = []
        if let pointsNode {
            points = readControlPoints(
                pointsNode, range: id.range, curveTime: time, at: base() / "ParameterCurveControlPoints")
        } else {
            diagnostics.warning(
                "missing `ParameterCurveControlPoints`; the curve has no effect", at: base(),
                offset: reader.offset(of: node))
        }
        guard diagnostics.errorCount == errorsBefore else { return nil }
        return ParameterCurve(id, time: time, controlPoints: points)
    }

    func readControlPoints(
        _ node: Int, range: ParameterRange, curveTime: Double, at base: DiagnosticPath
    ) -> [ControlPoint] {
        guard reader.expectArray(node, at: base) else { return [] }
        let count = document.count(of: node)
        guard count <= limits.maxControlPoints else {
            diagnostics.error(
                "a curve of \(count) control points, more than the limit of \(limits.maxControlPoints)",
                at: base, offset: reader.offset(of: node))
            return []
        }
        var points: [ControlPoint] = []
        points.reserveCapacity(count)
        var backwards: Int?
        document.forEachElement(of: node) { position, element in
            func path() -> DiagnosticPath { base[position] }
            guard reader.expectObject(element, at: path()) else { return }
            var time: Double?
            var value: Float?
            var timeSeen = false
            var valueSeen = false
            document.forEachMember(of: element) { key, member in
                if document.stringEquals(key, "Time") {
                    timeSeen = true
                    time = reader.time(member, at: path() / "Time")
                } else if document.stringEquals(key, "ParameterValue") {
                    valueSeen = true
                    value = reader.value(member, range: range, at: path() / "ParameterValue")
                } else {
                    diagnostics.lint(
                        "unknown key `\(document.sourceText(key))` ignored", at: path(), offset: reader.offset(of: key))
                }
            }
            if !timeSeen {
                diagnostics.error("missing required key `Time`", at: path(), offset: reader.offset(of: element))
            }
            if !valueSeen {
                diagnostics.error(
                    "missing required key `ParameterValue`", at: path(), offset: reader.offset(of: element))
            }
            guard let time, let value else { return }
            if curveTime + time > limits.maxTime {
                diagnostics.error(
                    "the point is at \(TimeRules.format(curveTime + time)) s in the pattern, later than the limit of \(TimeRules.format(limits.maxTime)) s",
                    at: path() / "Time", offset: reader.offset(of: element))
                return
            }
            if backwards == nil, let last = points.last, time < last.time { backwards = position }
            points.append(ControlPoint(time: time, value: value))
        }
        if let backwards {
            diagnostics.warning(
                "control-point times go backwards here; the points are sorted by time", at: base[backwards] / "Time")
            points = Self.sortedByTime(points, time: \.time)
        }
        if points.count > 16 {
            diagnostics.lint(
                "a curve of \(points.count) control points; Core Haptics devices take at most 16", at: base,
                offset: reader.offset(of: node))
        }
        if curveTime > 0, let first = points.first, abs(first.time - curveTime) <= 1e-9 * max(1, curveTime) {
            diagnostics.lint(
                "control-point times look absolute: the first point is at the curve's own start time \(curveTime); control-point times are relative to the curve's `Time`",
                at: base[0] / "Time", offset: reader.offset(of: node))
        }
        return points
    }
}
