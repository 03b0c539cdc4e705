import Throbber

/// A dotLottie file (`.lottie`): a ZIP archive with a `manifest.json`, one or more Lottie
/// animations, their images and (version 2) themes, read whole from bytes with every bound of
/// `LottieLimits` held before anything is allocated.
///
/// Two layouts are read, told apart by the manifest's `version`:
///
/// | | version 1 (no `version`, or `"1"`…) | version 2 (`"2"`) |
/// |---|---|---|
/// | animations | `animations/ID.json` | `a/ID.json` |
/// | images | `images/NAME` | `i/NAME` |
/// | themes | not read (`themes/ID.lss`, a format of its own) | `t/ID.json` |
/// | first animation | `activeAnimationId` | `initial.animation` |
///
/// Either key for the first animation is taken in either version. Entries the reader does not
/// use (state machines, audio, fonts) are checked as ZIP entries but never inflated. No entry's
/// name is ever used as a file path: an image is known by the name a Lottie asset's `p` gives it,
/// and an archive holding a name that could mean a path elsewhere (`..`, `.`, a leading `/`, a
/// backslash, a drive, a NUL, not UTF-8) is refused whole.
public struct DotLottieArchive: Sendable {
    /// One animation the manifest lists: its id and its Lottie JSON, not yet parsed.
    public struct Animation: Sendable {
        public let id: String
        /// The Lottie JSON as stored, at most `LottieLimits.largestJSON` bytes.
        public let json: [UInt8]
    }

    /// A version 2 theme: rules that give slots (a Lottie property's `sid`) other values — a
    /// parameter set for the animations it applies to.
    public struct Theme: Sendable {
        public let id: String
        /// The rules in file order; see `Rule`.
        public let rules: [Rule]
    }

    /// The manifest's layout version, 1 or 2.
    public let version: Int
    /// The animations in manifest order (at least one).
    public let animations: [Animation]
    /// The animation the manifest says to show first, when it names one (always one of `animations`).
    public let initialAnimation: String?
    /// The themes in manifest order (version 2 only).
    public let themes: [Theme]
    /// The images by the name a Lottie asset's `p` uses (the entry's name after `images/` or
    /// `i/`), each at most `LottieLimits.largestArchiveImage` bytes, not yet decoded.
    public let images: [String: [UInt8]]

    /// The animation to show first: the manifest's first animation, else the first listed.
    public var firstAnimation: Animation { animations.first { $0.id == initialAnimation } ?? animations[0] }

    /// Whether `bytes` look like a ZIP archive, by content: they begin with a local file header's
    /// signature (`PK\u{3}\u{4}`). Says nothing of whether the archive is a valid dotLottie.
    public static func isArchive(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B && bytes[2] == 0x03 && bytes[3] == 0x04
    }

    /// Reads a dotLottie archive.
    ///
    /// - Parameters:
    ///   - bytes: the whole file, at most `LottieLimits.largestArchive` bytes.
    ///   - path: the file's path, for messages only.
    /// - Returns: the archive's animations, first animation, themes and images.
    /// - Throws: `ThrobberError` `.badData`, one line: `PATH: dotLottie entry 'NAME': …` for an
    ///   entry at fault, `PATH: dotLottie archive: …` for the archive as a whole.
    public static func read(_ bytes: [UInt8], path: String) throws -> DotLottieArchive {
        do {
            return try DotLottieArchive(bytes)
        } catch let failure as ArchiveFailure {
            let place = failure.entry.map { "dotLottie entry '\(ThrobberError.echoed($0))'" } ?? "dotLottie archive"
            throw ThrobberError("\(ThrobberError.shownPath(path)): \(place): \(failure.message)", kind: .badData)
        }
    }

    /// Reads an archive whose entries read may inflate to `inflatedBudget` bytes together (a
    /// test gives a small one; `read` gives `LottieLimits.largestInflatedArchive`).
    init(_ bytes: [UInt8], inflatedBudget: Int = LottieLimits.largestInflatedArchive) throws {
        let zip = try ZipArchive(bytes, largestArchive: LottieLimits.largestArchive,
                                 largestEntries: LottieLimits.archiveEntries,
                                 largestEntry: max(LottieLimits.largestJSON, LottieLimits.largestArchiveImage),
                                 inflationRatio: LottieLimits.inflationRatio)
        var budget = InflationBudget(left: inflatedBudget, total: inflatedBudget)
        let manifestName = "manifest.json"
        guard let manifestBytes = try budget.read(manifestName, in: zip, bound: LottieLimits.largestJSON) else {
            throw ArchiveFailure(entry: manifestName, "is missing; a dotLottie archive starts from its manifest")
        }
        let manifest = try DotLottieManifest(try Self.json(manifestBytes, entry: manifestName))
        let layout = manifest.version == 2
            ? (animations: "a/", images: "i/", themes: "t/") : (animations: "animations/", images: "images/", themes: "")
        var animations: [Animation] = []
        for id in manifest.animations {
            let name = layout.animations + id + ".json"
            guard let json = try budget.read(name, in: zip, bound: LottieLimits.largestJSON) else {
                throw ArchiveFailure(entry: name, "is missing; the manifest lists animation '\(ThrobberError.echoed(id))'")
            }
            animations.append(Animation(id: id, json: json))
        }
        var themes: [Theme] = []
        for id in manifest.themes {
            let name = layout.themes + id + ".json"
            guard let json = try budget.read(name, in: zip, bound: LottieLimits.largestJSON) else {
                throw ArchiveFailure(entry: name, "is missing; the manifest lists theme '\(ThrobberError.echoed(id))'")
            }
            themes.append(Theme(id: id, rules: try Theme.rules(in: try Self.json(json, entry: name), entry: name)))
        }
        var images: [String: [UInt8]] = [:]
        for entry in zip.entries where entry.name.hasPrefix(layout.images) && !entry.isDirectory {
            images[String(entry.name.dropFirst(layout.images.count))] = try budget.read(entry, in: zip,
                                                                                        bound: LottieLimits.largestArchiveImage)
        }
        version = manifest.version
        self.animations = animations
        initialAnimation = manifest.initial
        self.themes = themes
        self.images = images
    }

