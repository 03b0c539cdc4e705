import Throbber
import ThrobberBatch
import ThrobberRender

/// One option a subcommand accepts.
struct OptionSpec {
    /// Every spelling, e.g. `["-o", "--output"]`; the last is the canonical name.
    let names: [String]
    /// Whether it takes a value (`--fps 30` or `--fps=30`).
    let takesValue: Bool

    init(_ names: String..., value: Bool = true) {
        self.names = names
        self.takesValue = value
    }

    var canonical: String { names.last! }
}

/// A command line split into options and positional arguments against a subcommand's options.
/// Unknown options are usage errors that suggest the nearest known one.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

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
                if let inline {
                    values[spec.canonical, default: []].append(inline)
                } else {
                    guard index < arguments.count else {
                        throw ThrobberError("option \(name) needs a value", kind: .usage)
                    }
                    values[spec.canonical, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                guard inline == nil else { throw ThrobberError("option \(name) takes no value", kind: .usage) }
                values[spec.canonical, default: []].append("")
            }
        }
    }

    /// Whether a flag (or any option) was given.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// The last value of an option.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The bounded range of each number option that means the same in every command, from
    /// `Limits`: a command that asks for `--fps` with an open range still gets a finite one.
    static let declaredRanges: [String: NumberRange] = [
        "--fps": Limits.fpsRange, "--start": Limits.timeRange, "--duration": Limits.spanRange, "--scale": Limits.scaleRange,
    ]

    /// A number option within `range` (and within the option's `declaredRanges` entry, which
    /// the message then names), or `fallback` when absent.
    func number(_ name: String, default fallback: Double, range: NumberRange) throws -> Double {
        guard let text = value(name) else { return fallback }
        let declared = ParsedArguments.declaredRanges[name]
        guard let number = Double(text), range.contains(number), declared?.contains(number) ?? true else {
            throw ThrobberError.invalid(name, text, allowed: declared.map { range.isBounded ? range.text : $0.text } ?? range.text)
        }
        return number
    }

    /// An integer option within `range`, or `fallback` when absent.
    func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw ThrobberError.invalid(name, text, allowed: "an integer in [\(range.lowerBound), \(range.upperBound)]")
        }
        return number
    }

    /// A choice option, or `fallback` when absent.
    func choice(_ name: String, default fallback: String, among options: [String]) throws -> String {
        guard let text = value(name) else { return fallback }
        guard options.contains(text) else {
            var allowed = "one of " + options.joined(separator: ", ")
            if let nearest = nearestName(to: text, in: options) { allowed += "; did you mean '\(nearest)'?" }
            throw ThrobberError.invalid(name, text, allowed: allowed)
        }
        return text
    }
}
