import ThrumModel
import ThrumSimulator

/// Lays out the plot `thrum render` writes: intensity and sharpness lanes rendered by the reference
/// renderer, the authored controls, the simulated actuator's acceleration, an event strip, a
/// seconds axis and a legend.
public struct PatternPlot: Sendable {
    public var title: String
    public var pattern: HapticPattern
    /// The simulated board's actuator shaking, when there is one to show.
    public var actuator: ActuatorLane?
    /// One lane per channel of a locality: each channel's share of the intensity.
    public var channels: ChannelLanes?
    /// The sound a pattern was derived from (`thrum convert`), drawn in a lane above the curves.
    public var waveform: WaveformLane?

    /// The channels a pattern plays on and the pan that shares it out (SEMANTICS.md §12).
    public struct ChannelLanes: Sendable {
        public var names: [String]
        /// Pan positions over time (seconds, 0…1); empty: no pan, every channel in full.
        public var pan: [(time: Double, position: Double)] = []

        public init(names: [String], pan: [(time: Double, position: Double)] = []) {
            self.names = names
            self.pan = pan
        }

        public func gains(at time: Double) -> [Double] {
            ChannelPan.gains(position: ChannelPan.position(at: time, along: pan), count: names.count)
        }
    }

    /// Acceleration of the virtual actuator as the simulated firmware drove it.
    public struct ActuatorLane: Sendable {
        public var label: String
        public var trace: AccelerationTrace

        public init(label: String, trace: AccelerationTrace) {
            self.label = label
            self.trace = trace
        }
    }

    /// A waveform as the lowest and highest sample of consecutive columns of equal duration.
    public struct WaveformLane: Sendable {
        public var minimums: [Float]
        public var maximums: [Float]
        /// Seconds each column covers.
        public var columnDuration: Double

        public init(minimums: [Float], maximums: [Float], columnDuration: Double) {
            self.minimums = minimums
            self.maximums = maximums
            self.columnDuration = columnDuration
        }

        public var duration: Double { Double(minimums.count) * columnDuration }
    }

    private let width = 1000.0
    private let left = 116.0
    private let right = 24.0
    private var plotWidth: Double { width - left - right }

    public init(
        title: String, pattern: HapticPattern, actuator: ActuatorLane? = nil, channels: ChannelLanes? = nil,
        waveform: WaveformLane? = nil
    ) {
        self.title = title
        self.pattern = pattern
        self.actuator = actuator
        self.channels = channels
        self.waveform = waveform
    }

