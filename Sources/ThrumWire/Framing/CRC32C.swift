/// CRC-32C (Castagnoli): poly 0x1EDC6F41 (reflected 0x82F63B78), init 0xFFFFFFFF, refin and refout true,
/// xorout 0xFFFFFFFF, check value 0xE3069283 over the ASCII bytes "123456789" (PROTOCOL.md §2.3).
/// It protects every frame and is also the content hash of timeline uploads.
public struct CRC32C: Sendable {
    public static let check: UInt32 = 0xE306_9283

    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// Feeds more bytes; the checksum of a message is the same however it is split.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var crc = state
        for byte in bytes { crc = (crc >> 8) ^ Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] }
        state = crc
    }

    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }
}
