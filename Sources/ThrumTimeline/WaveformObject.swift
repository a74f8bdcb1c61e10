/// The samples of a registered audio resource as a board plays them (Protocol/WAVEFORM.md): signed
/// 8-bit mono PCM at the board's own rate, so the board mixes with one multiply per sample and the
/// host, where floating point is free, does the resampling. It is uploaded and stored like a
/// timeline; boards tell the two apart by the magic (`WF`, not `TL`).
public struct WaveformObject: Sendable, Hashable {
    /// The ID `registerAudioResource` returned; timelines name the sound by it (never 0).
    public var resourceID: UInt32
    /// Hz; a board takes only objects at its own `audio_rate_hz`.
    public var sampleRate: UInt32
    /// Each the value `q / 128`, so −128 is −1 and 1 is just out of reach.
    public var samples: [Int8]

    /// No checks here: an object with resource 0, rate 0 or no samples encodes, and `decode`
    /// then refuses it as a board would.
    public init(resourceID: UInt32, sampleRate: UInt32, samples: [Int8]) {
        self.resourceID = resourceID
        self.sampleRate = sampleRate
        self.samples = samples
    }

    static let magic: (UInt8, UInt8) = (0x57, 0x46)  // "WF"
    static let version: UInt8 = 1
    /// Signed 8-bit PCM, one channel: the only format of version 1.
    static let formatInt8Mono: UInt8 = 0
    /// Bytes before the samples.
    public static let headerSize = 12

    /// The object's bytes (WAVEFORM.md §2).
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.headerSize + samples.count)
        writer.byte(Self.magic.0)
        writer.byte(Self.magic.1)
        writer.byte(Self.version)
        writer.byte(Self.formatInt8Mono)
        writer.uint32(resourceID)
        writer.uint32(sampleRate)
        writer.append(samples.map { UInt8(bitPattern: $0) })
        return writer.bytes
    }

    /// Bytes → object, checking the fields in the order of the spec's table so that every reader
    /// (this one, `thr_wf_validate`) gives the same reason and offset for the same bytes.
    public static func decode(_ bytes: some Collection<UInt8>) throws(TimelineDecodeError) -> WaveformObject {
        let bytes = Array(bytes)
        let header = try readHeader(bytes)
        return WaveformObject(
            resourceID: header.resourceID, sampleRate: header.sampleRate,
            samples: bytes[headerSize...].map { Int8(bitPattern: $0) })
    }

    /// Every check of the spec's table: the header's fields, then that at least one sample follows.
    private static func readHeader(
        _ bytes: [UInt8]
    ) throws(TimelineDecodeError) -> (resourceID: UInt32, sampleRate: UInt32) {
        var reader = ByteReader(bytes)
        do throws(TimelineDecodeError) {
            // Both magic bytes are read before either is judged, as the timeline reader does:
            // two wrong bytes are bad magic, one byte is too short to tell.
            let first = try reader.byte("the magic")
            let second = try reader.byte("the magic")
            guard first == magic.0, second == magic.1 else {
                throw TimelineDecodeError(
                    .badMagic, at: 0, "starts with \(hex(first)) \(hex(second)), not 57 46 (\"WF\")")
            }
            let version = try reader.byte("the version")
            guard version == Self.version else {
                throw TimelineDecodeError(
                    .badVersion, at: 2, "waveform version \(version); this reader knows \(Self.version)")
            }
            let format = try reader.byte("the format")
            guard format == formatInt8Mono else {
                throw TimelineDecodeError(
                    .badFlags, at: 3, "sample format \(hex(format)); only 00 (signed 8-bit mono) is defined")
            }
            let resourceID = try reader.uint32("the resource ID")
            guard resourceID >= 1 else {
                throw TimelineDecodeError(.valueOutOfRange, at: 4, "resource ID 0; IDs start at 1")
            }
            let sampleRate = try reader.uint32("the sample rate")
            guard sampleRate >= 1 else { throw TimelineDecodeError(.valueOutOfRange, at: 8, "sample rate 0 Hz") }
            guard !reader.isAtLimit else { throw TimelineDecodeError(.truncated, at: reader.position, "no samples") }
            return (resourceID, sampleRate)
        } catch  where error.reason == .truncated {
            // The spec puts a cut-short field at the object's size, not at the field's start.
            throw TimelineDecodeError(.truncated, at: bytes.count, error.detail)
        }
    }

    /// A sample value in −1…1 as stored: `round(v × 128)`, halves away from zero, clamped to
    /// −128…127 (so 1 becomes 127); NaN, which has no nearest value, is silence.
    public static func quantise(_ value: Float) -> Int8 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 128).rounded(.toNearestOrAwayFromZero)
        return Int8(max(-128, min(127, scaled)))
    }
}
