/// NUL-terminated copies of Swift strings for a C struct that keeps pointers to them
/// (thr_board_config's texts and channel names): the core reads them for as long as it runs, so
/// they live as long as this object, which the board holds until it is freed.
final class CStringCopies {
    private var copies: [UnsafeMutablePointer<CChar>] = []

    init() {}

    /// A C copy of `text` that stays valid until this object goes.
    func copy(_ text: String) -> UnsafePointer<CChar> {
        let bytes = Array(text.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        copies.append(copy)
        return UnsafePointer(copy)
    }

    deinit { copies.forEach { $0.deallocate() } }
}
