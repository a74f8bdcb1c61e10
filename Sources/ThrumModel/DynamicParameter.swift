/// A step change of a control at a time (AHAP `Parameter`, `CHHapticDynamicParameter`).
public struct DynamicParameter: Sendable, Hashable {
    public var id: DynamicParameterID
    public var value: Float
    /// Seconds from the pattern start.
    public var time: Double

    public init(_ id: DynamicParameterID, value: Float, time: Double) {
        self.id = id
        self.value = value
        self.time = time
    }
}

/// A point of a parameter curve. `time` is relative to the curve's start, not the pattern's.
public struct ControlPoint: Sendable, Hashable {
    public var time: Double
    public var value: Float

    public init(time: Double, value: Float) {
        self.time = time
        self.value = value
    }
}

/// A control that moves linearly through its points (AHAP `ParameterCurve`).
public struct ParameterCurve: Sendable, Hashable {
    public var id: DynamicParameterID
    /// Curve start, seconds from the pattern start.
    public var time: Double
    public var controlPoints: [ControlPoint]

    public init(_ id: DynamicParameterID, time: Double, controlPoints: [ControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = controlPoints
    }

    /// Pattern time of the last control point (the curve's own start when it has none).
    public var endTime: Double { time + (controlPoints.last?.time ?? 0) }
}
