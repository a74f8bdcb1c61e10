/// Free-form descriptive fields (AHAP `Metadata`); ignored by playback, kept for round trips.
public typealias PatternMetadata = [String: String]

/// A haptic pattern: events plus the controls that modulate them, as Core Haptics defines it.
///
/// A pattern is a plain value. Readers produce it normalised (events sorted by time, stable for
/// equal times; values clamped); code that builds one by hand can call `normalized()`.
public struct HapticPattern: Sendable, Hashable {
    /// AHAP `Version`; readers default a missing one to 1.0.
    public var version: Double
    public var metadata: PatternMetadata
    public var events: [HapticEvent]
    public var parameters: [DynamicParameter]
    public var parameterCurves: [ParameterCurve]

    public init(
        version: Double = 1.0,
        metadata: PatternMetadata = [:],
        events: [HapticEvent] = [],
        parameters: [DynamicParameter] = [],
        parameterCurves: [ParameterCurve] = []
    ) {
        self.version = version
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.parameterCurves = parameterCurves
    }

    public var isEmpty: Bool { events.isEmpty && parameters.isEmpty && parameterCurves.isEmpty }

    /// Duration as Core Haptics defines it: the latest start of an event or parameter, plus that
    /// event's duration; a curve counts until its last control point. Envelope release tails are
    /// not part of it (Apple's definition); `ReferenceRenderer` renders them all the same.
    public var duration: Double {
        var end = 0.0
        for event in events { end = max(end, event.time + event.duration) }
        for parameter in parameters { end = max(end, parameter.time) }
        for curve in parameterCurves { end = max(end, curve.endTime) }
        return end
    }

    /// Events sorted by time (stable), parameters and curves sorted by time (stable).
    public func normalized() -> HapticPattern {
        var copy = self
        copy.events = stableSorted(events) { $0.time }
        copy.parameters = stableSorted(parameters) { $0.time }
        copy.parameterCurves = stableSorted(parameterCurves) { $0.time }
        return copy
    }
}

/// Sorting that keeps the authored order of equal keys, which Swift's `sort` does not promise.
func stableSorted<Element>(_ items: [Element], by key: (Element) -> Double) -> [Element] {
    items.enumerated()
        .sorted { lhs, rhs in
            let (a, b) = (key(lhs.element), key(rhs.element))
            return a != b ? a < b : lhs.offset < rhs.offset
        }
        .map(\.element)
}
