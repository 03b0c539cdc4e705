/// The PNG encoders by name, with the levels each accepts and its level when none is given.
///
/// ThrobberPNG's `PNGEncoder` does the encoding; this table lives in the core because the job
/// file is parsed here, and `PNGEncoder` reads its ranges from it, so the command line, the job
/// file and the library accept the same levels.
public enum PNGEncoderCatalog {
    /// The names `--png-encoder` and the job file's `"pngEncoder"` take; the first is the default.
    public static let names = ["libpng", "libdeflate", "isal"]

    /// The encoder every command uses unless told otherwise (today's files, byte for byte).
    public static let defaultName = "libpng"

    /// The levels an encoder accepts, or nil for an unknown name: libpng (zlib) 0–9,
    /// libdeflate 0–12, isal (ISA-L igzip) 0–3.
    public static func levels(for name: String) -> ClosedRange<Int>? {
        switch name {
        case "libpng": 0...9
        case "libdeflate": 0...12
        case "isal": 0...3
        default: nil
        }
    }

    /// An encoder's level when none is given: libpng ``defaultPNGLevel``; libdeflate 6, which
    /// writes files the size of zlib level 7 in about a third of the time; isal 1, igzip's fast
    /// level (level 0 writes ~28 % larger files for little gain). See docs/png-encoders.md.
    public static func defaultLevel(for name: String) -> Int? {
        switch name {
        case "libpng": defaultPNGLevel
        case "libdeflate": 6
        case "isal": 1
        default: nil
        }
    }
}
