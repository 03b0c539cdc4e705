import Foundation

/// Two numbers given as one parameter: a size `W×H` (`screen`, `minimumSize`) or an offset `X,Y`
/// (`offset`), as SVProgressHUD takes a CGSize or a UIOffset.
public struct NumberPair: Sendable, Hashable {
    public var first: Double
    public var second: Double

    public init(_ first: Double, _ second: Double) {
        self.first = first
        self.second = second
    }

    /// How a pair is written: `390x844` for a size, `0,-40` for an offset.
    public enum Style: String, Sendable {
        case size = "x"
        case offset = ","

        /// The form in words, for messages.
        var form: String { self == .size ? "W×H (e.g. 390x844)" : "X,Y (e.g. 0,-40)" }
    }

    /// Parses `A×B`, `AxB`, `AXB` or `A,B` (spaces around the numbers allowed), each number in
    /// `range`; nil when the text is not two such numbers.
    public static func parse(_ text: String, in range: NumberRange) -> NumberPair? {
        let separators: Set<Character> = ["x", "X", "×", ","]
        let parts = text.split(omittingEmptySubsequences: false) { separators.contains($0) }
        guard parts.count == 2,
              let a = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let b = Double(parts[1].trimmingCharacters(in: .whitespaces)),
              range.contains(a), range.contains(b) else { return nil }
        return NumberPair(a, b)
    }

    /// The pair in `style`'s form, numbers in their shortest form that reads back the same.
    public func text(_ style: Style) -> String { "\(formatNumber(first))\(style.rawValue)\(formatNumber(second))" }
}
