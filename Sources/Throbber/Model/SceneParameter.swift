import Foundation

/// One settable parameter of a scene, bound to the field of the scene's model that holds it.
///
/// The name is the one docs/spec.md uses, and it is what `--set name=value`, job files and
/// `throbber scenes` all speak. Defaults live once, in the model's field initialisers.
public struct SceneParameter<Model> {
    /// How the parameter is stored and which values it accepts.
    public enum Kind {
        case number(WritableKeyPath<Model, Double>, NumberRange)
        case optionalNumber(WritableKeyPath<Model, Double?>, NumberRange, unsetMeaning: String)
        case integer(WritableKeyPath<Model, Int>, ClosedRange<Int>)
        case color(WritableKeyPath<Model, RGBA>)
        case optionalColor(WritableKeyPath<Model, RGBA?>, unsetMeaning: String)
        case choice(WritableKeyPath<Model, String>, [String])
        /// Text: to paint (`TextRule.lines`) or a font file (`TextRule.fontFile`, empty = default).
        case text(WritableKeyPath<Model, String>, TextRule)
        /// Two numbers in `range` written in `style` (`390x844`, `0,-40`); with an unset meaning
        /// the pair is optional (`none` unsets it), without one it always holds a value.
        case pair(WritableKeyPath<Model, NumberPair?>, NumberRange, NumberPair.Style, unsetMeaning: String?)
        /// A number in `range` or one of `keywords` (`dismissAt=auto`), kept as its text; nil is unset.
        case numberOrKeyword(WritableKeyPath<Model, String?>, NumberRange, keywords: [String], unsetMeaning: String)
    }

    /// The SPEC name, e.g. `tickCount`.
    public let name: String
    /// The unit of a number (`pt`, `pt/s`, `rad`, `s`, `fraction`), or empty.
    public let unit: String
    /// One line saying what it does.
    public let summary: String
    /// Storage and range.
    public let kind: Kind
    /// Where random parity cases draw a number from when its declared range is open-ended;
    /// `nil` for a finite declared range (drawn as declared), a colour or a choice.
    public let declaredSampling: SamplingRange?
    /// The bounds that other parameters put on this one (`validateRelations`), for random cases:
    /// a draw outside them is redrawn inside them once every other parameter is drawn.
    public let samplingBounds: ((Model) -> ClosedRange<Double>)?
    /// Whether random parity cases draw it after everything else (the time included): a
    /// parameter added to a scene later, so that the cases drawn before it existed keep their
    /// other values (the `paths` scene's `layers`).
    public var drawnLast = false

