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
