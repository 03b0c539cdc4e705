import Throbber

/// A command line split into options and positional arguments against a subcommand's options.
/// Unknown options are usage errors that suggest the nearest known one.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []
    /// Every option given, in command-line order, with its value ("" for a flag): for options
    /// whose meaning depends on the one before (`export --theme NAME --set …`).
    private(set) var sequence: [(option: String, value: String)] = []

    /// - Throws: a usage error for an unknown option or a missing value.
    init(_ arguments: [String], options: [OptionSpec]) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || Double(argument) != nil {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                throw ThrobberError.unknown("option", name, known: options.map(\.canonical))
            }
            if spec.takesValue {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw ThrobberError("option \(name) needs a value", kind: .usage)
                    }
                    value = arguments[index]
                    index += 1
                }
                values[spec.canonical, default: []].append(value)
                sequence.append((spec.canonical, value))
            } else {
                guard inline == nil else { throw ThrobberError("option \(name) takes no value", kind: .usage) }
                values[spec.canonical, default: []].append("")
                sequence.append((spec.canonical, ""))
            }
        }
    }

    /// Whether an option was given.
    func has(_ option: OptionSpec) -> Bool { values[option.canonical] != nil }

    /// The last value given to an option.
    func value(_ option: OptionSpec) -> String? { values[option.canonical]?.last }

    /// Every value of a repeatable option, in order.
    func all(_ option: OptionSpec) -> [String] { values[option.canonical] ?? [] }

    /// The value given, else the declared default.
    func text(_ option: OptionSpec) -> String {
        guard let text = value(option) ?? option.defaultValue else { preconditionFailure("\(option.canonical) declares no default") }
        return text
    }

    /// An integer option within its declared range (or `range`, where the range depends on
    /// another option), else its declared default (or `fallback`, where the command works it out).
    ///
    /// - Throws: a usage error naming the option, the value and the range.
    func integer(_ option: OptionSpec, default fallback: Int? = nil, range: ClosedRange<Int>? = nil) throws -> Int {
        guard let range = range ?? option.integerRange else { preconditionFailure("\(option.canonical) declares no integer range") }
        guard let text = value(option) else { return absent(option, fallback) { Int($0) } }
        guard let number = Int(text), range.contains(number) else {
            throw ThrobberError.invalid(option.canonical, text, allowed: "an integer in [\(range.lowerBound), \(range.upperBound)]")
        }
        return number
    }

    /// An integer option within its declared range when given, else nil (an option without a
    /// default: `--device`, `--shards`, `--random`).
    ///
    /// - Throws: a usage error naming the option, the value and the range.
    func integerIfGiven(_ option: OptionSpec) throws -> Int? {
        try value(option).map { _ in try integer(option, default: 0) }
    }

    /// A number option within its declared range, else its declared default (or `fallback`).
    ///
    /// - Throws: a usage error naming the option, the value and the range in words.
    func number(_ option: OptionSpec, default fallback: Double? = nil) throws -> Double {
        guard case .number(let range) = option.kind else { preconditionFailure("\(option.canonical) is not a number option") }
        guard let text = value(option) else { return absent(option, fallback) { Double($0) } }
        guard let number = Double(text), range.contains(number) else {
            throw ThrobberError.invalid(option.canonical, text, allowed: range.text)
        }
        return number
    }

    /// A choice option among its declared words, else its declared default (or `fallback`).
    ///
    /// - Throws: a usage error naming the option and the words, with the nearest one.
    func choice(_ option: OptionSpec, default fallback: String? = nil) throws -> String {
        guard case .choice(let words) = option.kind else { preconditionFailure("\(option.canonical) is not a choice option") }
        guard let text = value(option) else { return absent(option, fallback) { $0 } }
        guard words.contains(text) else {
            var allowed = "one of " + words.joined(separator: ", ")
            if let nearest = nearestName(to: text, in: words) { allowed += "; did you mean '\(nearest)'?" }
            throw ThrobberError.invalid(option.canonical, text, allowed: allowed)
        }
        return text
    }

    /// What an option that was not given reads as: `fallback` (worked out by the command), else
    /// its declared default read by `parse`.
    ///
    /// - Precondition: one of them is there (a declaration error, not the user's).
    private func absent<Value>(_ option: OptionSpec, _ fallback: Value?, _ parse: (String) -> Value?) -> Value {
        guard let value = fallback ?? option.defaultValue.flatMap(parse) else { preconditionFailure("\(option.canonical) declares no default") }
        return value
    }

    /// A seed option, any unsigned 64-bit integer, else its declared default.
    ///
    /// - Throws: a usage error naming the option, the value and the range.
    func seed(_ option: OptionSpec) throws -> UInt64 {
        let text = self.text(option)
        guard let seed = UInt64(text) else {
            throw ThrobberError.invalid(option.canonical, text, allowed: "an integer in [0, \(UInt64.max)]")
        }
        return seed
    }
}

extension OptionSpec {
    /// The declared range of an integer option.
    var integerRange: ClosedRange<Int>? {
        if case .integer(let range) = kind { return range }
        return nil
    }
}
