import Foundation

/// The one JSON style of everything Throbber writes (manifests, reports, `--json` output):
/// pretty-printed with sorted keys, so files diff cleanly and read the same run to run.
public enum JSONOutput {
    /// A new encoder in that style (`JSONEncoder` is not thread-safe to share).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `text` as a JSON string literal, quotes included: `"` and `\\` escaped, control characters
    /// and U+2028/U+2029 (which end a line in JavaScript) written as escapes, the rest as it is —
    /// for JSON written by hand (Lottie exports, the studio's events).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `value` as JSON text in that style.
    public static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
