import Foundation
import Testing
import Throbber
import ThrobberTestSupport
@testable import throbber

/// Every command's options against their one declaration (`OptionSpec`): the help lists exactly
/// the options the parser accepts, each with its declared default, and a value just outside a
/// declared range is refused by the built `throbber` with exit 64 and the one line that names the
/// option. The cases are drawn from the declarations, so a new option is held to them unlisted.
struct OptionDeclarationTests {
    /// Every command by name, and the top level as "".
    static let commands = TopLevel.commands.keys.sorted()

    /// The options a command accepts, `-h, --help` included, with its help text.
    static func declared(_ command: String) -> (options: [OptionSpec], help: String) {
        guard let type = TopLevel.commands[command] else { return ([TopLevel.helpFlag, TopLevel.version], TopLevel.help) }
        return (type.options + [OptionSpec.helpFlag], type.help)
    }

    @Test(arguments: [""] + commands)
    func helpListsExactlyTheDeclaredOptions(command: String) throws {
        let (options, help) = Self.declared(command)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The spellings of every entry the help lists: a line that starts an option's entry.
        let listed = lines.filter { $0.hasPrefix("  -") }.map { line in
            line.prefix(OptionSpec.helpColumn).split(separator: " ").filter { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
        }
        #expect(Set(listed.compactMap(\.last)) == Set(options.map(\.canonical)), "\(command): help and parser disagree")
        #expect(listed.count == Set(listed.compactMap(\.last)).count, "\(command): an option listed twice")
        let names = options.flatMap(\.names)
        #expect(names.count == Set(names).count, "\(command): a spelling declared twice")
        for option in options {
            // Each option's entry is its declaration's, laid out whole: the command lists the
            // variant it reads (its own words or default; the spellings, kind and range stay).
            let entries = lines.indices.filter { lines[$0].hasPrefix("  -") && lines[$0].prefix(OptionSpec.helpColumn)
                .split(separator: " ").contains { $0.trimmingCharacters(in: [","]) == option.canonical } }
            guard let first = entries.first else { continue }
            var end = first + 1
            while end < lines.count, lines[end].hasPrefix(String(repeating: " ", count: OptionSpec.helpColumn)) { end += 1 }
            let entry = lines[first..<end].joined(separator: "\n")
            #expect(!entry.contains("{"), "\(command) \(option.canonical): a token left in its help: \(entry)")
            #expect(entry == option.helpEntry, "\(command) \(option.canonical): the help lists other words than its declaration's")
            if let value = option.defaultValue {
                // Shown in the entry, or (bench's --png-level speaks for --png-encoder) as the section's "default X".
                #expect(entry.contains(value) || help.contains("(default \(value)"),
                        "\(command) \(option.canonical): its default \(value) is not in its help: \(entry)")
                #expect(Self.accepts(option, value), "\(command) \(option.canonical): its default \(value) is outside its range")
            }
        }
    }

    /// Whether `option`'s declared kind takes `text`, as `ParsedArguments` reads it.
    static func accepts(_ option: OptionSpec, _ text: String) -> Bool {
        switch option.kind {
        case .flag, .text: return true
        case .integer(let range): return Int(text).map { range?.contains($0) ?? true } ?? false
        case .number(let range): return Double(text).map(range.contains) ?? false
        case .choice(let words): return words.contains(text)
        case .seed: return UInt64(text) != nil
        }
    }

    /// One value just outside one option's declared range.
    struct Outside: Sendable, CustomTestStringConvertible {
        var command: String
        var option: String
        var value: String
        var testDescription: String { "\(command) \(option) \(value)" }
    }

    /// The nearest values outside each declared numeric range, on each side that is bounded:
    /// for every option of every command.
    static let outside: [Outside] = commands.flatMap { command in
        TopLevel.commands[command]!.options.flatMap { option -> [Outside] in
            let values: [String]
            switch option.kind {
            case .integer(let range?): values = [String(range.lowerBound - 1), String(range.upperBound + 1)]
            case .seed: values = ["-1", "18446744073709551616"]
            case .number(let range):
                switch range {
                case .closed(let low, let high), .atLeastAtMost(let low, let high), .positiveWithin(let low, let high):
                    values = ["\(low.nextDown)", "\(high.nextUp)"]
                case .aboveAtMost(let low, let high): values = ["\(low)", "\(high.nextUp)"]
                case .atLeast(let low): values = ["\(low.nextDown)"]
                case .above(let low): values = ["\(low)"]
                case .any: values = []
                }
            default: values = []
            }
            return values.map { Outside(command: command, option: option.canonical, value: $0) }
        }
    }

    /// What a command needs beside the option to reach the reads of its options: its positionals
    /// and required options. Each ends the command quickly should the value be taken after all
    /// (an output under a regular file, `BLOCKED`; a missing input; a dry run), so that a range
    /// that is not enforced fails here in a second instead of rendering for minutes.
    static let context: [String: [String]] = [
        "render": ["wave-ball", "-o", "BLOCKED"], "preview": ["activity", "-o", "BLOCKED.png"], "batch": ["JOB"],
        "parity": ["--scenes", "ring", "--dry-run"], "compare": ["a.png", "b.png"], "reproduce": ["x.png"],
        "bench": ["--allow-debug", "--baseline", "missing.json"], "export": ["ring", "-o", "BLOCKED.json"],
        // A page directory that is not one: the studio stops before it serves.
        "studio": ["--page-dir", "BLOCKED"],
    ]
    /// Options read only with another, by command and option: `parity --seed` goes with
    /// `--random`, `bench --sets` and `--seed` with `--png-sweep --check-rule`.
    static let companions: [String: [String]] = [
        "parity --seed": ["--random", "1"], "bench --seed": ["--png-sweep", "--check-rule"], "bench --sets": ["--png-sweep", "--check-rule"],
    ]

    @Test func everyDeclaredNumberOptionHasCases() {
        // The cases below cover every command that declares a range (a kind change cannot drop them).
        #expect(Set(Self.outside.map(\.command)) == ["render", "preview", "batch", "parity", "compare", "reproduce", "bench", "export", "studio"])
        #expect(Self.outside.count >= 30, "\(Self.outside.count)")
    }

    @Test(arguments: outside)
    func aValueJustOutsideTheDeclaredRangeIsRefused(_ item: Outside) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A regular file where outputs would go: creating anything under it fails (exit 73).
        let blocker = directory.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let job = directory.appendingPathComponent("job.json")
        try Data(#"{"renders": [{"scene": "ring", "frames": 1, "outputs": [{"type": "png", "pattern": "blocker/f/%d.png"}]}]}"#.utf8)
            .write(to: job)
        let context = (Self.context[item.command] ?? []).map {
            $0.replacingOccurrences(of: "BLOCKED", with: blocker.appendingPathComponent("out").path).replacingOccurrences(of: "JOB", with: job.path)
        }
        let result = try runThrobber([item.command] + context + (Self.companions["\(item.command) \(item.option)"] ?? []) + [item.option, item.value],
                                     in: directory)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("throbber: invalid \(item.option) '\(item.value)': "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["blocker", "job.json"],
                "a refused command wrote something")
    }
}
