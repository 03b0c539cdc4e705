import Throbber

/// A value an expression reads from its environment or gives back (docs/scene-files.md §6).
public enum ExpressionValue: Sendable, Hashable, CustomStringConvertible {
    /// A number; expressions only ever give finite ones.
    case number(Double)
    /// A boolean.
    case boolean(Bool)
    /// A colour with every component in [0, 1].
    case color(RGBA)
    /// Text.
    case string(String)

    /// The value's type.
    public var type: ExpressionType {
        switch self {
        case .number: .number
        case .boolean: .boolean
        case .color: .color
        case .string: .string
        }
    }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    public var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The colour, if this is one.
    public var color: RGBA? {
        if case .color(let value) = self { return value }
        return nil
    }

    /// The text, if this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as an expression would write it: `2.5`, `true`, `rgba(1, 0, 0, 1)`, `'spiral'`.
    public var description: String {
        switch self {
        case .number(let value): formatNumber(value)
        case .boolean(let value): value ? "true" : "false"
        case .color(let c): "rgba(\(formatNumber(c.r)), \(formatNumber(c.g)), \(formatNumber(c.b)), \(formatNumber(c.a)))"
        case .string(let text): "'\(text)'"
        }
    }
}
