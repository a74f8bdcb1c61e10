import Thrum

/// The `parameters` object of `player.parameters` (Protocol/SERVICE.md §6.5): dynamic parameters by
/// short name (`intensity`, `sharpness`, `attackTime`, `decayTime`, `releaseTime`) or by Core
/// Haptics' name (`HapticIntensityControl`, …), each a number.
enum ParameterFields {
    static let shortNames: [String: DynamicParameterID] = [
        "intensity": .hapticIntensityControl, "sharpness": .hapticSharpnessControl,
        "attackTime": .hapticAttackTimeControl, "decayTime": .hapticDecayTimeControl,
        "releaseTime": .hapticReleaseTimeControl,
    ]

    static func parse(_ request: ServiceRequest) throws(ServiceError) -> [DynamicParameterID: Float] {
        let object = try request.object("parameters")
        guard !object.isEmpty else {
            throw ServiceError(.badRequest, "`parameters` is empty: name at least one", field: "parameters")
        }
        var values: [DynamicParameterID: Float] = [:]
        for (key, value) in object {
            guard let id = shortNames[key] ?? DynamicParameterID(rawValue: key) else {
                throw ServiceError(
                    .badRequest,
                    "`parameters.\(key)` is not a dynamic parameter (intensity, sharpness, attackTime, decayTime, releaseTime, or a Core Haptics name)",
                    field: "parameters.\(key)")
            }
            guard let number = value.doubleValue, number.isFinite else {
                throw ServiceError(
                    .badRequest, "`parameters.\(key)` must be a number, found \(value.typeName)",
                    field: "parameters.\(key)")
            }
            values[id] = Float(number)
        }
        return values
    }

    /// `position` of `player.pan`: 0 the first channel of the locality, 1 the last.
    static func pan(_ request: ServiceRequest) throws(ServiceError) -> Double {
        try request.number("position", in: 0...1)
    }

    /// Whether a request is real-time: parameters or a pan with no `at` (newest wins, nothing
    /// acknowledged by the board); with `at`, even `"now"`, it is a scheduled, acknowledged command.
    static func isRealtime(_ request: ServiceRequest) -> Bool {
        (request.type == "player.parameters" || request.type == "player.pan")
            && (request.fields["at"] == nil || request.fields["at"] == .null)
    }
}
