import Foundation
import Glibc
import Throbber
import ThrobberDigest
import ThrobberInput

/// The tEXt chunks that render a frame again, and the reading of them back
/// (`throbber reproduce`).
///
/// A frame's PNG records, each in a chunk of its own: the scene; every parameter that holds a
/// value, as `--set` takes it (an optional parameter left unset is derived and so left out);
/// the scale; the background, once — the colour the frame was drawn on, or `none`; the speed
/// factors a loop gave its periodic parts, as numbers; the backend and its driver; and the time.
/// Numbers are written in their shortest form that reads back to the same double, so a frame
/// rebuilt from them is drawn from the same draw list. Everything but the time is worked out
/// once per clip, not once per frame.
public struct FrameText: Sendable {
    private let head: [(String, String)]
    private var tail: [(String, String)]
    /// A chained clip's `Throbber:chain` lines with their times, read once (``forCells(_:)``).
    private var chainLines: [(from: Double, line: Substring)] = []

    /// The keywords, as they appear in the file.
    public enum Key {
        public static let software = "Software"
        public static let scene = "Throbber:scene"
        public static let parameters = "Throbber:parameters"
        public static let scale = "Throbber:scale"
        public static let background = "Throbber:background"
        public static let speeds = "Throbber:speeds"
        public static let backend = "Throbber:backend"
        public static let driver = "Throbber:driver"
        public static let time = "Throbber:time"
        /// The scene's text parameters (a caption), as JSON in ASCII (`TextProvenance`).
        public static let text = "Throbber:text"
        /// The font files the frame's glyphs came from, with a SHA-256 of each (`TextProvenance`).
        public static let fonts = "Throbber:fonts"
        /// A sheet's or preview's cells: `layout=grid|contact columns=C times=t0,t1,…` (row by
        /// row): a sprite sheet's bare grid, or `preview`'s contact sheet (labels, gaps).
        public static let cells = "Throbber:cells"
        /// A chained clip's later links, on its sheets and atlases (``chainText(_:)``).
        public static let chain = "Throbber:chain"
        /// A file scene's file, its absolute path when the frame was drawn (bytes outside
        /// printable ASCII and `%` written `%XX`), where `reproduce` looks for it.
        public static let sceneFile = "Throbber:sceneFile"
        /// A file scene's SHA-256 (hex) of the file's bytes: the file `reproduce` draws from
        /// must have it (docs/scene-files.md "Provenance").
        public static let sceneDigest = "Throbber:sceneDigest"
    }

