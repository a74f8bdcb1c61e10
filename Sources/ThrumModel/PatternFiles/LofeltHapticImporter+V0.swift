/// Lofelt's version 0 files (`.vij`), read into the same breakpoints as version 1 and mapped the same way.
///
/// The layout, as Lofelt's converter reads it (checked against its own conversion `ahap_from_valid_v0.ahap`):
/// `voices.envelopes[0]` is the amplitude envelope and `voices.envelopes[1]` the frequency envelope (both
/// `{time, amplitude}` lists); `voices.transients[0]` gives each emphasis its time and amplitude and
/// `voices.transients[1]` its frequency, point for point; `metadata.duration` extends the clip, holding the
/// last amplitude. An emphasis lands on the amplitude breakpoint at its time; where there is none, a breakpoint
/// with the interpolated amplitude is inserted.
extension LofeltHapticImporter {
    func readVersion0Root() -> HapticPattern? {
        let root = document.root
        var voicesNode: Int?
        var durationNode: Int?
        document.forEachMember(of: root) { key, value in
            if document.stringEquals(key, "voices") {
                voicesNode = value
            } else if document.stringEquals(key, "metadata"), document.kind(value) == .object {
                document.forEachMember(of: value) { key, value in
                    if document.stringEquals(key, "duration") { durationNode = value }
                }
            }
        }
        guard let voicesNode, reader.expectObject(voicesNode, at: "voices") else { return nil }
        var envelopesNode: Int?
        var transientsNode: Int?
        document.forEachMember(of: voicesNode) { key, value in
            if document.stringEquals(key, "envelopes") { envelopesNode = value }
            if document.stringEquals(key, "transients") { transientsNode = value }
        }
        guard let envelopesNode else {
            diagnostics.error(
                "missing `voices.envelopes`", at: "voices.envelopes", offset: reader.offset(of: voicesNode))
            return nil
        }
        let envelopes = lists(envelopesNode, at: "voices.envelopes")
        guard let amplitudeNode = envelopes.first else {
            diagnostics.error(
                "the amplitude envelope is missing", at: "voices.envelopes", offset: reader.offset(of: envelopesNode))
            return nil
        }
        let envelopesPath: DiagnosticPath = "voices.envelopes"
        var amplitude = readEnvelope(amplitudeNode, valueKey: "amplitude", emphasis: false, at: envelopesPath[0])
        let frequency =
            envelopes.count > 1
            ? readEnvelope(envelopes[1], valueKey: "amplitude", emphasis: false, at: envelopesPath[1]) : []
        if amplitude.isEmpty, !diagnostics.hasErrors {
            diagnostics.error(
                "the amplitude envelope is empty", at: envelopesPath[0], offset: reader.offset(of: amplitudeNode))
        }
        if let transientsNode { attachEmphasis(transientsNode, to: &amplitude) }
        if let durationNode, let duration = reader.time(durationNode, at: "metadata.duration"),
            let last = amplitude.last, duration > last.time
        {
            amplitude.append(Breakpoint(time: duration, value: last.value))
        }
        guard !diagnostics.hasErrors else { return nil }
        return Self.pattern(amplitude: amplitude, frequency: frequency, metadata: ["Source Format": "Lofelt .vij 0"])
    }

    /// The element nodes of an array of arrays.
    private func lists(_ node: Int, at path: DiagnosticPath) -> [Int] {
        guard reader.expectArray(node, at: path) else { return [] }
        var lists: [Int] = []
        document.forEachElement(of: node) { _, element in lists.append(element) }
        return lists
    }

    private func attachEmphasis(_ node: Int, to amplitude: inout [Breakpoint]) {
        let path: DiagnosticPath = "voices.transients"
        let transients = lists(node, at: path)
        guard let first = transients.first else { return }
        let amplitudes = readEnvelope(first, valueKey: "amplitude", emphasis: false, at: path[0])
        let frequencies =
            transients.count > 1 ? readEnvelope(transients[1], valueKey: "amplitude", emphasis: false, at: path[1]) : []
        guard frequencies.count == amplitudes.count else {
            diagnostics.error(
                "\(frequencies.count) transient frequencies for \(amplitudes.count) transient amplitudes", at: path[1],
                offset: reader.offset(of: transients.count > 1 ? transients[1] : node))
            return
        }
        for (point, frequency) in zip(amplitudes, frequencies) {
            let emphasis = (amplitude: point.value, frequency: frequency.value)
            if let index = amplitude.firstIndex(where: { $0.time == point.time }) {
                amplitude[index].emphasis = emphasis
            } else {
                let index = amplitude.firstIndex { $0.time > point.time } ?? amplitude.count
                let value = Self.interpolate(amplitude, at: point.time, before: index)
                amplitude.insert(Breakpoint(time: point.time, value: value, emphasis: emphasis), at: index)
            }
        }
    }

    private static func interpolate(_ envelope: [Breakpoint], at time: Double, before index: Int) -> Float {
        guard index > 0 else { return envelope.first?.value ?? 0 }
        guard index < envelope.count else { return envelope[index - 1].value }
        let (a, b) = (envelope[index - 1], envelope[index])
        let fraction = Float((time - a.time) / (b.time - a.time))
        return a.value + (b.value - a.value) * fraction
    }
}
