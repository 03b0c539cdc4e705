import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `--png-encoder` and `--png-level`, shared by every command that writes PNGs (`render`,
/// `preview`, `bench`), as `BackendOptions` is for `--backend`.
enum PNGOptions {
    static let encoderName = OptionSpec("--png-encoder", value: "NAME", .choice(PNGEncoder.names), default: PNGEncoderCatalog.defaultName,
                                        help: """
        {default} (default: the fastest setting whose files are no
        larger than libpng's defaults, chosen from what the frames
        are: size, rows changed, flatness), libdeflate,
        libpng, isal, zlib (segments of rows, reused across a
        sequence), fast (isal 1 at every size), compact (zlib 8:
        what sheets are written with) or small (libdeflate 12: the
        smallest files, slowly); see docs/png-encoders.md
        """)
    /// Its range is the encoder's, given as it is read.
    static let level = OptionSpec("--png-level", value: "L", .integer(nil), help: """
        the encoder's level: libdeflate 0–12 (default 1), libpng 0–9
        (default 7), isal 0–3 (default 1), zlib 0–9 (default 4); with
        auto (or alone), a libdeflate level; not with fast, compact
        or small
        """)

    /// `--png-encoder` and `--png-level`, in the order the help lists them.
    static let all = [encoderName, level]

    /// The encoder the options name, the level's range and default being the encoder's; with
    /// neither option, `name`'s default (``PNGEncoderCatalog/defaultName`` unless the command
    /// declares another: a sheet's is `compact`).
    ///
    /// - Throws: a usage error naming the option at fault.
    static func encoder(_ arguments: ParsedArguments, name: OptionSpec = encoderName) throws -> PNGEncoder {
        let chosen = try arguments.choice(name)
        let chosenLevel: Int? = try arguments.value(level).map { text in
            guard let levels = PNGEncoder.levels(for: chosen) else {
                // A named setting fixes its level.
                let refusal = PNGEncoderCatalog.Refusal.levelWithNamedSetting(PNGEncoderCatalog.namedSetting(chosen)!)
                throw ThrobberError.invalid(level.canonical, text, allowed: PNGEncoderCatalog.allowed(refusal, name: chosen))
            }
            return try arguments.integer(level, default: 0, range: levels)
        }
        return try PNGEncoder(name: chosen, level: chosenLevel, nameField: name.canonical, levelField: level.canonical)
    }
}