    /// `path` as a tEXt value: printable ASCII kept, every other byte and `%` as `%XX`.
    static func escapedPath(_ path: String) -> String {
        path.utf8.map { byte in
            (32...126).contains(byte) && byte != UInt8(ascii: "%") ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// The path `escapedPath` wrote, or nil when the text is not such a value.
    static func unescapedPath(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var scalars = Array(text.utf8)[...]
        while let byte = scalars.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard scalars.count >= 2, let value = UInt8(String(decoding: scalars.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                scalars = scalars.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// - Parameters:
    ///   - backend: the backend that draws the frames (`cpu`, `gl`, `egl`, …), which
    ///     `reproduce` uses unless told otherwise.
    ///   - driver: the renderer's own description (GL_RENDERER, or the CPU renderer's).
    ///   - extra: chunks after the time (a loop's retiming in words).
    public init(_ scene: LaidOutScene, backend: String, driver: String, extra: [(String, String)] = []) {
        // The scene's background draws the canvas and wins over a model's own `background`
        // parameter, so the one colour recorded is the one the frame was drawn on.
        let background = scene.background ?? scene.model.defaultBackground
        let (parameters, texts) = FrameText.parameterChunks(scene.scene)
        var head = [
            (Key.software, "Throbber \(throbberVersion)"),
            (Key.scene, scene.model.id),
            (Key.parameters, parameters),
            (Key.scale, formatNumber(scene.scale)),
            (Key.background, background.a == 0 ? "none" : background.description),
        ]
        if let origin = scene.model.origin {
            head.append((Key.sceneFile, FrameText.escapedPath(URL(fileURLWithPath: origin.path).standardizedFileURL.path)))
            head.append((Key.sceneDigest, origin.digest))
        }
        if let texts { head.append((Key.text, texts)) }
        if let fonts = scene.text?.fonts, scene.textRequest != nil {
            head.append((Key.fonts, TextProvenance.fontsText(TextProvenance.records(fonts))))
        }
        let speeds = scene.model.speeds.factors.sorted { $0.key < $1.key }
        if !speeds.isEmpty {
            head.append((Key.speeds, speeds.map { "\($0.key)=\(formatNumber($0.value))" }.joined(separator: " ")))
        }
        head += [(Key.backend, backend), (Key.driver, driver)]
        self.head = head
        tail = extra
        if let chain = extra.first(where: { $0.0 == Key.chain })?.1 {
            chainLines = chain.split(separator: "\n").map { line in
                let from = line.dropFirst("from=".count).prefix { $0 != "\t" }
                return (Double(from) ?? -.infinity, line)
            }
        }
    }

    /// This provenance for a sheet page whose cells are at `times`: a chained clip's
    /// `Throbber:chain` keeps only the links that drew them (the one drawing at the earliest
    /// time, and each starting up to the latest), found by bisection. `reproduce` draws a cell
    /// with the last link listed from at most its time, so the page renders again the same;
    /// and a page's provenance grows with its cells, not with the chain (a 100,000-link chain
    /// on every one of thousands of pages made every page carry megabytes).
    public func forCells(_ times: [Double]) -> FrameText {
        guard !chainLines.isEmpty, let earliest = times.min(), let latest = times.max() else { return self }
        /// How many lines start at or before `t`.
        func count(upTo t: Double) -> Int { chainLines.countOfPrefix { $0.from <= t } }
        let lines = chainLines[max(0, count(upTo: earliest) - 1)..<count(upTo: latest)]
        var page = self
        page.chainLines = []
        page.tail = tail.compactMap { key, value in
            guard key == Key.chain else { return (key, value) }
            return lines.isEmpty ? nil : (key, lines.map(\.line).joined(separator: "\n"))
        }
        return page
    }

    /// The value of `key` among the chunks shared by the clip (after the time), if any.
    func tailValue(_ key: String) -> String? { tail.first { $0.0 == key }?.1 }

    /// A scene's `Throbber:parameters` (every parameter but the background and the text ones, as
    /// `--set` takes them) and its `Throbber:text` (nil without text parameters set).
    static func parameterChunks(_ scene: Scene) -> (parameters: String, text: String?) {
        let textNames = Set(scene.model.textParameterNames)
        let assignments = scene.model.assignments.filter { $0.name != "background" }
        let parameters = assignments.filter { !textNames.contains($0.name) }
        let texts = assignments.filter { textNames.contains($0.name) }
        return (parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " "), texts.isEmpty ? nil : TextProvenance.parametersText(texts))
    }

    /// A chained clip's `Throbber:chain`: one line per link after the first, `from=T`, a tab, its
    /// parameters as `Throbber:parameters` writes them, a tab and its `Throbber:text` (or
    /// nothing). T is the time of the link's first frame; a sheet's cell at time t ≥ T (and
    /// before the next link's T) was drawn by that link.
    static func chainText(_ clip: Clip) -> String {
        clip.chain.map { link in
            let (parameters, text) = parameterChunks(link.scene.scene)
            return "from=\(formatNumber(clip.time(link.firstFrame)))\t\(parameters)\t\(text ?? "")"
        }.joined(separator: "\n")
    }

    /// The chunks every frame of the clip shares: all but the time (a sheet's atlas records
    /// these once, and each frame's time beside it).
    public var clipChunks: [(String, String)] { head + tail }

    /// The chunks of the frame at `t`.
    public func chunks(t: Double) -> [(String, String)] {
        head + [(Key.time, formatNumber(t))] + tail
    }

    /// How the cells of a sheet are laid out.
    public enum Layout: String, Sendable {
        /// A sprite sheet: frames edge to edge (`SpriteSheet`).
        case grid
        /// `preview`'s contact sheet: frames with labels and gaps (`ContactSheet`).
        case contact
        /// A sheet page laid out by its atlas (trimmed, aliased, padded or extruded frames): the
        /// times are its stored frames', and the atlas beside it says where each lies.
        case atlas
    }

    /// The chunks of a sheet of frames: the clip's, with every cell's time in place of one time.
    public func chunks(columns: Int, times: [Double], layout: Layout = .grid) -> [(String, String)] {
        head + [(Key.cells, "layout=\(layout.rawValue) columns=\(columns) times=" + times.map(formatNumber).joined(separator: ","))] + tail
    }

    /// The chunks of a sheet page laid out by its atlas: `layout=atlas` and the times of the
    /// frames it stores (each stored frame once), in the atlas's order.
    public func chunks(atlasTimes times: [Double]) -> [(String, String)] {
        chunks(columns: 1, times: times, layout: .atlas)
    }

    /// The most cells a sheet's `Throbber:cells` may list to be read back (each is rendered
    /// again by `reproduce`); far more than a sheet within the pixel budget of the readers holds
    /// at any useful frame size.
    public static let mostCells = 1 << 20

    /// What a PNG's chunks say about how it was drawn.
    public struct Provenance: Sendable {
        /// The scene rebuilt: parameters, scale, background and loop speeds as recorded.
        public var scene: Scene
        /// The backend recorded (`cpu`, `gl`, `egl`, `egl --device N`).
        public var backend: String
        /// The driver recorded.
        public var driver: String
        /// The time of each frame: one for a frame, every cell's for a sheet.
        public var times: [Double]
        /// The cells across, for a sheet; nil for a single frame.
        public var columns: Int?
        /// How a sheet's cells are laid out; nil for a single frame.
        public var layout: Layout?
        /// The font files the text came from, as recorded (none for a frame without text).
        public var fonts: [TextProvenance.FontRecord] = []
        /// A chained sheet's later links: from each time on, the cells were drawn by its scene.
        public var links: [(from: Double, scene: Scene)] = []
    }

    /// Rebuilds the scene a PNG was drawn from, out of its tEXt chunks alone.
    ///
    /// - Parameter name: what to call the file in an error.
    /// - Throws: bad data naming the file and the chunk that is missing or does not read back.
    ///   - sceneFile: for a frame of a file scene, the file to draw it from instead of the path
    ///     it records; either must hold the bytes whose digest it records.
    public static func provenance(_ chunks: [(String, String)], name: String, sceneFile: String? = nil) throws -> Provenance {
        let values = Dictionary(chunks, uniquingKeysWith: { first, _ in first })
        func require(_ key: String) throws -> String {
            guard let value = values[key] else {
                throw ThrobberError("\(name) has no \(key) tEXt chunk: it was not written by Throbber \(throbberVersion) or later",
                                    kind: .badData)
            }
            return value
        }
        func invalid(_ key: String, _ value: String, _ why: String) -> ThrobberError {
            ThrobberError("\(name): tEXt \(key) '\(ThrobberError.echoed(value, longest: 200))' \(why)", kind: .badData)
        }
        let id = try require(Key.scene)
        // A file scene is drawn from its file, found where the frame says or where the caller
        // says, and only when it holds the bytes the frame was drawn from.
        var model: any SceneModel
        if let digest = values[Key.sceneDigest] {
            // An empty path, or one with a NUL (which would end the path the system sees early),
            // names no file.
            guard let path = sceneFile ?? values[Key.sceneFile].flatMap(unescapedPath), !path.isEmpty, !path.utf8.contains(0) else {
                throw invalid(Key.sceneFile, values[Key.sceneFile] ?? "", "is not a path; give the scene file with --scene-file")
            }
            // A path the frame names is read only when it is a regular file (a file named in a
            // PNG someone sent may name a FIFO or a device): the input rule refuses anything else
            // as the PNG's data (65), or as a missing input (66; a directory too).
            do {
                // Read as a file whatever its name: a relative path without a `/` is no scene id.
                model = try SceneReference.model(SceneReference.isFile(path) ? path : "./" + path,
                                                 origin: sceneFile == nil ? .file : .commandLine)
            } catch let error as ThrobberError where error.kind == .missingInput && sceneFile == nil {
                throw ThrobberError("\(error.message); \(name) was drawn from it: give the scene file with --scene-file",
                                    kind: .missingInput, code: error.code)
            }
            guard let origin = model.origin, model.id == id else {
                throw ThrobberError("\(name) was drawn from scene file '\(id)', but \(ThrobberError.shownPath(path)) is scene '\(model.id)'", kind: .badData)
            }
            let found = origin.digest
            guard found == digest else {
                throw ThrobberError("\(name) was drawn from a scene file with SHA-256 \(digest.prefix(16))…, but \(ThrobberError.shownPath(path)) "
                                    + "has \(found.prefix(16))… (it changed since); give the original with --scene-file", kind: .badData)
            }
        } else {
            do { model = try SceneRegistry.model(id) } catch let error as ThrobberError where error.kind == .usage {
                throw ThrobberError("\(name): its tEXt does not make a scene: \(error.message)", kind: .badData)
            }
        }
        /// A scene of `id` with the recorded parameters and text.
        func recorded(parameters: String, text: String?, key: String) throws -> Scene {
            var scene = Scene(model)
            for word in parameters.split(separator: " ") {
                guard let equals = word.firstIndex(of: "=") else { throw invalid(key, String(word), "is not NAME=VALUE") }
                scene = try scene.setting(String(word[..<equals]), to: String(word[word.index(after: equals)...]))
            }
            if let text {
                for (parameter, value) in try TextProvenance.parameters(text, name: name) {
                    scene = try scene.setting(parameter, to: value)
                }
            }
            return scene
        }
        var scene: Scene
        var links: [(from: Double, scene: Scene)] = []
        do {
            scene = try recorded(parameters: try require(Key.parameters), text: values[Key.text], key: Key.parameters)
            for line in (values[Key.chain] ?? "").split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, parts[0].hasPrefix("from="), let from = Double(parts[0].dropFirst(5)), Limits.timeRange.contains(from),
                      links.last.map({ $0.from < from }) ?? true else {
                    throw invalid(Key.chain, String(line), "is not 'from=T<tab>PARAMETERS<tab>TEXT' with times rising")
                }
                var link = try recorded(parameters: String(parts[1]), text: parts[2].isEmpty ? nil : String(parts[2]), key: Key.chain)
                link = try link.setting("scale", to: try require(Key.scale))
                link = try link.setting("background", to: try require(Key.background))
                try link.validate()
                links.append((from, link))
            }
            scene = try scene.setting("scale", to: try require(Key.scale))
            scene = try scene.setting("background", to: try require(Key.background))
        } catch let error as ThrobberError where error.kind == .usage {
            throw ThrobberError("\(name): its tEXt does not make a scene: \(error.message)", kind: .badData)
        }
        if let speeds = values[Key.speeds] {
            for word in speeds.split(separator: " ") {
                let pair = word.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let factor = Double(pair[1]), factor.isFinite, factor > 0 else {
                    throw invalid(Key.speeds, String(word), "is not PART=FACTOR with a factor > 0")
                }
                scene.model.speeds.factors[String(pair[0])] = factor
            }
        }
        do { try scene.validate() } catch let error as ThrobberError {
            throw ThrobberError("\(name): its tEXt does not make a valid scene: \(error.message)", kind: .badData)
        }
        let times: [Double]
        var columns: Int?
        var layout: Layout?
        if let cells = values[Key.cells] {
            let fields = Dictionary(cells.split(separator: " ").compactMap { field -> (String, String)? in
                let pair = field.split(separator: "=", maxSplits: 1)
                return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
            }, uniquingKeysWith: { first, _ in first })
            // Counted before a number is parsed: a list of millions is refused, not read.
            let listed = (fields["times"]?.utf8.lazy.filter { $0 == UInt8(ascii: ",") }.count ?? 0) + 1
            guard listed <= FrameText.mostCells else {
                throw ThrobberError("\(name): tEXt \(Key.cells) lists \(listed) cells; a sheet is read with at most \(FrameText.mostCells)", kind: .badData)
            }
            guard let c = fields["columns"].flatMap({ Int($0) }), c > 0,
                  let list = fields["times"]?.split(separator: ",").map({ Double($0) }), !list.isEmpty, list.allSatisfy({ $0 != nil }) else {
                throw invalid(Key.cells, cells, "is not 'layout=grid|contact columns=C times=t0,t1,…'")
            }
            guard let chosen = Layout(rawValue: fields["layout"] ?? "grid") else {
                throw invalid(Key.cells, cells, "has a layout other than grid or contact")
            }
            layout = chosen
            columns = c
            times = list.map { $0! }
        } else {
            let text = try require(Key.time)
            guard let t = Double(text), Limits.timeRange.contains(t) else { throw invalid(Key.time, text, "is not a time in seconds") }
            times = [t]
        }
        guard times.allSatisfy(Limits.timeRange.contains) else { throw invalid(Key.cells, values[Key.cells] ?? "", "has a time out of range") }
        let fonts = try values[Key.fonts].map { try TextProvenance.fonts($0, name: name) } ?? []
        return Provenance(scene: scene, backend: values[Key.backend] ?? "cpu", driver: values[Key.driver] ?? "", times: times, columns: columns,
                          layout: layout, fonts: fonts, links: links)
    }
}
