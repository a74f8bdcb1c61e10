import Foundation

/// Catches SIGINT (Ctrl-C) and SIGTERM for as long as the value lives, calling `handler` on a
/// background queue instead of letting them kill the process, so a command can stop cleanly.
final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// Stops catching; the signals act as usual again.
    func release() {
        sources.forEach { $0.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
