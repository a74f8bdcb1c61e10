/// CRC-32/ISO-HDLC (the zlib / Ethernet CRC): reflected polynomial 0xEDB88320, initial value
/// 0xFFFFFFFF, final XOR 0xFFFFFFFF. Check value: "123456789" → 0xCBF43926.
public struct CRC32: Sendable {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    public mutating func update<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        let table = CRC32.table
        var crc = state
        for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)] }
        state = crc
    }

    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    public static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// The timeline checksum: bytes 0–3 then bytes 8 to the end (the CRC field itself excluded).
    static func timelineChecksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes[0..<4])
        crc.update(bytes[8...])
        return crc.value
    }
}
