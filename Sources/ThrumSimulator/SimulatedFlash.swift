import Foundation

/// NOR flash for a simulated board: erase sets a sector to 0xFF, writes can only clear bits.
/// Kept in memory, optionally mirrored to a file (so slots survive a restart of `thrum sim`).
/// A power cut can be armed to happen after a number of written or erased bytes: the operation in
/// progress stops part-way and every later access fails until `restorePower()` (a reboot).
public final class SimulatedFlash {
    public private(set) var bytes: [UInt8]
    public let sectorSize: Int
    public let file: URL?
    private var bytesUntilCut: Int?
    public private(set) var isPoweredOff = false
    /// Bytes written or erased since creation (for power-cut sweeps).
    public private(set) var bytesProgrammed = 0

    /// Fresh (erased) flash, or the contents of `file` when it exists with the right size.
    public init(size: Int, sectorSize: Int, file: URL? = nil) throws {
        self.sectorSize = sectorSize
        self.file = file
        if let file, let data = try? Data(contentsOf: file) {
            guard data.count == size else {
                throw SimulatorError("flash file \(file.path): \(data.count) bytes, the board's flash is \(size)")
            }
            bytes = Array(data)
        } else {
            bytes = Array(repeating: 0xFF, count: size)
        }
    }

    /// The next `count` programmed bytes succeed; the one after them fails and power is lost.
    public func cutPower(afterBytes count: Int) {
        bytesUntilCut = max(0, count)
    }

    public func restorePower() {
        isPoweredOff = false
        bytesUntilCut = nil
    }

    func read(_ address: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard !isPoweredOff, address >= 0, length >= 0, address <= bytes.count, length <= bytes.count - address else {
            return nil
        }
        return bytes[address..<address + length]
    }

    func write(_ address: Int, _ data: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !isPoweredOff, address >= 0, address <= bytes.count, data.count <= bytes.count - address else {
            return false
        }
        let allowed = budget(data.count)
        for index in 0..<allowed { bytes[address + index] &= data[index] }
        persist()
        return !isPoweredOff
    }

    func erase(sector address: Int) -> Bool {
        guard !isPoweredOff, address >= 0, address % sectorSize == 0, address < bytes.count else { return false }
        let allowed = budget(sectorSize)
        for index in 0..<allowed { bytes[address + index] = 0xFF }
        persist()
        return !isPoweredOff
    }

    private func budget(_ length: Int) -> Int {
        bytesProgrammed += length
        guard let left = bytesUntilCut else { return length }
        if left >= length {
            bytesUntilCut = left - length
            return length
        }
        bytesUntilCut = 0
        isPoweredOff = true
        return left
    }

    private func persist() {
        guard let file else { return }
        try? Data(bytes).write(to: file, options: .atomic)
    }
}