    /// Creates a parameter description.
    ///
    /// - Parameters:
    ///   - name: the SPEC name.
    ///   - kind: storage and range.
    ///   - unit: the unit of a number, or empty.
    ///   - summary: one line saying what it does.
    ///   - sampling: the finite range random parity cases draw from; required for a number whose
    ///     declared range is open-ended.
    ///   - bounds: the bounds other parameters put on this one, as `validateRelations` checks
    ///     them, evaluated on a drawn model.
    public init(_ name: String, _ kind: Kind, unit: String = "", _ summary: String, sampling: SamplingRange? = nil,
                within bounds: ((Model) -> ClosedRange<Double>)? = nil) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.summary = summary
        self.declaredSampling = sampling
        self.samplingBounds = bounds
    }

    /// The finite range random parity cases draw this number from: the declared sampling
    /// range, else the declared range where it is finite; `nil` for colours and choices, and
    /// for a number that declares neither (a defect the sampler's tests catch).
    public var samplingRange: SamplingRange? {
        if let declaredSampling { return declaredSampling }
        switch kind {
        case .number(_, let range), .optionalNumber(_, let range, _), .pair(_, let range, _, _), .numberOrKeyword(_, let range, _, _):
            return SamplingRange.implied(by: range)
        case .integer(_, let range): return SamplingRange.implied(by: range)
        case .color, .optionalColor, .choice, .text: return nil
        }
    }

    /// Whether `value` lies in the declared range (what `set` and `check` accept).
    public func accepts(_ value: Double) -> Bool {
        switch kind {
        case .number(_, let range), .optionalNumber(_, let range, _), .numberOrKeyword(_, let range, _, _), .pair(_, let range, _, _):
            // A pair: either of its numbers.
            return range.contains(value)
        case .integer(_, let range): return value == value.rounded() && value >= Double(range.lowerBound) && value <= Double(range.upperBound)
        case .color, .optionalColor, .choice, .text: return false
        }
    }

    /// The value type in words: `number`, `integer`, `colour`, or the choices.
    public var typeName: String {
        switch kind {
        case .number, .optionalNumber: return "number"
        case .integer: return "integer"
        case .color, .optionalColor: return "colour"
        case .choice(_, let options): return options.joined(separator: "|")
        case .text: return "text"
        case .pair(_, _, let style, _): return style == .size ? "size" : "offset"
        case .numberOrKeyword(_, _, let keywords, _): return (["number"] + keywords).joined(separator: "|")
        }
    }

    /// What values are allowed, in words.
    public var allowed: String {
        switch kind {
        case .number(_, let range), .optionalNumber(_, let range, _): return range.text
        case .integer(_, let range): return "an integer in [\(range.lowerBound), \(range.upperBound)]"
        case .color, .optionalColor:
            return "a colour 'r,g,b,a' with components in [0, 1], or '#rrggbb[aa]'"
        case .choice(_, let options): return "one of " + options.joined(separator: ", ")
        case .text(_, let rule): return rule.allowed
        case .pair(_, let range, let style, let unset):
            return "\(style.form), each " + range.text.replacingOccurrences(of: "a number", with: "number")
                .replacingOccurrences(of: "a finite number", with: "finite number") + (unset == "none" ? ", or none" : "")
        case .numberOrKeyword(_, let range, let keywords, _): return range.text + ", or " + keywords.joined(separator: ", ")
        }
    }

    /// The value `model` holds, in the form `--set` accepts.
    public func value(in model: Model) -> String {
        switch kind {
        case .number(let path, _): return formatNumber(model[keyPath: path])
        case .optionalNumber(let path, _, let unset): return model[keyPath: path].map(formatNumber) ?? unset
        case .integer(let path, _): return String(model[keyPath: path])
        case .color(let path): return model[keyPath: path].description
        case .optionalColor(let path, let unset): return model[keyPath: path]?.description ?? unset
        case .choice(let path, _), .text(let path, _): return model[keyPath: path]
        case .pair(let path, _, let style, let unset): return model[keyPath: path]?.text(style) ?? unset ?? "none"
        case .numberOrKeyword(let path, _, _, let unset): return model[keyPath: path] ?? unset
        }
    }

    /// Whether `model` holds a value of its own for this parameter: false for an optional one
    /// left unset, whose value is derived (`value(in:)` then gives the unset meaning, such as
    /// "width" or "style", which `--set` does not take).
    public func isSet(in model: Model) -> Bool {
        switch kind {
        case .optionalNumber(let path, _, _): model[keyPath: path] != nil
        case .optionalColor(let path, _): model[keyPath: path] != nil
        case .text(let path, let rule): rule == .lines || !model[keyPath: path].isEmpty
        case .pair(let path, _, _, _): model[keyPath: path] != nil
        case .numberOrKeyword(let path, _, _, _): model[keyPath: path] != nil
        case .number, .integer, .color, .choice: true
        }
    }

    /// Parses `text` and stores it in `model`.
    ///
    /// - Throws: a usage error naming this parameter, the text and what is allowed.
    public func set(_ text: String, in model: inout Model) throws {
        // Text is taken as given: its spaces are part of it.
        if case .text(let path, let rule) = kind {
            try rule.check(text, field: name)
            model[keyPath: path] = text
            return
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let failure = ThrobberError.invalid(name, text, allowed: allowed)
        switch kind {
        case .number(let path, let range):
            guard let value = Double(trimmed), range.contains(value) else { throw failure }
            model[keyPath: path] = value
        case .optionalNumber(let path, let range, _):
            guard let value = Double(trimmed), range.contains(value) else { throw failure }
            model[keyPath: path] = value
        case .integer(let path, let range):
            guard let value = Double(trimmed), value == value.rounded(), value.isFinite,
                  value >= Double(range.lowerBound), value <= Double(range.upperBound) else { throw failure }
            model[keyPath: path] = Int(value)
        case .color(let path):
            guard let color = RGBA.parse(trimmed), color.isValid else { throw failure }
            model[keyPath: path] = color
        case .optionalColor(let path, _):
            guard let color = RGBA.parse(trimmed), color.isValid else { throw failure }
            model[keyPath: path] = color
        case .choice(let path, let options):
            guard options.contains(trimmed) else {
                var message = failure.message
                if let nearest = nearestName(to: trimmed, in: options) { message += "; did you mean '\(nearest)'?" }
                throw ThrobberError(message, kind: .usage)
            }
            model[keyPath: path] = trimmed
        case .pair(let path, let range, _, let unset):
            if unset == "none", trimmed.lowercased() == "none" {
                model[keyPath: path] = nil
                return
            }
            guard let pair = NumberPair.parse(trimmed, in: range) else { throw failure }
            model[keyPath: path] = pair
        case .numberOrKeyword(let path, let range, let keywords, _):
            if keywords.contains(trimmed) {
                model[keyPath: path] = trimmed
                return
            }
            guard let value = Double(trimmed), range.contains(value) else { throw failure }
            model[keyPath: path] = formatNumber(value)
        case .text:
            break
        }
    }

    /// Checks the value `model` holds against the range, for models built in code.
    ///
    /// - Throws: a usage error naming this parameter, its value and what is allowed.
    public func check(_ model: Model) throws {
        let ok: Bool
        switch kind {
        case .number(let path, let range): ok = range.contains(model[keyPath: path])
        case .optionalNumber(let path, let range, _): ok = model[keyPath: path].map(range.contains) ?? true
        case .integer(let path, let range): ok = range.contains(model[keyPath: path])
        case .color(let path): ok = model[keyPath: path].isValid
        case .optionalColor(let path, _): ok = model[keyPath: path]?.isValid ?? true
        case .choice(let path, let options): ok = options.contains(model[keyPath: path])
        case .text(let path, let rule):
            try rule.check(model[keyPath: path], field: name)
            ok = true
        case .pair(let path, let range, _, let unset):
            if let pair = model[keyPath: path] { ok = range.contains(pair.first) && range.contains(pair.second) } else { ok = unset != nil }
        case .numberOrKeyword(let path, let range, let keywords, _):
            ok = model[keyPath: path].map { keywords.contains($0) || Double($0).map(range.contains) == true } ?? true
        }
        if !ok { throw ThrobberError.invalid(name, value(in: model), allowed: allowed) }
    }

    /// The type-erased description `throbber scenes` prints.
    public func info(defaults: Model) -> ParameterInfo {
        ParameterInfo(name: name, type: typeName, unit: unit, defaultValue: value(in: defaults),
                      allowed: allowed, summary: summary)
    }
}

/// A parameter described without its model type: what `throbber scenes` lists.
public struct ParameterInfo: Sendable, Codable, Equatable {
    public var name: String
    public var type: String
    public var unit: String
    public var defaultValue: String
    public var allowed: String
    public var summary: String
}