    public func svg() -> String {
        let duration = max(ReferenceRenderer.renderedDuration(of: pattern), waveform?.duration ?? 0, 0.05)
        // Point samples at up to 1 kHz, then per-pixel aggregation: a 2 ms transient still shows.
        let sampleRate = min(1000, 2_000_000 / duration)
        let rendered = ReferenceRenderer.render(pattern, sampleRate: sampleRate, duration: duration)
        let columns = PlotColumns(
            intensity: rendered.intensity.values, sharpness: rendered.sharpness.values, count: Int(plotWidth))
        let x = { (time: Double) in self.left + time / duration * self.plotWidth }

        var lanes: [Lane] = waveform == nil ? [] : [Lane(name: "Waveform", height: 90)]
        lanes += [Lane(name: "Intensity", height: 150), Lane(name: "Sharpness", height: 100)]
        let controlIDs = orderedControlIDs()
        if !controlIDs.isEmpty { lanes.append(Lane(name: "Controls", height: 100)) }
        let hasAudio = pattern.events.contains { $0.type.isAudio }
        if hasAudio { lanes.append(Lane(name: "Audio", height: 60)) }
        if actuator != nil { lanes.append(Lane(name: "Acceleration", height: 110)) }
        for name in channels?.names ?? [] { lanes.append(Lane(name: "channel:" + name, height: 56)) }
        let tracks = EventTracks(pattern.events.filter { $0.type == .hapticContinuous })
        let stripHeight = 22.0 * Double(2 + tracks.count) + 8

        let top = 58.0
        let laneGap = 14.0
        var laneTop: [String: Double] = [:]
        var cursor = top
        for lane in lanes {
            laneTop[lane.name] = cursor
            cursor += lane.height + laneGap
        }
        let stripTop = cursor
        let axisY = stripTop + stripHeight
        let legendY = axisY + 66
        var canvas = SVGCanvas(width: width, height: legendY + 30)

        canvas.text(title, x: left, y: 24, size: 16, bold: true)
        canvas.text(subtitle(duration: duration), x: left, y: 44, size: 12, fill: "#495057")

        let axis = TimeAxis(duration: duration)
        for lane in lanes {
            let y0 = laneTop[lane.name]!
            canvas.rect(x: left, y: y0, width: plotWidth, height: lane.height, fill: "#f8f9fa", stroke: "#dee2e6")
            let label = lane.name.hasPrefix("channel:") ? String(lane.name.dropFirst(8)) : lane.name
            canvas.text(label, x: left - 28, y: y0 + lane.height / 2 + 4, anchor: .end, bold: true)
            for tick in axis.ticks {
                canvas.line(x1: x(tick), y1: y0, x2: x(tick), y2: y0 + lane.height, stroke: "#e9ecef")
            }
        }

        if let waveformTop = laneTop["Waveform"], let waveform {
            drawWaveform(&canvas, waveform, top: waveformTop, height: 90, x: x)
        }

        // Intensity: the band between the quietest and loudest sample of each pixel column.
        let intensityTop = laneTop["Intensity"]!
        let yI = { (value: Double) in intensityTop + 150 * (1 - value) }
        scaleLabels(&canvas, top: intensityTop, height: 150, labels: [(1, "1"), (0.5, "0.5"), (0, "0")])
        var band: [(Double, Double)] = []
        for column in 0..<columns.count {
            band.append((left + Double(column) + 0.5, yI(Double(columns.intensityMax[column]))))
        }
        for column in (0..<columns.count).reversed() {
            band.append((left + Double(column) + 0.5, yI(Double(columns.intensityMin[column]))))
        }
        var area = [(left, yI(0))]
        for column in 0..<columns.count {
            area.append((left + Double(column) + 0.5, yI(Double(columns.intensityMax[column]))))
        }
        area.append((left + Double(columns.count), yI(0)))
        canvas.polygon(area, fill: Palette.intensity, opacity: 0.15)
        canvas.polygon(band, fill: Palette.intensity, opacity: 0.6, stroke: Palette.intensity)

        // Sharpness: drawn only where something plays, as the intensity-weighted mean of the column.
        let sharpnessTop = laneTop["Sharpness"]!
        let yS = { (value: Double) in sharpnessTop + 100 * (1 - value) }
        scaleLabels(&canvas, top: sharpnessTop, height: 100, labels: [(1, "1"), (0, "0")])
        for run in columns.sharpnessRuns() {
            canvas.polyline(
                run.map { (left + Double($0.column) + 0.5, yS(Double($0.value))) }, stroke: Palette.sharpness,
                width: 1.8)
        }

        if let controlsTop = laneTop["Controls"] {
            drawControls(&canvas, ids: controlIDs, top: controlsTop, height: 100, x: x)
        }
        if let audioTop = laneTop["Audio"] {
            scaleLabels(&canvas, top: audioTop, height: 60, labels: [(1, "1"), (0, "0")])
            let volume = rendered.audioVolume.values
            let step = max(1, volume.count / Int(plotWidth))
            var points: [(Double, Double)] = []
            for index in stride(from: 0, to: volume.count, by: step) {
                let slice = volume[index..<min(index + step, volume.count)]
                points.append((x(Double(index) / sampleRate), audioTop + 60 * (1 - Double(slice.max() ?? 0))))
            }
            canvas.polyline(points, stroke: Palette.audio, width: 1.5)
        }

        if let actuatorTop = laneTop["Acceleration"], let actuator {
            drawAcceleration(&canvas, actuator, top: actuatorTop, height: 110, duration: duration)
        }

        if let channels {
            let intensity = rendered.intensity.values
            for (index, name) in channels.names.enumerated() {
                let share = intensity.indices.map { i in
                    intensity[i] * Float(channels.gains(at: Double(i) / sampleRate)[index])
                }
                drawChannel(&canvas, share, top: laneTop["channel:" + name]!, height: 56)
            }
        }

        drawEventStrip(&canvas, top: stripTop, tracks: tracks, x: x)

        canvas.line(x1: left, y1: axisY, x2: left + plotWidth, y2: axisY, stroke: "#495057")
        for tick in axis.ticks {
            canvas.line(x1: x(tick), y1: axisY, x2: x(tick), y2: axisY + 5, stroke: "#495057")
            canvas.text(axis.label(tick), x: x(tick), y: axisY + 19, size: 11, anchor: .middle)
        }
        canvas.text(
            "time (seconds)", x: left + plotWidth / 2, y: axisY + 38, size: 11, anchor: .middle, fill: "#495057")

        drawLegend(&canvas, y: legendY, controls: controlIDs, hasAudio: hasAudio, hasActuator: actuator != nil)
        return canvas.document
    }

