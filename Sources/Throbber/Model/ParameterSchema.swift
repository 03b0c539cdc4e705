/// A scene parameter described for machines (`throbber scenes --json`): its type, its default
/// as a typed value, its range as numbers, its choices.
public struct ParameterSchema: Sendable, Codable, Equatable {
    /// A default value as JSON types it.
    public enum Value: Sendable, Codable, Equatable {
        case number(Double)
        case integer(Int)
        /// Straight-alpha components in [0, 1]: [r, g, b, a].
        case color([Double])
        case string(String)
        /// An optional parameter left unset: derived (see `unset`).
        case none

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .color(let components): try container.encode(components)
            case .string(let text): try container.encode(text)
            case .none: try container.encodeNil()
            }
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .none }
            else if let value = try? container.decode(Int.self) { self = .integer(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode([Double].self) { self = .color(value) }
            else { self = .string(try container.decode(String.self)) }
        }
    }

    /// The allowed numbers: bounds, each inclusive or not; nil where unbounded.
    public struct Range: Sendable, Codable, Equatable {
        public var min: Double?
        public var minInclusive: Bool
        public var max: Double?
        public var maxInclusive: Bool
    }

    public var name: String
    /// `number`, `integer`, `color`, `choice`, `text`, `size` (`W×H`) or `offset` (`X,Y`).
    public var type: String
    public var unit: String
    public var summary: String
    /// The scene's own value; `null` for an optional parameter left unset.
    public var `default`: Value
    /// Whether the parameter may be left unset, and what it then follows ("width", "style", …).
    public var optional: Bool
    public var unset: String?
    /// Numbers and integers: the allowed range.
    public var range: Range?
    /// Choices: every allowed value.
    public var choices: [String]?
    /// The allowed values in words, as errors give them.
    public var allowed: String
}

extension NumberRange {
    /// The range as bounds for machines.
    var schema: ParameterSchema.Range {
        switch self {
        case .any: .init(min: nil, minInclusive: false, max: nil, maxInclusive: false)
        case .atLeast(let low): .init(min: low, minInclusive: true, max: nil, maxInclusive: false)
        case .above(let low): .init(min: low, minInclusive: false, max: nil, maxInclusive: false)
        case .closed(let low, let high), .atLeastAtMost(let low, let high):
            .init(min: low, minInclusive: true, max: high, maxInclusive: true)
        case .aboveAtMost(let low, let high): .init(min: low, minInclusive: false, max: high, maxInclusive: true)
        case .positiveWithin(let low, let high):
            low > 0 ? .init(min: low, minInclusive: true, max: high, maxInclusive: true)
                : .init(min: 0, minInclusive: false, max: high, maxInclusive: true)
        }
    }
}

extension SceneParameter {
    /// This parameter for machines, with `model`'s value as its default.
    public func schema(defaults model: Model) -> ParameterSchema {
        func color(_ c: RGBA) -> ParameterSchema.Value { .color([c.r, c.g, c.b, c.a]) }
        var schema = ParameterSchema(name: name, type: "", unit: unit, summary: summary, default: .none, optional: false,
                                     unset: nil, range: nil, choices: nil, allowed: allowed)
        switch kind {
        case .number(let path, let range):
            (schema.type, schema.default, schema.range) = ("number", .number(model[keyPath: path]), range.schema)
        case .optionalNumber(let path, let range, let unset):
            (schema.type, schema.range, schema.optional, schema.unset) = ("number", range.schema, true, unset)
            schema.default = model[keyPath: path].map { .number($0) } ?? .none
        case .integer(let path, let range):
            schema.type = "integer"
            schema.default = .integer(model[keyPath: path])
            schema.range = .init(min: Double(range.lowerBound), minInclusive: true, max: Double(range.upperBound), maxInclusive: true)
        case .color(let path):
            (schema.type, schema.default) = ("color", color(model[keyPath: path]))
        case .optionalColor(let path, let unset):
            (schema.type, schema.optional, schema.unset) = ("color", true, unset)
            schema.default = model[keyPath: path].map(color) ?? .none
        case .choice(let path, let options):
            (schema.type, schema.default, schema.choices) = ("choice", .string(model[keyPath: path]), options)
        case .text(let path, let rule):
            let value = model[keyPath: path]
            (schema.type, schema.default) = ("text", .string(value))
            if rule == .fontFile {
                (schema.optional, schema.unset) = (true, "the role's default font")
                if value.isEmpty { schema.default = .none }
            } else if rule == .optionalLines {
                (schema.optional, schema.unset) = (true, "none")
                if value.isEmpty { schema.default = .none }
            }
        case .pair(let path, let range, let style, let unset):
            (schema.type, schema.range) = (style == .size ? "size" : "offset", range.schema)
            (schema.optional, schema.unset) = (unset != nil, unset)
            schema.default = model[keyPath: path].map { .string($0.text(style)) } ?? .none
        case .numberOrKeyword(let path, let range, let keywords, let unset):
            (schema.type, schema.range, schema.choices, schema.optional, schema.unset) = ("number", range.schema, keywords, true, unset)
            schema.default = model[keyPath: path].map { text in Double(text).map { .number($0) } ?? .string(text) } ?? .none
        }
        return schema
    }
}

extension SceneModel {
    /// Every parameter for machines, with this model's values as defaults.
    public var parameterSchemas: [ParameterSchema] { parameters.map { $0.schema(defaults: self) } }
}
