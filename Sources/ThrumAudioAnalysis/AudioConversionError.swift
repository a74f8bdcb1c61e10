/// Why a sound could not be converted: the file, and the problem in words.
public struct AudioConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for callers that react to the kind.
    public enum Kind: Sendable, Hashable {
        /// No such file, or a folder. (A file that cannot be opened for reading reports `notAudio`, with
        /// libsndfile's reason.)
        case unreadable
        /// libsndfile recognises no audio format in it.
        case notAudio
        /// A container libsndfile knows holding a codec it does not decode.
        case unsupportedCodec
        /// The data ends before the header says it should, or the decoder fails partway.
        case truncated
        /// The file holds no samples.
        case empty
        /// A sample is NaN or infinite.
        case nonFiniteSample
        /// An option is out of its range.
        case invalidOptions
    }

    /// The file as it was given.
    public var file: String
    public var kind: Kind
    /// The problem in words, without the file name.
    public var problem: String

    public init(file: String, kind: Kind, problem: String) {
        self.file = file
        self.kind = kind
        self.problem = problem
    }

    /// `FILE: PROBLEM`.
    public var description: String { "\(file): \(problem)" }
}
