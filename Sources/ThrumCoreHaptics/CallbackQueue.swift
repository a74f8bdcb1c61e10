import Dispatch

/// Where an engine's callbacks run, as Apple's header promises: "on an internal queue which
/// guarantees proper delivery order and allows reentrant calls to the API".
///
/// Handlers are Core Haptics' plain closure types, not `@Sendable`, so app code on the main actor
/// can write them. Thrum never runs them inside its engine actor: a handler that calls back into
/// the API (a completion handler that restarts its player) blocks only this queue while the engine
/// serves the call.
final class CallbackQueue: Sendable {
    private let queue = DispatchQueue(label: "Thrum.CoreHaptics.callbacks")

    /// Runs `callback` on the queue, after every callback delivered before it.
    func deliver(_ callback: @escaping () -> Void) {
        let box = Unchecked(callback)
        queue.async { box.value() }
    }

    /// A `@Sendable` handler for Thrum's engine that hands each call to `handler` on this queue.
    func forwarding<Argument: Sendable>(_ handler: @escaping (Argument) -> Void) -> @Sendable (Argument) -> Void {
        let box = Unchecked(handler)
        return { [self] argument in deliver { box.value(argument) } }
    }
}

/// A value the compiler cannot prove `Sendable` (an app's handler) that Thrum only ever calls on a
/// ``CallbackQueue``, one call at a time.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
