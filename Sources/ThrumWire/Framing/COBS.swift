/// Consistent Overhead Byte Stuffing (PROTOCOL.md §2.2): removes every 0x00 from a frame so that 0x00
/// can delimit frames. Encoded size is exactly `n + n/254 + 1` for data without zeros, never more.
public enum COBS {
    /// Largest encoded size of `count` bytes, without the delimiters.
    public static func maxEncodedCount(_ count: Int) -> Int { count + count / 254 + 1 }

    public static func encode(_ data: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(maxEncodedCount(data.count))
        var codeIndex = out.count
        out.append(0)  // placeholder for the first block's code
        var code: UInt8 = 1
        for byte in data {
            if byte == 0 {
                out[codeIndex] = code
                codeIndex = out.count
                out.append(0)
                code = 1
            } else {
                out.append(byte)
                code += 1
                if code == 0xFF {  // a full block of 254 data bytes
                    out[codeIndex] = code
                    codeIndex = out.count
                    out.append(0)
                    code = 1
                }
            }
        }
        out[codeIndex] = code
        return out
    }

    public enum DecodeError: Error, Equatable, Sendable {
        /// A 0x00 inside the encoded bytes (the framer never passes one; kept for direct callers).
        case zeroByte(at: Int)
        /// A code byte at `at` promises more bytes than remain.
        case blockOverrun(at: Int)
    }

    /// Decodes one frame's encoded bytes (delimiters removed).
    public static func decode(_ encoded: some Collection<UInt8>) -> Result<[UInt8], DecodeError> {
        let bytes = Array(encoded)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let code = Int(bytes[index])
            if code == 0 { return .failure(.zeroByte(at: index)) }
            let end = index + code
            if end > bytes.count { return .failure(.blockOverrun(at: index)) }
            for position in (index + 1)..<end {
                if bytes[position] == 0 { return .failure(.zeroByte(at: position)) }
                out.append(bytes[position])
            }
            index = end
            if code < 0xFF && index < bytes.count { out.append(0) }
        }
        return .success(out)
    }
}
