/// What a libserialport call returned when it failed: the function, its `sp_return`, and for
/// `SP_ERR_FAIL` the OS error (`sp_last_error_code`) and its message (`sp_last_error_message`),
/// captured on the failing thread right after the call, the only moment they are valid.
struct LibSerialPortFailure: Error, Sendable, Equatable {
    /// `enum sp_return`'s negative values.
    enum Code: Int32, Sendable, Equatable {
        /// `SP_ERR_ARG`: libserialport rejected an argument (for a name: it does not know the device).
        case argument = -1
        /// `SP_ERR_FAIL`: the OS reported an error; see `osError`.
        case fail = -2
        /// `SP_ERR_MEM`: out of memory.
        case memory = -3
        /// `SP_ERR_SUPP`: not supported on this OS or device.
        case unsupported = -4

        /// The C name, for messages.
        var name: String {
            switch self {
            case .argument: "SP_ERR_ARG"
            case .fail: "SP_ERR_FAIL"
            case .memory: "SP_ERR_MEM"
            case .unsupported: "SP_ERR_SUPP"
            }
        }
    }

    /// The C function that failed (`sp_open`, `sp_blocking_write`, ...).
    var function: String
    var code: Code
    /// The OS error number, for `SP_ERR_FAIL` (0 when the OS reported none).
    var osError: Int32
    /// The OS's message for `osError`, for `SP_ERR_FAIL`.
    var osMessage: String?

    init(_ function: String, _ code: Code, osError: Int32 = 0, osMessage: String? = nil) {
        self.function = function
        self.code = code
        self.osError = osError
        self.osMessage = osMessage
    }

    /// Turns any raw `sp_return` that is not a known error code into one (an unknown negative
    /// value is treated as a failure with no OS error, so a newer library cannot crash us).
    init(_ function: String, rawResult: Int32, osError: Int32 = 0, osMessage: String? = nil) {
        self.init(
            function, Code(rawValue: rawResult) ?? .fail, osError: osError,
            osMessage: osMessage ?? (Code(rawValue: rawResult) == nil ? "unknown sp_return \(rawResult)" : nil))
    }
}
