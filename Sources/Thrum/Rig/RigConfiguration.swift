import Foundation
import ThrumSerial
import ThrumSimulator

/// What a rig is: its boards, the names of their channels, and named localities. Read from a small
/// JSON file (`thrum play FILE --rig rig.json`):
///
/// ```json
/// {
///   "boards": [
///     { "name": "left",  "device": "/dev/thrum-left",  "channels": ["shoulder", "elbow"] },
///     { "name": "right", "serial": "3A0F2210", "channels": ["wrist", "hand"] }
///   ],
///   "localities": { "sleeve": ["shoulder", "elbow", "wrist", "hand"] }
/// }
/// ```
///
/// A board is found by `device` (a path, `usb:VID:PID[:SERIAL]` or `sim`) or by `serial`, its USB
/// serial number. `channels` names its channels for the rig, in index order (default: the names
/// the board gives, else `board.index`). A simulated board (`"device": "sim"`) may say what it
/// simulates: `"simulator": { "channels": 2, "clockPPM": -40 }`.
public struct RigConfiguration: Sendable, Equatable {
    public struct Board: Sendable, Equatable {
        public var name: String
        public var address: Address
        /// The rig's names for the board's channels, by index; nil: the board's own names.
        public var channelNames: [String]?
        /// What an embedded simulated board simulates (`device` `sim` only).
        public var simulator: BoardConfiguration?

        public enum Address: Sendable, Equatable, CustomStringConvertible {
            case device(DeviceAddress)
            /// The one USB serial port whose serial number this is, whatever its vendor and product.
            case serialNumber(String)

            public var description: String {
                switch self {
                case .device(let device): device.description
                case .serialNumber(let serial): "serial \(serial)"
                }
            }
        }

        public init(
            name: String, address: Address, channelNames: [String]? = nil, simulator: BoardConfiguration? = nil
        ) {
            self.name = name
            self.address = address
            self.channelNames = channelNames
            self.simulator = simulator
        }
    }

    public var boards: [Board]
    /// Named localities: `--locality sleeve`.
    public var localities: [String: HapticLocality]

    public init(boards: [Board], localities: [String: HapticLocality] = [:]) throws(HapticEngineError) {
        self.boards = boards
        self.localities = localities
        try check()
    }

    /// A rig of boards found by address, named `a`, `b`, … (`thrum play --device A --device B`).
    public init(devices: [DeviceAddress]) throws(HapticEngineError) {
        let names = devices.indices.map { String(UnicodeScalar(UInt8(97 + $0 % 26))) + ($0 >= 26 ? "\($0 / 26)" : "") }
        try self.init(boards: zip(names, devices).map { Board(name: $0, address: .device($1)) })
    }

    /// Reads a rig file; every problem names the file and the entry.
    public init(contentsOf url: URL) throws(HapticEngineError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw HapticEngineError.invalidRig("rig file \(url.path): cannot read it (\(error.localizedDescription))")
        }
        try self.init(json: data, name: url.path)
    }

    public init(json data: Data, name: String = "rig") throws(HapticEngineError) {
        let file: RigFile
        do { file = try JSONDecoder().decode(RigFile.self, from: data) } catch {
            throw HapticEngineError.invalidRig("rig file \(name): \(Self.describe(error))")
        }
        var boards: [Board] = []
        for (index, entry) in file.boards.enumerated() {
            let at = "rig file \(name): boards[\(index)]"
            let address: Board.Address
            switch (entry.device, entry.serial) {
            case (let device?, nil):
                do { address = .device(try DeviceAddress(parsing: device)) } catch {
                    throw HapticEngineError.invalidRig("\(at): device '\(device)': \(error)")
                }
            case (nil, let serial?): address = .serialNumber(serial)
            case (nil, nil): throw HapticEngineError.invalidRig("\(at): give \"device\" or \"serial\"")
            case (_?, _?): throw HapticEngineError.invalidRig("\(at): give \"device\" or \"serial\", not both")
            }
            var simulator: BoardConfiguration?
            if let simulated = entry.simulator {
                guard address == .device(.simulator) else {
                    throw HapticEngineError.invalidRig("\(at): \"simulator\" is for \"device\": \"sim\" only")
                }
                simulator = try simulated.configuration(at: at, names: entry.channels)
            }
            boards.append(
                Board(
                    name: entry.name ?? "board\(index)", address: address, channelNames: entry.channels,
                    simulator: simulator))
        }
        var localities: [String: HapticLocality] = [:]
        for (key, channels) in file.localities ?? [:] {
            do { localities[key] = try HapticLocality(parsing: channels.joined(separator: ",")) } catch {
                throw HapticEngineError.invalidRig("rig file \(name): localities.\(key): \(error)")
            }
        }
        do { try self.init(boards: boards, localities: localities) } catch {
            throw HapticEngineError.invalidRig("rig file \(name): \(Self.reason(error))")
        }
    }

    /// Board names unique and without dots; channel names unique across the rig.
    private func check() throws(HapticEngineError) {
        guard !boards.isEmpty else { throw HapticEngineError.invalidRig("a rig needs at least one board") }
        var seen: Set<String> = []
        for board in boards {
            guard !board.name.isEmpty, !board.name.contains("."), !board.name.contains(",") else {
                throw HapticEngineError.invalidRig("board name '\(board.name)': must be non-empty, without '.' or ','")
            }
            guard seen.insert(board.name).inserted else {
                throw HapticEngineError.invalidRig("two boards are named '\(board.name)'")
            }
        }
        var channels: [String: String] = [:]
        for board in boards {
            for name in board.channelNames ?? [] {
                guard !name.isEmpty, !name.contains("."), !name.contains(","), Int(name) == nil else {
                    throw HapticEngineError.invalidRig(
                        "board '\(board.name)': channel name '\(name)' must be non-empty, not a number, without '.' or ','"
                    )
                }
                if let other = channels.updateValue(board.name, forKey: name) {
                    throw HapticEngineError.invalidRig(
                        "channel name '\(name)' is on boards '\(other)' and '\(board.name)'; name them apart")
                }
            }
        }
    }

    private static func reason(_ error: HapticEngineError) -> String {
        if case .invalidRig(let why) = error { return why }
        return error.description
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context)?:
            return
                "\(path(context.codingPath)) \(context.debugDescription) \(context.underlyingError.map { "\($0)" } ?? "")"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
            in: CharacterSet(charactersIn: "."))
    }
}

/// The rig file as JSON.
private struct RigFile: Decodable {
    struct Board: Decodable {
        var name: String?
        var device: String?
        var serial: String?
        var channels: [String]?
        var simulator: Simulated?
    }

    struct Simulated: Decodable {
        var channels: Int?
        var clockPPM: Double?

        func configuration(at: String, names: [String]?) throws(HapticEngineError) -> BoardConfiguration {
            var configuration = BoardConfiguration()
            let count = channels ?? names?.count ?? 1
            configuration.channels = Array(repeating: configuration.channels[0], count: max(count, 0))
            for (index, name) in (names ?? []).enumerated() where index < count {
                configuration.channelNames[index] = name
            }
            configuration.clockPPM = clockPPM ?? 0
            let problems = configuration.problems()
            guard problems.isEmpty else {
                throw HapticEngineError.invalidRig("\(at).simulator: \(problems.joined(separator: "; "))")
            }
            return configuration
        }
    }

    var boards: [Board]
    var localities: [String: [String]]?
}
