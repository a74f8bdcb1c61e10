import Foundation
import Thrum

/// Core Haptics' error domain (`CHHapticErrorDomain`).
public let CHHapticErrorDomain = "com.apple.CoreHaptics"

/// Core Haptics' error, with Apple's codes (`CHHapticError.Code`). It bridges to `NSError` as
/// Apple's does: `(error as NSError).domain` is `"com.apple.CoreHaptics"` and `.code` is the Core
/// Haptics code, so a plug-in can pass it across a C boundary. `underlying` is Thrum's own error,
/// whose description says what happened and what to do.
public struct CHHapticError: CustomNSError, CustomStringConvertible, Hashable, @unchecked Sendable {
    public enum Code: Int, Sendable, Equatable {
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

    public static var errorDomain: String { CHHapticErrorDomain }

    public let code: Code
    /// Apple's form: what `NSError.userInfo` carries. Thrum puts its message under
    /// `NSLocalizedDescriptionKey`.
    public let userInfo: [String: Any]
    public let underlying: (any Error & Sendable)?
    /// Thrum's explanation: the `NSLocalizedDescriptionKey` entry of ``userInfo``.
    var message: String { userInfo[NSLocalizedDescriptionKey] as? String ?? "" }

    /// Apple's initialiser.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
        self.underlying = nil
    }

    /// An error with Thrum's explanation of what happened.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.userInfo = message.isEmpty ? [:] : [NSLocalizedDescriptionKey: message]
        self.underlying = underlying
    }

    init(_ error: any Error) {
        if let error = error as? CHHapticError {
            self = error
        } else if let engineError = error as? HapticEngineError {
            self.init(
                Code(rawValue: engineError.code) ?? .unknownError, engineError.description, underlying: engineError)
        } else if error is CancellationError {
            self.init(.operationNotPermitted, "cancelled")
        } else {
            self.init(.unknownError, "\(error)", underlying: error)
        }
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var description: String { "CHHapticError \(code.rawValue) (\(code)): \(message)" }

    public static func == (lhs: CHHapticError, rhs: CHHapticError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension CHHapticError.Code {
    /// `catch CHHapticError.engineNotRunning { … }`, as with Apple's error enums.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? CHHapticError)?.code == code
    }
}

/// Apple's error enums offer each code on the error type itself (`CHHapticError.engineNotRunning`).
extension CHHapticError {
    public static var engineNotRunning: Code { .engineNotRunning }
    public static var operationNotPermitted: Code { .operationNotPermitted }
    public static var engineStartTimeout: Code { .engineStartTimeout }
    public static var notSupported: Code { .notSupported }
    public static var serverInitFailed: Code { .serverInitFailed }
    public static var serverInterrupted: Code { .serverInterrupted }
    public static var invalidPatternPlayer: Code { .invalidPatternPlayer }
    public static var invalidPatternData: Code { .invalidPatternData }
    public static var invalidPatternDictionary: Code { .invalidPatternDictionary }
    public static var invalidAudioSession: Code { .invalidAudioSession }
    public static var invalidEngineParameter: Code { .invalidEngineParameter }
    public static var invalidParameterType: Code { .invalidParameterType }
    public static var invalidEventType: Code { .invalidEventType }
    public static var invalidEventTime: Code { .invalidEventTime }
    public static var invalidEventDuration: Code { .invalidEventDuration }
    public static var invalidAudioResource: Code { .invalidAudioResource }
    public static var resourceNotAvailable: Code { .resourceNotAvailable }
    public static var badEventEntry: Code { .badEventEntry }
    public static var badParameterEntry: Code { .badParameterEntry }
    public static var invalidTime: Code { .invalidTime }
    public static var fileNotFound: Code { .fileNotFound }
    public static var insufficientPower: Code { .insufficientPower }
    public static var unknownError: Code { .unknownError }
    public static var memoryError: Code { .memoryError }
}
