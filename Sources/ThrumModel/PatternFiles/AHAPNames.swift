import Foundation

/// Matching the enumerated string values of AHAP (event types, parameter IDs).
///
/// Exact spellings are compared byte for byte without allocating. Other capitalisations
/// (`hapticTransient`) are accepted, as real files contain them; the caller lints them in strict mode.
enum AHAPNames {
    struct Match<Value> {
        var value: Value
        /// False when the spelling differs from the canonical one in letter case.
        var exact: Bool
    }

    /// Canonical spellings as bytes, built once.
    struct Table<Value: RawRepresentable & CaseIterable & Sendable>: Sendable where Value.RawValue == String {
        struct Entry: Sendable {
            var bytes: [UInt8]
            var value: Value
            var name: String
        }
        let entries: [Entry]

        init(_ type: Value.Type) {
            entries = Value.allCases.map { Entry(bytes: Array($0.rawValue.utf8), value: $0, name: $0.rawValue) }
        }
    }

    static let eventTypes = Table(HapticEventType.self)
    static let eventParameterIDs = Table(EventParameterID.self)
    static let dynamicParameterIDs = Table(DynamicParameterID.self)

    static func match<Value>(_ node: Int, in document: JSONDocument, table: Table<Value>) -> Match<Value>? {
        let raw = document.rawBytes(node)
        if document.kind(node) == .string {
            for entry in table.entries where entry.bytes.count == raw.count {
                let equal = entry.bytes.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }
                if equal { return Match(value: entry.value, exact: true) }
            }
        }
        let written = document.string(node)
        let folded = written.lowercased()
        for entry in table.entries where entry.name.lowercased() == folded {
            return Match(value: entry.value, exact: entry.name == written)
        }
        return nil
    }

    /// A hint for a common mistake, e.g. `HapticAttackTime` → `AttackTime`, or a control ID used as an event parameter.
    static func suggestion(for name: String) -> String? {
        let folded = name.lowercased()
        var candidates: [String] = []
        for id in EventParameterID.allCases {
            let known = id.rawValue.lowercased()
            if folded == "haptic" + known || folded == known + "control" || folded == "haptic" + known + "control" {
                candidates.append(id.rawValue)
            }
        }
        for id in DynamicParameterID.allCases {
            let known = id.rawValue.lowercased()
            if folded + "control" == known || folded == known.replacingOccurrences(of: "haptic", with: "") {
                candidates.append(id.rawValue)
            }
        }
        return candidates.first
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