    /// An entry's bytes parsed as JSON (UTF-8, `Limits.jsonDepth` deep at most).
    static func json(_ bytes: [UInt8], entry: String) throws -> JSONNode {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ArchiveFailure(entry: entry, "is not UTF-8 text") }
        do {
            return try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ArchiveFailure(entry: entry, "line \(error.line), column \(error.column): \(error.message)")
        }
    }
}

/// What the entries read from one archive may still inflate to, all together.
private struct InflationBudget {
    var left: Int
    let total: Int

    mutating func read(_ name: String, in zip: ZipArchive, bound: Int) throws -> [UInt8]? {
        guard let index = zip.byName[name] else { return nil }
        return try read(zip.entries[index], in: zip, bound: bound)
    }

    mutating func read(_ entry: ZipArchive.Entry, in zip: ZipArchive, bound: Int) throws -> [UInt8] {
        guard entry.inflatedSize <= left else {
            throw ArchiveFailure(entry: entry.name, "would take the entries read past \(total) bytes inflated")
        }
        let bytes = try zip.contents(of: entry, bound: bound)
        left -= bytes.count
        return bytes
    }
}

/// The parts of `manifest.json` the reader uses.
struct DotLottieManifest {
    var version: Int
    var animations: [String]
    var initial: String?
    var themes: [String]

    init(_ root: JSONNode) throws {
        let entry = "manifest.json"
        func fail(_ message: String) -> ArchiveFailure { ArchiveFailure(entry: entry, message) }
        guard case .object = root.value else { throw fail("must hold an object, not \(root.typeName)") }
        switch ArchiveJSON.member(root, "version")?.value {
        case nil, .null: version = 1
        case .string(let text) where text == "2" || text.hasPrefix("2."): version = 2
        case .string(let text) where text == "1" || text.hasPrefix("1."): version = 1
        case .number(let number, _) where number == 1 || number == 2: version = Int(number)
        default: throw fail("'version' is \(ArchiveJSON.member(root, "version").map(Self.shown) ?? ""); versions 1 and 2 are read")
        }
        animations = try Self.ids(ArchiveJSON.member(root, "animations"), list: "animations", fail: fail)
        guard !animations.isEmpty else { throw fail("'animations' lists no animation") }
        // Version 1's themes are Lottie Style Sheets, which are not read.
        let themes = ArchiveJSON.member(root, "themes")
        self.themes = version == 2 && themes != nil ? try Self.ids(themes, list: "themes", fail: fail) : []
        var initial: String?
        if let animation = ArchiveJSON.member(ArchiveJSON.member(root, "initial"), "animation") {
            guard case .string(let id) = animation.value else { throw fail("'initial.animation' must be a string") }
            initial = id
        } else if let active = ArchiveJSON.member(root, "activeAnimationId") {
            guard case .string(let id) = active.value else { throw fail("'activeAnimationId' must be a string") }
            initial = id
        }
        if let initial, !animations.contains(initial) {
            throw fail("the first animation '\(ThrobberError.echoed(initial))' is not one of 'animations'")
        }
        self.initial = initial
    }

    /// The `id`s of an array of objects, each a non-empty string, unique.
    private static func ids(_ node: JSONNode?, list: String, fail: (String) -> ArchiveFailure) throws -> [String] {
        guard let node, case .array(let items) = node.value else { throw fail("'\(list)' must be an array of objects with an 'id'") }
        var ids: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let id)? = ArchiveJSON.member(item, "id")?.value, !id.isEmpty else {
                throw fail("'\(list)[\(index)].id' must be a non-empty string")
            }
            guard !ids.contains(id) else { throw fail("'\(list)' lists '\(ThrobberError.echoed(id))' twice") }
            ids.append(id)
        }
        return ids
    }

    private static func shown(_ node: JSONNode) -> String {
        switch node.value {
        case .string(let text): return "'\(ThrobberError.echoed(text))'"
        case .number(_, let text): return ThrobberError.echoed(text)
        default: return node.typeName
        }
    }
}

/// JSON look-ups for the archive's own files (the manifest, themes), kept to this folder.
enum ArchiveJSON {
    /// The value of an object's member `key`, if `node` is an object that has it.
    static func member(_ node: JSONNode?, _ key: String) -> JSONNode? {
        guard let node, case .object(let members) = node.value else { return nil }
        return members.first { $0.key == key }?.value
    }
}