    /// The sound: per pixel column, the band from its lowest to its highest sample (-1…1).
    private func drawWaveform(
        _ canvas: inout SVGCanvas, _ waveform: WaveformLane, top: Double, height: Double, x: (Double) -> Double
    ) {
        scaleLabels(&canvas, top: top, height: height, labels: [(1, "1"), (0.5, "0"), (0, "-1")])
        let y = { (value: Float) in top + height * (1 - (Double(max(-1, min(1, value))) + 1) / 2) }
        let pixels = max(1, Int((x(waveform.duration) - left).rounded(.up)))
        var upper: [(Double, Double)] = []
        var lower: [(Double, Double)] = []
        for pixel in 0..<pixels {
            // The columns whose time falls in this pixel.
            let from = Int(Double(pixel) / Double(pixels) * Double(waveform.minimums.count))
            let to = max(from + 1, Int(Double(pixel + 1) / Double(pixels) * Double(waveform.minimums.count)))
            let range = from..<min(to, waveform.minimums.count)
            guard !range.isEmpty else { continue }
            let px = left + Double(pixel) + 0.5
            upper.append((px, y(waveform.maximums[range].max()!)))
            lower.append((px, y(waveform.minimums[range].min()!)))
        }
        canvas.polygon(upper + lower.reversed(), fill: Palette.waveform, opacity: 0.8, stroke: Palette.waveform)
    }

    /// One channel's intensity: the band between each pixel column's quietest and loudest sample.
    private func drawChannel(_ canvas: inout SVGCanvas, _ values: [Float], top: Double, height: Double) {
        let columns = PlotColumns(intensity: values, sharpness: values.map { _ in 0 }, count: Int(plotWidth))
        let y = { (value: Float) in top + height * (1 - Double(value)) }
        scaleLabels(&canvas, top: top, height: height, labels: [(1, "1"), (0, "0")])
        var band: [(Double, Double)] = []
        for column in 0..<columns.count {
            band.append((left + Double(column) + 0.5, y(columns.intensityMax[column])))
        }
        for column in (0..<columns.count).reversed() {
            band.append((left + Double(column) + 0.5, y(columns.intensityMin[column])))
        }
        canvas.polygon(band, fill: Palette.intensity, opacity: 0.6, stroke: Palette.intensity)
    }

    private struct Lane {
        var name: String
        var height: Double
    }

    private func subtitle(duration: Double) -> String {
        let transients = pattern.events.filter { $0.type == .hapticTransient }.count
        let continuous = pattern.events.filter { $0.type == .hapticContinuous }.count
        let audio = pattern.events.filter { $0.type.isAudio }.count
        var parts = [counted(transients, "transient"), counted(continuous, "continuous event")]
        if audio > 0 { parts.append(counted(audio, "audio event")) }
        parts.append(counted(pattern.parameterCurves.count, "curve"))
        if !pattern.parameters.isEmpty { parts.append(counted(pattern.parameters.count, "parameter")) }
        return parts.joined(separator: " · ")
            + " · duration \(formatDecimal(pattern.duration, decimals: 3)) s (rendered to \(formatDecimal(duration, decimals: 3)) s with release tails)"
    }

