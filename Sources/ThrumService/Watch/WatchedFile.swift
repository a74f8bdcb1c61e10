import Foundation

/// `thrum serve --watch FILE` (Protocol/SERVICE.md §2): the file a designer edits in their own
/// editor. Its modification date and size are polled every 250 ms; when either changes, every client
/// gets a `pattern.changed` event with the new text (the studio reloads and replays it).
/// `GET /api/watch` returns the text now; `PUT /api/watch` replaces it (the studio's Save).
actor WatchedFile {
    nonisolated let url: URL
    /// The largest text it reads (and so the largest a save may write: a larger one would never be announced).
    nonisolated let maxBytes: Int
    private var stamp: Stamp?
    private var task: Task<Void, Never>?

    struct Stamp: Equatable {
        var modified: Date?
        var size: Int?
    }

    init(url: URL, maxBytes: Int) {
        self.url = url
        self.maxBytes = maxBytes
    }

    nonisolated var name: String { url.lastPathComponent }

    /// Polls until ``stop()``; `changed` gets the new text each time the file changes.
    func start(period: Duration = .milliseconds(250), changed: @escaping @Sendable (String) async -> Void) {
        stamp = currentStamp()
        task?.cancel()
        task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
                if let text = await self?.poll() { await changed(text) }
            }
        }
    }

    func stop() {
        task?.cancel()
        task = nil
    }

    /// The new text when the file changed since the last look, else nil.
    func poll() -> String? {
        let now = currentStamp()
        guard now != stamp else { return nil }
        stamp = now
        return text()
    }

    /// The file's text (nil when it is missing, too large or not UTF-8).
    nonisolated func text() -> String? {
        guard let data = try? Data(contentsOf: url), data.count <= maxBytes else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Replaces the file's content (atomically: a reader never sees half a file).
    nonisolated func write(_ data: Data) throws {
        try data.write(to: url, options: .atomic)
    }

    private nonisolated func currentStamp() -> Stamp {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return Stamp(
            modified: attributes?[.modificationDate] as? Date, size: (attributes?[.size] as? NSNumber)?.intValue)
    }
}
