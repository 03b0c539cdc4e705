import Foundation
import Throbber

/// Why a scene-file expression did not compile or did not evaluate (docs/scene-files.md §6).
///
/// The message names the expression (echoed, so a long one stays short) and what is wrong with
/// it; the caller adds where the expression is (file, line, field) and, for an evaluation
/// error, the frame, t and parameters. `offset` lets a caller point at the spot.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in the terms a caller decides on.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The text is not in the grammar: a stray character, a missing operand or `)`, a
        /// chained comparison, a malformed number.
        case syntax
        /// The text breaks a limit: length, node count or nesting depth.
        case limit
        /// A name that is neither in scope nor a constant.
        case unknownName
        /// A call of a function that is not in the closed list.
        case unknownFunction
        /// A field that a clock does not have, or a field of something that is not a clock.
        case unknownField
        /// A string literal compared with a choice name that never takes that value.
        case unknownChoice
        /// A call with the wrong number of arguments.
        case arity
        /// A value of one type where another is required.
        case type
        /// A name given to `ExpressionScope` that an expression could not spell or that a
        /// constant or function already has.
        case invalidName
        /// Evaluation failed: division by zero, an overflow, a function's argument out of its
        /// domain. Also thrown by compilation, when a sub-expression that reads no names fails.
        case evaluation
        /// Evaluation used up the caller's budget of node evaluations.
        case budget
        /// The environment does not match the scope the expression was compiled in: a slot
        /// missing, of another type, or holding a non-finite number or an invalid colour.
        case environment
    }

    /// What went wrong.
    public var kind: Kind
    /// One line for a person, without a trailing newline.
    public var message: String
    /// Where in `source` the problem starts, counted in Unicode scalars from 0.
    public var offset: Int
    /// The whole expression text.
    public var source: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, offset: Int, source: String) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.source = source
    }

    /// The message.
    public var description: String { message }

    /// Whether the expression itself is at fault, so that compiling it again can only fail again
    /// (everything but `budget` and `environment`).
    public var isAboutTheExpression: Bool { kind != .budget && kind != .environment }

    /// The text of `source` from scalar offset `start` up to `end`, as written.
    static func excerpt(_ source: String, _ start: Int, _ end: Int) -> String {
        let scalars = source.unicodeScalars
        let from = scalars.index(scalars.startIndex, offsetBy: max(0, start), limitedBy: scalars.endIndex) ?? scalars.endIndex
        let to = scalars.index(from, offsetBy: max(0, end - start), limitedBy: scalars.endIndex) ?? scalars.endIndex
        return String(scalars[from..<to])
    }

    /// `text` quoted as messages quote an expression: in single quotes, shortened when long.
    static func quoted(_ text: String) -> String {
        "'\(ThrobberError.echoed(text))'"
    }

    /// An error about the part of `source` from `start` to `end`: `'a / (p - 0.5)' divides by
    /// zero`, with ` in 'whole expression'` added when the part is not the whole.
    static func about(_ kind: Kind, _ source: String, _ start: Int, _ end: Int, _ reason: String) -> ExpressionError {
        let part = excerpt(source, start, end)
        var message = "\(quoted(part)) \(reason)"
        if part.trimmingCharacters(in: .whitespacesAndNewlines) != source.trimmingCharacters(in: .whitespacesAndNewlines) {
            message += " in \(quoted(source))"
        }
        return ExpressionError(kind, message, offset: start, source: source)
    }
}