    private func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    private func scaleLabels(_ canvas: inout SVGCanvas, top: Double, height: Double, labels: [(Double, String)]) {
        for (value, label) in labels {
            canvas.text(label, x: left - 4, y: top + height * (1 - value) + 4, size: 10, anchor: .end, fill: "#868e96")
        }
    }

    private func orderedControlIDs() -> [DynamicParameterID] {
        let used = Set(pattern.parameterCurves.map(\.id) + pattern.parameters.map(\.id))
        return DynamicParameterID.allCases.filter(used.contains)
    }

    /// Authored controls on one -1…1 scale: curves as lines through their points, step parameters as dots.
    private func drawControls(
        _ canvas: inout SVGCanvas, ids: [DynamicParameterID], top: Double, height: Double, x: (Double) -> Double
    ) {
        let y = { (value: Float) in top + height * (1 - (Double(value) + 1) / 2) }
        scaleLabels(&canvas, top: top, height: height, labels: [(1, "1"), (0.5, "0"), (0, "-1")])
        canvas.line(x1: left, y1: y(0), x2: left + plotWidth, y2: y(0), stroke: "#ced4da", dash: "4 3")
        for curve in pattern.parameterCurves {
            let color = Palette.control(curve.id, among: ids)
            let points = curve.controlPoints.map { (x(curve.time + $0.time), y(curve.id.range.clamp($0.value))) }
            canvas.polyline(
                points, stroke: color, width: 1.6,
                title: "\(curve.id.ahapName) curve at \(formatDecimal(curve.time, decimals: 3)) s")
            for point in points { canvas.circle(x: point.0, y: point.1, radius: 2, fill: color) }
        }
        // Step parameters hold until the next one of the same ID: draw the steps, then the points.
        for id in ids {
            let steps = pattern.parameters.filter { $0.id == id }
            guard !steps.isEmpty else { continue }
            var points: [(Double, Double)] = []
            for (index, step) in steps.enumerated() {
                let value = y(id.range.clamp(step.value))
                let end = index + 1 < steps.count ? steps[index + 1].time : pattern.duration
                points.append((x(step.time), value))
                points.append((x(end), value))
            }
            canvas.polyline(points, stroke: Palette.control(id, among: ids), width: 1.2)
        }
        for parameter in pattern.parameters {
            let color = Palette.control(parameter.id, among: ids)
            canvas.circle(
                x: x(parameter.time), y: y(parameter.id.range.clamp(parameter.value)), radius: 3.5, fill: color,
                title:
                    "\(parameter.id.ahapName) = \(parameter.value) at \(formatDecimal(parameter.time, decimals: 3)) s")
        }
    }

    /// One row of transient marks, continuous events packed into tracks, and a row for audio events.
    private func drawEventStrip(_ canvas: inout SVGCanvas, top: Double, tracks: EventTracks, x: (Double) -> Double) {
        canvas.text("Events", x: left - 28, y: top + 15, anchor: .end, bold: true)
        for event in pattern.events where event.type == .hapticTransient {
            let cx = x(event.time)
            let opacity = 0.35 + 0.65 * Double(event.intensity)
            canvas.polygon(
                [(cx - 4, top + 4), (cx + 4, top + 4), (cx, top + 16)], fill: Palette.transient, opacity: opacity)
        }
        for (track, events) in tracks.tracks.enumerated() {
            let y0 = top + 22 * Double(track + 1)
            for event in events {
                canvas.rect(
                    x: x(event.time), y: y0 + 3, width: max(x(event.time + event.duration) - x(event.time), 1.5),
                    height: 14,
                    fill: Palette.continuous, opacity: 0.35 + 0.65 * Double(event.intensity),
                    title:
                        "HapticContinuous at \(formatDecimal(event.time, decimals: 3)) s for \(formatDecimal(event.duration, decimals: 3)) s, intensity \(event.intensity), sharpness \(event.sharpness)"
                )
            }
        }
        let audioY = top + 22 * Double(tracks.count + 1)
        for event in pattern.events where event.type.isAudio {
            let end = event.type == .audioContinuous ? event.time + event.duration : event.time
            canvas.rect(
                x: x(event.time), y: audioY + 3, width: max(x(end) - x(event.time), 3), height: 14, fill: Palette.audio,
                opacity: 0.7,
                title: "\(event.type.ahapName) at \(formatDecimal(event.time, decimals: 3)) s")
        }
    }

