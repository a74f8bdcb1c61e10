import Foundation

/// Runs CPU-bound synchronous work (a long link simulation, a sweep over many seeds) on a thread of
/// its own and waits for it without holding a thread of Swift's cooperative pool. Tests run in
/// parallel on that pool, which has one thread per core: on a 2-core machine two such tests held
/// both threads for a minute and starved every test that waits on real time (a handshake over a
/// pty failed after 60 s without its board having run at all).
public func onOwnThread<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let outcome = Outcome<T>()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            outcome.result = Result { try work() }
            done.resume()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    return try outcome.result!.get()
}

/// Written by the thread before it resumes the waiter, read after: the resume orders the two.
private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
