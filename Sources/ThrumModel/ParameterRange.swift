/// The closed range a parameter's value may take; values outside are clamped.
public struct ParameterRange: Sendable, Hashable {
    public var min: Float
    public var max: Float

    public init(_ min: Float, _ max: Float) {
        self.min = min
        self.max = max
    }

    public static let unit = ParameterRange(0, 1)
    public static let signedUnit = ParameterRange(-1, 1)

    public func contains(_ value: Float) -> Bool { value >= min && value <= max }

    /// Clamps into the range. NaN has no sensible place in a range and is rejected earlier by readers;
    /// here it maps to `min` so that nothing downstream ever sees it.
    public func clamp(_ value: Float) -> Float {
        if value.isNaN { return min }
        return Swift.min(Swift.max(value, min), max)
    }
}
