import Testing

@testable import ThrumTransport

/// The waiting-call primitive under every transport (`PendingList`, `Locked.suspend`): under
/// cancellation racing service, every waiting call ends exactly once (a continuation resumed
/// twice or never would trap or hang here) and no byte is lost or made up.
@Suite(.timeLimit(.minutes(5))) struct PendingListTests {
    private static let transportEnded = TransportError(.closed, device: "test")

    @Test("readers cancelled while bytes arrive: each read ends once, and every byte is read or still buffered")
    func readsRacingCancellation() async throws {
        for round in 0..<20 {
            let queue = ByteQueue(capacity: 1024, maxChunk: 1)
            let readers = (0..<64).map { _ in Task { try await queue.read() } }
            for (index, reader) in readers.enumerated() where (index + round) % 2 == 0 { reader.cancel() }
            for byte in 0..<40 { try await queue.write([UInt8(byte)]) }
            queue.finishWriting(readers: Self.transportEnded, writers: Self.transportEnded)
            var received: [UInt8] = []
            for reader in readers {
                switch await reader.result {
                case .success(let chunk): received += chunk
                case .failure(let error):
                    #expect(error is CancellationError || error as? TransportError == Self.transportEnded)
                }
            }
            var rest: [UInt8] = []
            while let chunk = try? await queue.read() { rest += chunk }
            #expect((received + rest).sorted() == (0..<40).map { UInt8($0) })
        }
    }

    @Test("writers cancelled while a reader drains: each write ends once, a finished write's bytes all arrive")
    func writesRacingCancellation() async throws {
        for round in 0..<20 {
            let queue = ByteQueue(capacity: 4)
            let writers = (0..<32).map { index in
                Task { try await queue.write([UInt8](repeating: UInt8(index), count: 3)) }
            }
            for (index, writer) in writers.enumerated() where (index + round) % 3 == 0 { writer.cancel() }
            var received: [UInt8] = []
            let drained = Task {
                var all: [UInt8] = []
                while let chunk = try? await queue.read() { all += chunk }
                return all
            }
            var finished: [UInt8] = []
            for (index, writer) in writers.enumerated() {
                switch await writer.result {
                case .success: finished.append(UInt8(index))
                case .failure(let error): #expect(error is CancellationError)
                }
            }
            queue.finishWriting(readers: Self.transportEnded, writers: Self.transportEnded)
            received = await drained.value
            for index in finished {
                #expect(received.filter { $0 == index }.count == 3, "write \(index) finished")
            }
        }
    }
}
