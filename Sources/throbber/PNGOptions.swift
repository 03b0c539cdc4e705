import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `--png-encoder` and `--png-level`, shared by every command that writes PNGs (`render`,
/// `preview`, `bench`), as `BackendOptions` is for `--backend`.
enum PNGOptions {
    static let specs = [OptionSpec("--png-encoder"), OptionSpec("--png-level")]

    static let help = """
          --png-encoder NAME     auto (default: per scene and size, the fastest setting whose
                                 files are no larger than libpng's defaults), libdeflate,
                                 libpng, isal, zlib (segments of rows, reused across a
                                 sequence), fast (isal 1 at every size), compact (zlib 8:
                                 what sheets are written with) or small (libdeflate 12: the
                                 smallest files, slowly); see docs/png-encoders.md
          --png-level L          the encoder's level: libdeflate 0–12 (default 1), libpng 0–9
                                 (default 7), isal 0–3 (default 1), zlib 0–9 (default 4); with
                                 auto (or alone), a libdeflate level; not with fast, compact
                                 or small
        """

    /// The encoder the options name, the level's range and default being the encoder's; with
    /// neither option, `fallback` (``PNGEncoderCatalog/defaultName`` unless the command keeps
    /// another: a sheet's is `compact`).
    static func encoder(_ arguments: ParsedArguments, default fallback: String = PNGEncoderCatalog.defaultName) throws -> PNGEncoder {
        let name = try arguments.choice("--png-encoder", default: fallback, among: PNGEncoder.names)
        let level: Int? = try arguments.value("--png-level").map { text in
            guard let levels = PNGEncoder.levels(for: name) else {
                // A named setting fixes its level.
                let refusal = PNGEncoderCatalog.Refusal.levelWithNamedSetting(PNGEncoderCatalog.namedSetting(name)!)
                throw ThrobberError.invalid("--png-level", text, allowed: PNGEncoderCatalog.allowed(refusal, name: name))
            }
            return try arguments.integer("--png-level", default: 0, range: levels)
        }
        return try PNGEncoder(name: name, level: level, nameField: "--png-encoder", levelField: "--png-level")
    }
}
