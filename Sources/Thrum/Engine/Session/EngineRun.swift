/// One run of the engine: from the start that began it to the stop that ends it.
///
/// A finished handler's `.stopEngine` is an answer about the run it was called in. The stop it
/// asks for may be carried out later (on another queue, after the handler returns), so it names
/// that run: a run that began since, which nobody asked to stop, keeps running.
package struct EngineRun: Equatable, Sendable {
    let number: Int
}
