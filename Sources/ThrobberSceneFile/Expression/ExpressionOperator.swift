import Throbber

/// A binary operator of the expression language (docs/scene-files.md §6), from `+` to `||`.
enum ExpressionOperator: String, Sendable, Hashable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case and = "&&"
    case or = "||"

    /// The operators of the `compare` rule, which do not chain.
    static let comparisons: Set<ExpressionOperator> = [.less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual]
}
