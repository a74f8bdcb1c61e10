import Thrum

/// Core Haptics' error, with Apple's codes (`CHHapticError.Code`). `underlying` is Thrum's own
/// error, whose description says what happened and what to do.
public struct CHHapticError: Error, CustomStringConvertible, Sendable {
    public enum Code: Int, Sendable {
        case engineNotRunning = -4805
        case operationNotPermitted = -4806
        case engineStartTimeout = -4808
        case notSupported = -4809
        case serverInitFailed = -4810
        case serverInterrupted = -4811
        case invalidPatternPlayer = -4812
        case invalidPatternData = -4813
        case invalidPatternDictionary = -4814
        case invalidAudioSession = -4815
        case invalidEngineParameter = -4816
        case invalidParameterType = -4820
        case invalidEventType = -4821
        case invalidEventTime = -4822
        case invalidEventDuration = -4823
        case invalidAudioResource = -4824
        case resourceNotAvailable = -4825
        case badEventEntry = -4830
        case badParameterEntry = -4831
        case invalidTime = -4840
        case fileNotFound = -4851
        case insufficientPower = -4897
        case unknownError = -4898
        case memoryError = -4899
    }

    public static let errorDomain = "com.apple.CoreHaptics"

    public let code: Code
    public let underlying: (any Error & Sendable)?
    let message: String

    public init(_ code: Code, _ message: String = "", underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    init(_ error: any Error) {
        if let error = error as? CHHapticError {
            self = error
        } else if let engineError = error as? HapticEngineError {
            self.init(Code(rawValue: engineError.code) ?? .unknownError, engineError.description, underlying: engineError)
        } else if error is CancellationError {
            self.init(.operationNotPermitted, "cancelled")
        } else {
            self.init(.unknownError, "\(error)")
        }
    }

    public var description: String { "CHHapticError \(code.rawValue) (\(code)): \(message)" }
}
