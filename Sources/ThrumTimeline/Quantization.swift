import ThrumModel

/// Value and time quantisation (Protocol/TIMELINE.md, "Units and Q formats").
///
/// Unit values (0…1) are UQ8 with 255 meaning 1.0 (`q / 255`), so both ends are exact.
/// Signed values (−1…1) are SQ8 with 127 meaning 1.0 (`q / 127`); −128 is invalid.
/// Rounding is to nearest, halves away from zero.
public enum Quantization {
    public static func unit(_ value: Float) -> UInt8 {
        let clamped = ParameterRange.unit.clamp(value)
        return UInt8((clamped * 255).rounded(.toNearestOrAwayFromZero))
    }

    public static func signed(_ value: Float) -> Int8 {
        let clamped = ParameterRange.signedUnit.clamp(value)
        return Int8((clamped * 127).rounded(.toNearestOrAwayFromZero))
    }

    public static func unitValue(_ q: UInt8) -> Float { Float(q) / 255 }
    public static func signedValue(_ q: Int8) -> Float { Float(q) / 127 }

    /// The byte stored for a control's value: UQ8 for multiplying controls, SQ8 for adding ones.
    public static func control(_ id: DynamicParameterID, _ value: Float) -> UInt8 {
        id.isUnsignedInTimeline ? unit(value) : UInt8(bitPattern: signed(value))
    }

    public static func controlValue(_ id: DynamicParameterID, _ raw: UInt8) -> Float {
        id.isUnsignedInTimeline ? unitValue(raw) : signedValue(Int8(bitPattern: raw))
    }

    /// Seconds to ticks, or nil when not finite, negative, or past `TimelineFormat.maxTicks`.
    public static func ticks(_ seconds: Double) -> UInt32? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let ticks = (seconds * TimelineFormat.ticksPerSecond).rounded(.toNearestOrAwayFromZero)
        guard ticks <= Double(TimelineFormat.maxTicks) else { return nil }
        return UInt32(ticks)
    }

    public static func seconds(_ ticks: UInt32) -> Double { Double(ticks) / TimelineFormat.ticksPerSecond }

    /// Worst-case quantisation errors, as the spec states them.
    public static let maxUnitError: Float = 0.5 / 255
    public static let maxSignedError: Float = 0.5 / 127
    public static let maxTimeError: Double = 0.5 / TimelineFormat.ticksPerSecond
}
