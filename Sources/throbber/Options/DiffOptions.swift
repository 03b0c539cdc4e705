import Throbber

/// Options shared by `parity` and `compare` (and `reproduce`'s `--max-diff`): the pass bound.
enum DiffOptions {
    static let maxDiff = OptionSpec("--max-diff", value: "D", .integer(0...255), default: "2",
                                    help: "allowed difference per channel in 8-bit steps (default {default})")
    static let maxPixels = OptionSpec("--max-pixels", value: "K", .integer(0...Int(Int32.max)), default: "0",
                                      help: "pixels allowed beyond D (default {default})")

    /// `--max-diff` and `--max-pixels`, in the order the help lists them.
    static let all = [maxDiff, maxPixels]

    /// The bound the options give, `maxPixels` being the command's words for `--max-pixels`.
    ///
    /// - Throws: a usage error naming the option out of range.
    static func bounds(_ arguments: ParsedArguments, maxPixels: OptionSpec = maxPixels) throws -> (maxDiff: Int, maxPixels: Int) {
        (try arguments.integer(maxDiff), try arguments.integer(maxPixels))
    }
}
