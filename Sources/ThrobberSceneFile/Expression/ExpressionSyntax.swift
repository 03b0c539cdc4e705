import Throbber

/// One node of a parsed expression, before names are resolved and types checked, with the
/// part of the text it came from (docs/scene-files.md §6).
///
/// Offsets count Unicode scalars from 0, as `ExpressionError.offset` does. A parenthesised
/// expression keeps its inner node but widens the span over the parentheses, so that a message
/// quotes `(1 < 2)` as written.
struct ExpressionSyntax: Sendable, Hashable {
    /// What the node is.
    indirect enum Form: Sendable, Hashable {
        /// A number literal, its value already parsed (and finite).
        case number(Double)
        /// A string literal, without its quotes.
        case string(String)
        /// A name: a parameter, a constant, or (misused) a clock or function.
        case name(String)
        /// `name.field`; `fieldOffset` is where the field's name starts.
        case field(name: String, field: String, fieldOffset: Int)
        /// `function(arguments…)`; the function's name starts the node.
        case call(function: String, arguments: [ExpressionSyntax])
        /// `-operand`.
        case negate(ExpressionSyntax)
        /// `!operand`.
        case not(ExpressionSyntax)
        /// `left op right`.
        case binary(ExpressionOperator, ExpressionSyntax, ExpressionSyntax)
        /// `condition ? whenTrue : whenFalse`.
        case conditional(ExpressionSyntax, ExpressionSyntax, ExpressionSyntax)
    }

    /// What the node is.
    var form: Form
    /// Where the node's text starts.
    var start: Int
    /// Where the node's text ends (exclusive).
    var end: Int
}
