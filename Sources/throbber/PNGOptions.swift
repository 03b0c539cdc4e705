import Throbber
import ThrobberPNG

/// `--png-encoder` and `--png-level`, shared by every command that writes PNGs (`render`,
/// `preview`, `bench`), as `BackendOptions` is for `--backend`.
enum PNGOptions {
    static let specs = [OptionSpec("--png-encoder"), OptionSpec("--png-level")]

    /// The encoder the options name, the level's range and default being the encoder's; with
    /// neither option, libpng at `libpngLevel` (``defaultPNGLevel`` unless the command keeps
    /// another: today's files, byte for byte).
    static func encoder(_ arguments: ParsedArguments, libpngLevel: Int = defaultPNGLevel) throws -> PNGEncoder {
        let name = try arguments.choice("--png-encoder", default: "libpng", among: PNGEncoder.names)
        let level = try arguments.integer("--png-level", default: name == "libpng" ? libpngLevel : PNGEncoder.defaultLevel(for: name)!,
                                          range: PNGEncoder.levels(for: name)!)
        return try PNGEncoder(name: name, level: level, nameField: "--png-encoder", levelField: "--png-level")
    }
}
