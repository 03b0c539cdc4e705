/// One `throbber` command: its help text, its options, and what it does with them.
protocol Subcommand: Sendable {
    /// The text `throbber COMMAND --help` prints: its own prose around an `OPTIONS:` section
    /// generated from the declarations (`OptionSpec.helpTable`).
    static var help: String { get }
    /// The options it accepts, in the order an unknown option's message lists them (`-h`/`--help`
    /// is added for every command); its help lists the same ones.
    static var options: [OptionSpec] { get }
    /// Runs the command on parsed arguments.
    ///
    /// - Throws: a `ThrobberError` carrying the message and exit code.
    static func execute(_ arguments: ParsedArguments) throws
}

extension Subcommand {
    /// Parses `argv` against the command's options, answers `--help`, or runs the command.
    ///
    /// - Throws: a usage error for an unknown option, or what `execute` throws.
    static func run(_ argv: [String]) throws {
        let arguments = try ParsedArguments(argv, options: options + [OptionSpec.helpFlag])
        if arguments.has(OptionSpec.helpFlag) {
            print(help)
            return
        }
        try execute(arguments)
    }
}
