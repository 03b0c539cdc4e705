import Foundation
import Throbber

/// One option a command accepts, declared once: its spellings, the placeholder of its value,
/// what values it takes (and so the range a read enforces), its default, and the words of its
/// line in `--help`.
///
/// The parser accepts it by `names`; `ParsedArguments` reads it with `kind`'s range and
/// `defaultValue`; `helpEntry` lays out its `OPTIONS:` line from the same fields, so the range
/// and default a help text shows are the ones enforced. In `help`, `{default}` stands for the
/// default value and `{min}` and `{max}` for the bounds of the range.
struct OptionSpec: Sendable {
    /// The values an option takes, and how a read checks them.
    enum Kind: Sendable {
        /// No value: given or not.
        case flag
        /// Any text; the command (or the library it passes it to) checks it.
        case text
        /// An integer in the range; nil when the range depends on another option and the
        /// command gives it as it reads (`--png-level`, whose encoder sets it).
        case integer(ClosedRange<Int>?)
        /// A finite number in the range.
        case number(NumberRange)
        /// One of these words.
        case choice([String])
        /// An unsigned 64-bit integer: a random seed.
        case seed
    }

    /// Every spelling, e.g. `["-o", "--output"]`; the last is the canonical name.
    let names: [String]
    /// The value's placeholder in the help (`N`, `DIR`); nil for a flag.
    let placeholder: String?
    let kind: Kind
    /// The default as it would be typed on the command line (`1`, `auto`), read as a given value
    /// would be; nil when there is none, or when the command works it out as it reads (the CPUs
    /// this process may use, the scene's loop) and the help says so in words.
    let defaultValue: String?
    /// The words of the help line, one help line per `\n`, with `{default}`, `{min}` and `{max}`
    /// standing for the declared default and range.
    let help: String

    /// - Parameters:
    ///   - names: every spelling, the canonical one last.
    ///   - value: the placeholder of the value; nil for a flag (which must be `.flag`).
    ///   - kind: what values it takes; `.text` for a value checked elsewhere.
    ///   - defaultValue: the default as typed on the command line.
    ///   - help: the help line's words.
    init(_ names: String..., value: String? = nil, _ kind: Kind? = nil, default defaultValue: String? = nil, help: String) {
        self.names = names
        self.placeholder = value
        self.kind = kind ?? (value == nil ? .flag : .text)
        self.defaultValue = defaultValue
        self.help = help
    }

    var canonical: String { names.last! }

    /// Whether it takes a value (`--fps 30` or `--fps=30`).
    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// The same option described otherwise for one command (its own words, or a default the
    /// command works out): the spellings and the values it takes stay those declared.
    func with(help: String? = nil, default defaultValue: String?? = .none) -> OptionSpec {
        OptionSpec(names: names, placeholder: placeholder, kind: kind, defaultValue: defaultValue ?? self.defaultValue, help: help ?? self.help)
    }

    private init(names: [String], placeholder: String?, kind: Kind, defaultValue: String?, help: String) {
        self.names = names
        self.placeholder = placeholder
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
    }

    /// `-h, --help`, which every command accepts.
    static let helpFlag = OptionSpec("-h", "--help", help: "show this help")

    /// `-q, --quiet` as the commands that write files take it.
    static let quiet = OptionSpec("-q", "--quiet", help: "print nothing on success")
}

extension OptionSpec {
    /// The column the help words start in: two spaces, the spellings and placeholder, padding.
    static let helpColumn = 25

    /// The lowest and highest value of the range, in the words a message uses; nil without one.
    var bounds: (min: String, max: String)? {
        switch kind {
        case .integer(let range?): return (String(range.lowerBound), String(range.upperBound))
        case .seed: return ("0", String(UInt64.max))
        case .number(let range):
            switch range {
            case .closed(let low, let high), .atLeastAtMost(let low, let high), .aboveAtMost(let low, let high),
                 .positiveWithin(let low, let high):
                return (formatNumber(low), formatNumber(high))
            case .atLeast(let low), .above(let low): return (formatNumber(low), "∞")
            case .any: return nil
            }
        default: return nil
        }
    }

    /// The help words with the declared default and range in place of `{default}`, `{min}`
    /// and `{max}`.
    var helpWords: String {
        var words = help
        if let defaultValue { words = words.replacingOccurrences(of: "{default}", with: defaultValue) }
        if let bounds {
            words = words.replacingOccurrences(of: "{min}", with: bounds.min).replacingOccurrences(of: "{max}", with: bounds.max)
        }
        return words
    }

    /// Its `OPTIONS:` entry: `  -o, --output DIR       directory for …`, each further line of the
    /// words under the first.
    var helpEntry: String {
        let left = "  " + names.joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "")
        let indent = String(repeating: " ", count: OptionSpec.helpColumn)
        let lines = helpWords.split(separator: "\n", omittingEmptySubsequences: false)
        let first = left + String(repeating: " ", count: max(1, OptionSpec.helpColumn - left.count)) + lines[0]
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }

    /// The entries of `options` one under another, as a help text's `OPTIONS:` section lists them.
    static func helpTable(_ options: [OptionSpec]) -> String {
        options.map(\.helpEntry).joined(separator: "\n")
    }
}
