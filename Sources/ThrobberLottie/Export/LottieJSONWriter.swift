import Foundation
import Throbber

/// A Lottie document as the exporter builds it: ordered objects (players read `ddd` before `ks`,
/// issue 51), numbers written with the digits their tolerance needs, and placeholders for the
/// animated properties a track fills in.
indirect enum LottieValue: Sendable {
    case number(Double, digits: Int)
    case integer(Int)
    case bool(Bool)
    case string(String)
    case array([LottieValue])
    case object([(String, LottieValue)])
    /// An animated property, filled in from the track's channel of this name.
    case channel(String)

    /// A property that does not change: `{"a": 0, "k": value}`.
    static func fixed(_ value: LottieValue) -> LottieValue { .object([("a", .integer(0)), ("k", value)]) }

    /// Numbers rounded to `digits` decimals.
    static func numbers(_ values: [Double], digits: Int) -> LottieValue { .array(values.map { .number($0, digits: digits) }) }

    /// The compact JSON text.
    func write(into out: inout String) {
        switch self {
        case let .number(x, digits): out += LottieValue.format(x, digits: digits)
        case let .integer(n): out += String(n)
        case let .bool(b): out += b ? "true" : "false"
        case let .string(s): LottieValue.writeString(s, into: &out)
        case let .array(items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                LottieValue.writeString(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        case let .channel(name):
            // A template is always filled before it is written; a placeholder left is the
            // exporter's own error, written so that a schema check fails on it.
            out += "{\"unfilled\":"
            LottieValue.writeString(name, into: &out)
            out += "}"
        }
    }

    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    /// `x` rounded to `digits` decimals, without trailing zeros or a negative zero (JSON keeps the leading zero).
    static func format(_ x: Double, digits: Int) -> String {
        guard x.isFinite else { return "0" }
        let scale = pow(10, Double(digits))
        let rounded = (x * scale).rounded() / scale
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(format: "%.\(digits)f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func writeString(_ s: String, into out: inout String) {
        out += JSONOutput.quoted(s)
    }
}
