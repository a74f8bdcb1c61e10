extension WireMessage: CustomStringConvertible {
    /// The message's name and fields, for logs and test failures: `PLAYER_START(tag: 3, player: 0, …)`.
    public var description: String {
        guard let payload = Mirror(reflecting: self).children.first?.value else { return type.name }
        let fields = Mirror(reflecting: payload).children.map { "\($0.label ?? "?"): \($0.value)" }
        return "\(type.name)(\(fields.joined(separator: ", ")))"
    }
}
