import Foundation

/// Writes patterns as AHAP. Reading the output gives back an equal pattern (for normalised patterns).
///
/// Pattern elements are written events first, then parameters, then curves, each in array order — the
/// order `PatternValidator` uses for its locations. Numbers are written in their shortest form that reads
/// back exactly (`Float` values as floats, times as doubles). Non-finite numbers, which JSON cannot hold,
/// are written as 0; `PatternValidator` reports them. Custom-audio events with only a resource ID cannot be
/// written with their audio (Core Haptics refuses to export them too).
public enum AHAPWriter {
    /// `pretty`: one pattern element per line, indented; otherwise no whitespace at all.
    public static func data(for pattern: HapticPattern, pretty: Bool = true) -> Data {
        Data(bytes(for: pattern, pretty: pretty))
    }

    static func bytes(for pattern: HapticPattern, pretty: Bool) -> [UInt8] {
        var out = Output(pretty: pretty)
        let elementCount = pattern.events.count + pattern.parameters.count + pattern.parameterCurves.count
        out.bytes.reserveCapacity(256 + elementCount * (pretty ? 160 : 140))
        out.raw("{")
        out.newline(indent: 1)
        out.key("Version")
        out.double(pattern.version)
        if !pattern.metadata.isEmpty {
            out.raw(",")
            out.newline(indent: 1)
            out.key("Metadata")
            out.raw("{")
            for (index, key) in pattern.metadata.keys.sorted().enumerated() {
                if index > 0 { out.raw(",") }
                out.newline(indent: 2)
                out.key(key)
                out.string(pattern.metadata[key]!)
            }
            out.newline(indent: 1)
            out.raw("}")
        }
        out.raw(",")
        out.newline(indent: 1)
        out.key("Pattern")
        out.raw("[")
        var first = true
        func separator() {
            if !first { out.raw(",") }
            first = false
            out.newline(indent: 2)
        }
        for event in pattern.events {
            separator()
            write(event, to: &out)
        }
        for parameter in pattern.parameters {
            separator()
            out.raw("{")
            out.key("Parameter")
            out.raw("{")
            out.key("ParameterID")
            out.string(parameter.id.ahapName)
            out.comma()
            out.key("Time")
            out.double(parameter.time)
            out.comma()
            out.key("ParameterValue")
            out.float(parameter.value)
            out.raw("}}")
        }
        for curve in pattern.parameterCurves {
            separator()
            out.raw("{")
            out.key("ParameterCurve")
            out.raw("{")
            out.key("ParameterID")
            out.string(curve.id.ahapName)
            out.comma()
            out.key("Time")
            out.double(curve.time)
            out.comma()
            out.key("ParameterCurveControlPoints")
            out.raw("[")
            for (index, point) in curve.controlPoints.enumerated() {
                if index > 0 { out.comma() }
                out.raw("{")
                out.key("Time")
                out.double(point.time)
                out.comma()
                out.key("ParameterValue")
                out.float(point.value)
                out.raw("}")
            }
            out.raw("]}}")
        }
        out.newline(indent: 1)
        out.raw("]")
        out.newline(indent: 0)
        out.raw("}")
        if pretty { out.raw("\n") }
        return out.bytes
    }

    private static func write(_ event: HapticEvent, to out: inout Output) {
        out.raw("{")
        out.key("Event")
        out.raw("{")
        out.key("Time")
        out.double(event.time)
        out.comma()
        out.key("EventType")
        out.string(event.type.ahapName)
        if event.duration != 0 || event.type.isContinuous {
            out.comma()
            out.key("EventDuration")
            out.double(event.duration)
        }
        if !event.parameters.isEmpty {
            out.comma()
            out.key("EventParameters")
            out.raw("[")
            for (index, parameter) in event.parameters.enumerated() {
                if index > 0 { out.comma() }
                out.raw("{")
                out.key("ParameterID")
                out.string(parameter.id.ahapName)
                out.comma()
                out.key("ParameterValue")
                out.float(parameter.value)
                out.raw("}")
            }
            out.raw("]")
        }
        if event.type == .audioCustom, let waveform = event.waveform {
            if let path = waveform.path {
                out.comma()
                out.key("EventWaveformPath")
                out.string(path)
            }
            if !waveform.useVolumeEnvelope {
                out.comma()
                out.key("EventWaveformUseVolumeEnvelope")
                out.raw("false")
            }
            if waveform.loopEnabled {
                out.comma()
                out.key("EventWaveformLoopEnabled")
                out.raw("true")
            }
        }
        out.raw("}}")
    }

    /// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\t"): output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\r"): output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 15)],
                ]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private struct Output {
        let pretty: Bool
        var bytes: [UInt8] = []

        init(pretty: Bool) { self.pretty = pretty }

        mutating func raw(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func comma() { pretty ? raw(", ") : raw(",") }

        mutating func newline(indent: Int) {
            guard pretty else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
        }

        mutating func key(_ name: String) {
            AHAPWriter.writeString(name, to: &bytes)
            pretty ? raw(": ") : raw(":")
        }

        mutating func string(_ text: String) { AHAPWriter.writeString(text, to: &bytes) }

        mutating func double(_ value: Double) {
            guard value.isFinite else { return raw("0") }
            var text = value.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        mutating func float(_ value: Float) {
            guard value.isFinite else { return raw("0") }
            var text = value.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }
}
