/// `Unmanaged`, as Core Haptics clients use it with players: `Unmanaged<CHHapticPatternPlayer>`.
///
/// Core Haptics' player protocols are Objective-C protocols, so on Apple's platforms an existential
/// `CHHapticPatternPlayer` is a plain object reference and the standard library's
/// `Unmanaged<Instance: AnyObject>` takes it; native plug-ins hand players across a C boundary
/// that way. A Swift protocol's existential is not a class type, even when the protocol is
/// class-bound, and Linux has no Objective-C protocols. This type, which shadows the standard
/// library's for code that imports ThrumCoreHaptics, keeps the same API but accepts any
/// class-bound type, existentials included: it holds the object itself, and gives it back cast to
/// `Instance`. For a class type it behaves exactly as `Swift.Unmanaged`.
///
/// `Instance` must be a class or a class-bound existential; anything else is a programming error
/// (the value would be boxed, and the box is what gets retained).
public struct Unmanaged<Instance> {
    private let object: Swift.Unmanaged<AnyObject>

    /// From the standard library's form, for APIs that return it.
    public init(_ object: Swift.Unmanaged<AnyObject>) { self.object = object }
    /// The standard library's form, for APIs that take it.
    public var standardLibraryValue: Swift.Unmanaged<AnyObject> { object }

    public static func fromOpaque(_ value: UnsafeRawPointer) -> Self { Self(.fromOpaque(value)) }
    public func toOpaque() -> UnsafeMutableRawPointer { object.toOpaque() }

    public static func passRetained(_ value: Instance) -> Self { Self(.passRetained(value as AnyObject)) }
    public static func passUnretained(_ value: Instance) -> Self { Self(.passUnretained(value as AnyObject)) }

    public func takeUnretainedValue() -> Instance { cast(object.takeUnretainedValue()) }
    public func takeRetainedValue() -> Instance { cast(object.takeRetainedValue()) }

    @discardableResult
    public func retain() -> Self { Self(object.retain()) }
    public func release() { object.release() }

    public func _withUnsafeGuaranteedRef<Result>(_ body: (Instance) throws -> Result) rethrows -> Result {
        try body(takeUnretainedValue())
    }

    private func cast(_ value: AnyObject) -> Instance {
        guard let instance = value as? Instance else {
            preconditionFailure(
                "Unmanaged<\(Instance.self)> holds a \(type(of: value)), which is not a \(Instance.self)")
        }
        return instance
    }
}
