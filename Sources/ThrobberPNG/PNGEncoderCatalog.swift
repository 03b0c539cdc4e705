import Throbber

/// The PNG encoders by name, with the levels each accepts and its level when none is given, and
/// the named settings (`fast`, `small`, `compact`) that stand for an encoder at a level.
///
/// `PNGEncoder` does the encoding and reads its ranges from this table; the command line and the
/// job-file reader check names and levels against it too, so all of them accept the same ones.
///
/// Every figure behind these choices comes from `throbber bench --png-sweep` (every encoder ×
/// level × row filter on every scene's frames in sequences at 64–4096 px, and on sheets with
/// `--sheets`); docs/png-encoders.md has the runs.
public enum PNGEncoderCatalog {
    /// The encoders, by the names `--png-encoder` and the job file's `"pngEncoder"` take.
    public static let encoders = ["libpng", "libdeflate", "isal", "zlib"]

    /// `auto`, the default: the fastest setting whose files are no larger than libpng's at its own
    /// defaults (zlib 6, adaptive row filters), chosen from what the frames are (their
    /// ``FrameTraits``) by ``AutomaticRule/current``.
    public static let automatic = "auto"

    /// A name that stands for one encoder at one level (its row filter is the encoder's default).
    public struct NamedSetting: Sendable {
        public let name: String
        public let encoder: String
        public let level: Int
    }

    /// `fast`: ISA-L igzip level 1, the fastest setting of the sweep that still compresses (5.7×
    /// faster than the default at 512 px), for files ~10–40 % larger than libpng's defaults
    /// write. `small`: libdeflate level 12, the smallest files of the sweep (0.70× libpng's
    /// defaults), ~70× the default's time: for assets that ship when every byte counts.
    /// `compact`: zlib level 8 in segments, what sheets and previews are written with unless a
    /// user says otherwise — the sheet sweep's rule (`bench --png-sweep --sheets`, the fastest
    /// setting within 10 % of the smallest sheets at every cell size): 1.06–1.10× `small`'s
    /// bytes in 1/29 of its time, on every core.
    public static let namedSettings = [
        NamedSetting(name: "fast", encoder: "isal", level: 1),
        NamedSetting(name: "small", encoder: "libdeflate", level: 12),
        NamedSetting(name: "compact", encoder: "zlib", level: 8),
    ]

    /// Every name `--png-encoder` and `"pngEncoder"` take: `auto`, the encoders, then the named
    /// settings.
    public static let names = [automatic] + encoders + namedSettings.map(\.name)

    /// The encoder frames are written with unless a user says otherwise: ``automatic``.
    public static let defaultName = automatic

    /// What sheets and previews are written with unless a user says otherwise: `compact`, by the
    /// sheet rule (``namedSettings``). A sheet is one file, written once and shipped, so its size
    /// counts for more than a frame's; `small` writes the last 6–10 % for 29× the time.
    public static let sheetDefaultName = "compact"

    /// The named setting called `name`, if there is one.
    public static func namedSetting(_ name: String) -> NamedSetting? { namedSettings.first { $0.name == name } }

    /// The levels an encoder accepts, or nil for an unknown name or a named setting: libpng
    /// (zlib) 0–9, libdeflate 0–12, isal (ISA-L igzip) 0–3, zlib (our segmented writer) 0–9; `auto` 0–12: a level given with
    /// `auto` (or with no encoder named) is libdeflate's.
    public static func levels(for name: String) -> ClosedRange<Int>? {
        switch name {
        case automatic: 0...12
        case "libpng": 0...9
        case "libdeflate": 0...12
        case "isal": 0...3
        case "zlib": 0...9
        default: nil
        }
    }

    /// An encoder's level when none is given, or a named setting's level: libpng
    /// ``defaultPNGLevel``; libdeflate 1 (the fastest libdeflate level that compresses, first in
    /// many of `auto`'s chains); isal 1, igzip's fast level (level 0 writes ~20–90 % larger files
    /// for little gain); zlib 4, what `auto` writes a wave ball's clip with at 1024 and 2048 px.
    public static func defaultLevel(for name: String) -> Int? {
        if let named = namedSetting(name) { return named.level }
        switch name {
        case automatic: return 1
        case "libpng": return defaultPNGLevel
        case "libdeflate": return 1
        case "isal": return 1
        case "zlib": return 4
        default: return nil
        }
    }

    /// Why a name and level are refused, in words for an error line after the field's name.
    public enum Refusal: Error, Equatable {
        /// Not an encoder or a named setting.
        case unknownName
        /// A level given with a named setting, which fixes its own.
        case levelWithNamedSetting(NamedSetting)
        /// A level outside the encoder's range.
        case levelOutOfRange(ClosedRange<Int>)

        public static func == (a: Refusal, b: Refusal) -> Bool {
            switch (a, b) {
            case (.unknownName, .unknownName): true
            case (.levelWithNamedSetting(let x), .levelWithNamedSetting(let y)): x.name == y.name
            case (.levelOutOfRange(let x), .levelOutOfRange(let y)): x == y
            default: false
            }
        }
    }

    /// The encoder and level that `name` (an encoder or a named setting) and an optional level
    /// stand for.
    ///
    /// - Returns: the encoder's name and level, or why they are refused.
    public static func resolve(_ name: String, level: Int?) -> Result<(encoder: String, level: Int), Refusal> {
        if let named = namedSetting(name) {
            if level != nil { return .failure(.levelWithNamedSetting(named)) }
            return .success((named.encoder, named.level))
        }
        guard let levels = levels(for: name), let fallback = defaultLevel(for: name) else { return .failure(.unknownName) }
        // auto chooses per frame size only when no level is given; a level is libdeflate's.
        if name == automatic, let level {
            return levels.contains(level) ? .success(("libdeflate", level)) : .failure(.levelOutOfRange(levels))
        }
        let level = level ?? fallback
        guard levels.contains(level) else { return .failure(.levelOutOfRange(levels)) }
        return .success((name, level))
    }

    /// What is allowed instead of a refused name or level, for the error line.
    public static func allowed(_ refusal: Refusal, name: String) -> String {
        switch refusal {
        case .unknownName:
            var text = "one of " + names.joined(separator: ", ")
            if let nearest = nearestName(to: name, in: names) { text += "; did you mean '\(nearest)'?" }
            return text
        case .levelWithNamedSetting(let named):
            return "no level with '\(named.name)', which is \(named.encoder) at level \(named.level); name an encoder to choose a level"
        case .levelOutOfRange(let levels):
            return "an integer in [\(levels.lowerBound), \(levels.upperBound)] for \(name)"
        }
    }
}
