/// Bytes received and not yet read, taken from the front in chunks. The consumed front is
/// dropped in bulk rather than per chunk, so that taking small chunks stays cheap.
package struct ChunkedBytes {
    private var storage: [UInt8] = []
    private var head = 0

    package init() {}

    package var count: Int { storage.count - head }

    package mutating func append(_ bytes: ArraySlice<UInt8>) { storage += bytes }
    package mutating func append(_ bytes: UnsafeRawBufferPointer) { storage += bytes }

    /// Takes up to `limit` bytes from the front.
    package mutating func take(upTo limit: Int) -> [UInt8] {
        let size = min(count, limit)
        let chunk = Array(storage[head..<head + size])
        head += size
        if head == storage.count {
            removeAll()
        } else if head >= 4096, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return chunk
    }

    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
