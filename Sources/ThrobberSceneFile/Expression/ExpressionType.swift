import Throbber

/// The static type of a scene-file expression or of a name it reads (docs/scene-files.md §6).
///
/// Types are checked once, when the expression is compiled: a boolean is not a number, a colour
/// only flows through colour functions, names and `?:`, and a string is only read by `==`, `!=`
/// and `utf16Length`. Evaluation therefore never meets a value of the wrong type.
public enum ExpressionType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// An IEEE binary64 number, always finite.
    case number
    /// `true` or `false`: what comparisons, `&&`, `||` and `!` give and `?:` and `!` take.
    case boolean
    /// A straight-alpha sRGB colour, every component in [0, 1].
    case color
    /// Text: a text or choice parameter, compared with a string literal or measured.
    case string

    /// The type with its article, as messages say it: `a number`, `a boolean`, `a colour`, `a string`.
    public var description: String {
        switch self {
        case .number: "a number"
        case .boolean: "a boolean"
        case .color: "a colour"
        case .string: "a string"
        }
    }
}