    /// Signed acceleration (g) as the band between its least and greatest value in each pixel
    /// column: the carrier is far too fast to draw, its envelope is what the hand feels.
    private func drawAcceleration(
        _ canvas: inout SVGCanvas, _ actuator: ActuatorLane, top: Double, height: Double, duration: Double
    ) {
        let values = actuator.trace.values
        let peak = max(0.1, Double(values.lazy.map { abs($0) }.max() ?? 0))
        let scale = (peak * 10).rounded(.up) / 10
        let y = { (value: Double) in top + height / 2 - value / scale * (height / 2 - 4) }
        scaleLabels(
            &canvas, top: top, height: height,
            labels: [
                (1 - 4 / height, "+\(formatDecimal(scale, decimals: 1)) g"), (0.5, "0"),
                (4 / height, "−\(formatDecimal(scale, decimals: 1)) g"),
            ])
        canvas.line(x1: left, y1: y(0), x2: left + plotWidth, y2: y(0), stroke: "#ced4da", dash: "4 3")
        var upper: [(Double, Double)] = [], lower: [(Double, Double)] = []
        let columns = Int(plotWidth)
        for column in 0..<columns {
            let from = Int(Double(column) / Double(columns) * duration * actuator.trace.sampleRate)
            let to = min(values.count, Int(Double(column + 1) / Double(columns) * duration * actuator.trace.sampleRate))
            guard from < to else { continue }
            var low: Float = 0, high: Float = 0
            for value in values[from..<to] {
                low = min(low, value)
                high = max(high, value)
            }
            upper.append((left + Double(column) + 0.5, y(Double(high))))
            lower.append((left + Double(column) + 0.5, y(Double(low))))
        }
        if !upper.isEmpty {
            canvas.polygon(upper + lower.reversed(), fill: Palette.actuator, opacity: 0.7, stroke: Palette.actuator)
        }
        canvas.text(actuator.label, x: left + 6, y: top + 14, size: 11, fill: "#495057")
    }

    private func drawLegend(
        _ canvas: inout SVGCanvas, y: Double, controls: [DynamicParameterID], hasAudio: Bool, hasActuator: Bool
    ) {
        var entries: [(String, String)] = [
            ("intensity (min–max per pixel)", Palette.intensity), ("sharpness", Palette.sharpness),
            ("transient", Palette.transient), ("continuous", Palette.continuous),
        ]
        if hasAudio { entries.append(("audio", Palette.audio)) }
        if hasActuator { entries.append(("actuator acceleration (simulated)", Palette.actuator)) }
        for id in controls { entries.append((id.ahapName, Palette.control(id, among: controls))) }
        var cursor = left
        for (label, color) in entries {
            canvas.rect(x: cursor, y: y - 9, width: 12, height: 12, fill: color)
            canvas.text(label, x: cursor + 17, y: y + 1, size: 11)
            cursor += 17 + Double(label.count) * 6.2 + 18
        }
    }
}

/// Colours chosen to stay distinct for common colour-vision deficiencies.
enum Palette {
    static let intensity = "#e8590c"
    static let sharpness = "#1c7ed6"
    static let transient = "#2b8a3e"
    static let continuous = "#5c7cfa"
    static let audio = "#ae3ec9"
    static let actuator = "#495057"
    static let waveform = "#868e96"
    private static let controls = ["#c92a2a", "#0b7285", "#e67700", "#5f3dc4", "#087f5b", "#862e9c"]

    static func control(_ id: DynamicParameterID, among ids: [DynamicParameterID]) -> String {
        controls[(ids.firstIndex(of: id) ?? 0) % controls.count]
    }
}
