import Foundation

/// `thrum stream` on a terminal: the keyboard as a palette in the spirit of HapticPalette's pad.
/// Up and down set intensity, left and right sharpness, digits jump intensity to a tenth, space
/// silences and resumes, q (or Ctrl-C, Ctrl-D) ends. Pure state; the terminal is elsewhere.
struct KeyboardPalette: Equatable {
    enum Key: Equatable {
        case up, down, left, right, digit(Int), space, quit, other
    }

    var intensity: Float = 0.5
    var sharpness: Float = 0.5
    var silenced = false
    static let step: Float = 0.1

    /// What the board should play now.
    var output: (intensity: Float, sharpness: Float) { (silenced ? 0 : intensity, sharpness) }

    /// Applies a key; returns false when the key ends the session.
    mutating func apply(_ key: Key) -> Bool {
        func clamp(_ value: Float) -> Float { (max(0, min(1, value)) * 10).rounded() / 10 }
        switch key {
        case .up: intensity = clamp(intensity + Self.step)
        case .down: intensity = clamp(intensity - Self.step)
        case .right: sharpness = clamp(sharpness + Self.step)
        case .left: sharpness = clamp(sharpness - Self.step)
        case .digit(let digit): intensity = clamp(Float(digit == 0 ? 10 : digit) / 10)
        case .space: silenced.toggle()
        case .quit: return false
        case .other: break
        }
        return true
    }

    /// The keys in a chunk of terminal input (arrow keys arrive as ESC [ A…D).
    static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: keys.append(.other)
                }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): keys.append(.digit(Int(byte - UInt8(ascii: "0"))))
            case UInt8(ascii: " "): keys.append(.space)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: keys.append(.quit)
            case UInt8(ascii: "k"): keys.append(.up)
            case UInt8(ascii: "j"): keys.append(.down)
            case UInt8(ascii: "l"): keys.append(.right)
            case UInt8(ascii: "h"): keys.append(.left)
            default: keys.append(.other)
            }
            index += 1
        }
        return keys
    }

    /// One status line: the two values as bars, and whether it is silenced.
    var line: String {
        func bar(_ value: Float) -> String {
            let filled = Int((value * 10).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "·", count: 10 - filled)
        }
        return String(
            format: "intensity %@ %.1f   sharpness %@ %.1f   %@", bar(intensity), intensity, bar(sharpness), sharpness,
            silenced ? "(silenced: space resumes)" : "↑↓ intensity  ←→ sharpness  space silence  q quit")
    }
}

/// Raw keyboard input from a terminal: no echo, no line editing, until restored.
final class RawTerminal: @unchecked Sendable {
    private var saved = termios()
    private let descriptor: Int32

    init?(descriptor: Int32 = STDIN_FILENO) {
        guard isatty(descriptor) != 0, tcgetattr(descriptor, &saved) == 0 else { return nil }
        self.descriptor = descriptor
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(descriptor, TCSANOW, &raw)
    }

    func restore() { tcsetattr(descriptor, TCSANOW, &saved) }

    /// Chunks of key bytes, read on a thread of their own; ends at end of input.
    func keyChunks() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let descriptor = descriptor
        Thread {
            var buffer = [UInt8](repeating: 0, count: 16)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { break }
                continuation.yield(Array(buffer[0..<count]))
            }
            continuation.finish()
        }.start()
        return stream
    }
}
