/// A control sent to a running player: a `sendParameters` value or a `scheduleParameterCurve`
/// curve, placed at a board time (seconds on the board's clock, like `Playback.startTime`).
///
/// Run-time controls form the second control layer of a playback (Protocol/SEMANTICS.md §3):
/// they combine with the pattern's own controls the same way (intensity multiplies, the rest
/// add), are not scaled by the playback rate and are not repeated by loops.
public struct RuntimeControl: Sendable, Hashable {
    public enum Change: Sendable, Hashable {
        /// A step to this value (`sendParameters`).
        case value(Float)
        /// A linear curve; control-point times are relative to `boardTime`.
        case curve([ControlPoint])
    }

    public var id: DynamicParameterID
    /// When the change takes effect (a step) or the curve starts, in board seconds.
    public var boardTime: Double
    public var change: Change

    public init(_ id: DynamicParameterID, boardTime: Double, change: Change) {
        self.id = id
        self.boardTime = boardTime
        self.change = change
    }

    public static func parameter(_ id: DynamicParameterID, value: Float, at boardTime: Double) -> RuntimeControl {
        RuntimeControl(id, boardTime: boardTime, change: .value(value))
    }

    public static func curve(
        _ id: DynamicParameterID, controlPoints: [ControlPoint], at boardTime: Double
    ) -> RuntimeControl {
        RuntimeControl(id, boardTime: boardTime, change: .curve(controlPoints))
    }

    /// `sendParameters([parameter], atTime: boardTime)`: the parameter's own time is an offset from `boardTime`.
    public init(sent parameter: DynamicParameter, at boardTime: Double) {
        self.init(parameter.id, boardTime: boardTime + parameter.time, change: .value(parameter.value))
    }

    /// `scheduleParameterCurve(curve, atTime: boardTime)`: `boardTime` replaces the curve's own time.
    public init(scheduled curve: ParameterCurve, at boardTime: Double) {
        self.init(curve.id, boardTime: boardTime, change: .curve(curve.controlPoints))
    }
}
