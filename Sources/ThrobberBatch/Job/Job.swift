import Foundation
import Throbber
import ThrobberDigest
import ThrobberRender
import ThrobberPNG

/// A batch job: a list of renders, each a scene with parameters at one or more scales, and the
/// outputs to write. Read from a JSON job file (see `examples/`), validated whole before any
/// frame is rendered, with errors that name the file, line and column.
public struct Job: Sendable {
    /// The job file's path, for messages.
    public var path: String
    /// SHA-256 of the job file's bytes: shards of one job carry the same digest.
    public var digest: String
    /// The backend named in the file, if any (the command line overrides it).
    public var backend: Backend?
    /// Every clip: one render at one scale.
    public var clips: [Clip]
    /// Whether `path` is a job file (read by `load`) that a run must never write over; a job
    /// built in code has only a name there.
    public var isFile = true
}

/// One render of the job at one scale: the unit outputs are written for.
public struct Clip: Sendable {
    /// The render's name (default: the scene id), used by `{name}`.
    public var name: String
    /// The validated scene at this clip's scale (speeds set when looping).
    public var scene: Scene
    public var fps: Double
    /// Time of frame 0.
    public var start: Double
    public var frameCount: Int
    /// How the clip was made into a seamless loop, when it was.
    public var loop: LoopPlan?
    public var outputs: [Output]
    /// Where the render is in the job file.
    public var line: Int

    /// The time of frame `k`: start + k / fps.
    public func time(_ k: Int) -> Double { start + Double(k) / fps }

    /// A label such as `wave-ball@2x`.
    public var label: String { "\(name)@\(formatNumber(scene.scale))x" }
}

/// Where a clip's frames go.
public enum Output: Sendable {
    /// One PNG per frame: the pattern (placeholders filled, path resolved) numbers the files,
    /// written by the encoder so named (``PNGEncoderCatalog``) at a level in its range.
    case png(pattern: FramePattern, encoder: String, level: Int)
    /// All frames on grid PNGs, each with a TexturePacker "JSON Hash" atlas: one page at `path`
    /// and `json` while the frames fit `maxSize` px a side, otherwise numbered pages
    /// (`SpriteSheet.pages`, `SpriteSheet.pageFiles`); the PNGs written by the encoder so named at
    /// a level in its range (by default the `small` setting).
    case sheet(path: String, json: String, columns: Int?, maxSize: Int = SpriteSheet.defaultMaxSize, encoder: String, level: Int)
    /// Raw straight-alpha RGBA8 frames back to back, to a file or "-" for stdout.
    case rgba(path: String)
    /// A YUV4MPEG2 stream (C420jpeg, or C444alpha with alpha; BT.601, range tagged limited), to a
    /// file or "-" for stdout.
    case y4m(path: String, alpha: Bool)
    /// A GIF, WebP, APNG or MP4 made by piping the raw stream into ffmpeg; `settings` say what
    /// becomes of partial alpha (GIF, MP4) and of odd sides (MP4).
    case video(path: String, settings: VideoSettings = VideoSettings())

    /// Whether the output needs a clip's frames in order in one process (so a shard cannot
    /// split the clip).
    public var isOrdered: Bool {
        if case .png = self { return false }
        return true
    }

    /// A file other than a PNG frame that an output leaves: where, its manifest type, and what
    /// it is in messages.
    public struct ArtifactFile: Sendable, Equatable {
        /// The file's path.
        public var path: String
        /// Its type in the manifest: `sheet`, `atlas`, `rgba`, `y4m`, `gif` ….
        public var type: String
        /// What it is, for messages: `sheet`, `sheet atlas (json)`, `sheet page 2`, `y4m` ….
        public var role: String
    }

    /// The files other than PNG frames this output leaves for `clip` (none for stdout streams):
    /// a sheet's pages and their atlases, page by page, image before atlas.
    public func artifactFiles(in clip: Clip) -> [ArtifactFile] {
        switch self {
        case .png: return []
        case .sheet(let path, let json, let columns, let maxSize, _, _):
            let (width, height) = clip.scene.pixelSize
            let pages = SpriteSheet.pages(frameCount: clip.frameCount, frameWidth: width, frameHeight: height,
                                          columns: columns, maxSize: maxSize)
            let files = SpriteSheet.pageFiles(path: path, json: json, pageCount: pages.count)
            return files.enumerated().flatMap { index, page in
                let number = files.count > 1 ? " page \(index)" : ""
                return [ArtifactFile(path: page.image, type: "sheet", role: "sheet\(number)"),
                        ArtifactFile(path: page.json, type: "atlas", role: "sheet\(number) atlas (json)")]
            }
        case .rgba(let path), .y4m(let path, _), .video(let path, _):
            return path == "-" ? [] : [ArtifactFile(path: path, type: artifactType, role: artifactType)]
        }
    }

    /// The manifest's type of a stream's or video's file.
    private var artifactType: String {
        switch self {
        case .png: return "png"
        case .sheet: return "sheet"
        case .rgba: return "rgba"
        case .y4m: return "y4m"
        case .video(let path, _): return URL(fileURLWithPath: path).pathExtension.lowercased()
        }
    }

    /// The file this output writes, or the pattern for PNG sequences.
    public var path: String {
        switch self {
        case .png(let pattern, _, _): return pattern.description
        case .sheet(let path, _, _, _, _, _), .rgba(let path), .y4m(let path, _), .video(let path, _): return path
        }
    }
}

extension Job {
    /// The video containers `video` outputs can write, by file extension.
    public static let videoExtensions = ["gif", "webp", "apng", "mp4"]

    /// The longest render `name`, in bytes: a file name's limit on Linux file systems
    /// (NAME_MAX), since `{name}` may be a whole path component.
    public static let longestName = 255
    /// The longest component of an output path, in bytes (NAME_MAX).
    public static let longestFileName = 255
    /// The longest output path, in bytes (PATH_MAX less its terminating NUL).
    public static let longestPath = 4095

    /// Why `path` cannot be a file name on Linux, or nil: a component over ``longestFileName``
    /// bytes, or the whole over ``longestPath``. Checked on every output before the first frame,
    /// so a run is refused at once instead of failing at the frame that reaches the limit.
    public static func pathLengthProblem(_ path: String) -> String? {
        let bytes = path.utf8
        if bytes.count > longestPath { return "is \(bytes.count) bytes long; a path is at most \(longestPath)" }
        var run = 0
        for byte in bytes {
            if byte == UInt8(ascii: "/") { run = 0; continue }
            run += 1
            if run > longestFileName {
                return "has a component over \(longestFileName) bytes (the longest file name Linux takes)"
            }
        }
        return nil
    }

    /// Reads and validates a job file.
    ///
    /// - Parameters:
    ///   - baseDirectory: what relative output paths are relative to (default: the job file's directory).
    /// - Throws: a data error `FILE:LINE:COLUMN: message` for the first problem; `noInput` when the
    ///   file cannot be read (with the reason).
    public static func load(path: String, baseDirectory: String? = nil) throws -> Job {
        let data = try InputFile.read(path, what: "job file")
        let text = String(decoding: data, as: UTF8.self)
        // Relative outputs sit beside the job file, or, for a job read from a pipe such as
        // `<(echo …)` (whose directory is /dev/fd or /proc), in the current directory.
        let base = baseDirectory ?? (isStream(path) ? FileManager.default.currentDirectoryPath
                                                    : URL(fileURLWithPath: path).deletingLastPathComponent().path)
        var reader = JobReader(path: path, base: base)
        let root: JSONNode
        do {
            root = try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ThrobberError("\(path):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
        var job = try reader.job(root)
        job.digest = SHA256.hex(data)
        return job
    }

    /// Where a job's manifest goes by default, without `.manifest.json` or the shard suffix: beside
    /// the job file, named after it; for a job read from a pipe such as `<(echo …)`, whose
    /// directory (/dev/fd) cannot hold files, `job` in the current directory.
    public static func manifestStem(forJobAt path: String) -> String {
        if isStream(path) { return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("job").path }
        return URL(fileURLWithPath: path).deletingPathExtension().path
    }

    /// Whether `path` is read as a stream (a pipe such as `<(echo …)`, a device) rather than a
    /// file in a directory of its own: by what it is, not where — a job in /dev/shm (tmpfs) is a
    /// file like any other.
    static func isStream(_ path: String) -> Bool { InputFile.isStream(path) }

}

/// Turns the parsed JSON into a `Job`, with positions in every message.
struct JobReader {
    let path: String
    let base: String

    func fail(_ node: JSONNode, _ message: String) -> ThrobberError {
        ThrobberError("\(path):\(node.line):\(node.column): \(message)", kind: .badData)
    }

    func fail(_ member: JSONNode.Member, _ message: String) -> ThrobberError {
        ThrobberError("\(path):\(member.keyLine):\(member.keyColumn): \(message)", kind: .badData)
    }

    /// The members of an object, after checking every key is known.
    func members(_ node: JSONNode, _ what: String, known: [String]) throws -> [String: JSONNode.Member] {
        guard case .object(let members) = node.value else { throw fail(node, "\(what) must be an object, not \(node.typeName)") }
        var result: [String: JSONNode.Member] = [:]
        for member in members {
            guard known.contains(member.key) else {
                var message = "unknown key \"\(ThrobberError.echoed(member.key))\" in \(what)"
                if let nearest = nearestName(to: member.key, in: known) { message += "; did you mean \"\(nearest)\"?" }
                throw fail(member, message + " (known: \(known.joined(separator: ", ")))")
            }
            result[member.key] = member
        }
        return result
    }

    func number(_ member: JSONNode.Member?, _ range: NumberRange) throws -> Double? {
        guard let member else { return nil }
        guard case .number(let value, let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be a number, not \(member.value.typeName)")
        }
        guard range.contains(value) else {
            throw fail(member.value, "invalid \(member.key) \(ThrobberError.echoed(text)): \(range.text)")
        }
        return value
    }

    func integer(_ member: JSONNode.Member?, _ range: ClosedRange<Int>) throws -> Int? {
        guard let member else { return nil }
        let allowed = "an integer in [\(range.lowerBound), \(range.upperBound)]"
        guard case .number(let value, let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be \(allowed), not \(member.value.typeName)")
        }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw fail(member.value, "invalid \(member.key) \(ThrobberError.echoed(text)): \(allowed)")
        }
        return Int(value)
    }

    func string(_ member: JSONNode.Member?) throws -> String? {
        guard let member else { return nil }
        guard case .string(let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be a string, not \(member.value.typeName)")
        }
        return text
    }

    func bool(_ member: JSONNode.Member?) throws -> Bool? {
        guard let member else { return nil }
        guard case .bool(let value) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be true or false, not \(member.value.typeName)")
        }
        return value
    }

    /// A parameter value as the text `--set` takes: numbers, strings, or [r, g, b(, a)] colours.
    func parameterText(_ member: JSONNode.Member) throws -> String {
        switch member.value.value {
        case .number(_, let text): return text
        case .string(let text): return text
        case .array(let elements):
            var parts: [String] = []
            for element in elements {
                guard case .number(_, let text) = element.value else {
                    throw fail(element, "colour components of \"\(member.key)\" must be numbers")
                }
                parts.append(text)
            }
            return parts.joined(separator: ",")
        default:
            throw fail(member.value, "\"\(member.key)\" must be a number, a string or a colour array, not \(member.value.typeName)")
        }
    }

    func resolve(_ relative: String) -> String {
        if relative == "-" || relative.hasPrefix("/") { return relative }
        return URL(fileURLWithPath: base).appendingPathComponent(relative).path
    }

    mutating func job(_ root: JSONNode) throws -> Job {
        let top = try members(root, "the job", known: ["renders", "backend", "pngEncoder", "pngLevel"])
        let backend = try string(top["backend"])
        if let backend, Backend(rawValue: backend) == nil, let member = top["backend"] {
            throw fail(member.value, "unknown backend \"\(backend)\" (known: \(Backend.names.joined(separator: ", ")))")
        }
        let png = PNGDefaults(name: top["pngEncoder"], level: top["pngLevel"])
        // Checked here too, so a wrong setting is named even when no output writes a PNG.
        _ = try pngSetting(name: nil, level: nil, inherited: png, fallback: PNGEncoderCatalog.defaultName)
        guard let rendersMember = top["renders"] else { throw fail(root, "the job needs \"renders\": [ … ]") }
        guard case .array(let renders) = rendersMember.value.value, !renders.isEmpty else {
            throw fail(rendersMember.value, "\"renders\" must be a non-empty array of render objects")
        }
        var clips: [Clip] = []
        var claimed: [String: (label: String, line: Int)] = [:]
        var totalFrames = 0
        for render in renders {
            for clip in try self.clips(render, png: png) {
                // Planning holds a unit per PNG frame of the whole job, and contiguous shards
                // multiply frame offsets by the shard count: the job's frames in all share the cap.
                totalFrames += clip.frameCount
                guard totalFrames <= Limits.frames else {
                    throw fail(render, "\(clip.label) brings the job's frames to \(totalFrames) in all; at most \(Limits.frames)")
                }
                // A character device (/dev/null) is written into by any number of outputs.
                for output in clip.outputs where output.path != "-" && !AtomicFile.isCharacterDevice(output.path) {
                    let key = output.path
                    if let other = claimed[key] {
                        throw fail(render, "\(clip.label) writes \(key), which \(other.label) (line \(other.line)) writes too; give the renders different names or paths")
                    }
                    claimed[key] = (clip.label, clip.line)
                }
                clips.append(clip)
            }
        }
        let stdoutUsers = clips.flatMap { clip in clip.outputs.filter { $0.path == "-" }.map { _ in clip.label } }
        if stdoutUsers.count > 1 {
            throw ThrobberError("\(path): only one output can go to stdout (\"-\"); \(stdoutUsers.joined(separator: ", ")) all do",
                                kind: .badData)
        }
        return Job(path: path, digest: "", backend: backend.flatMap(Backend.init(rawValue:)), clips: clips)
    }

    /// The job's `"pngEncoder"` and `"pngLevel"` as written (either may be absent), which an
    /// output's `"encoder"` and `"level"` override.
    struct PNGDefaults {
        var name: JSONNode.Member?
        var level: JSONNode.Member?
    }

    /// The encoder and level of a PNG output: its own `"encoder"` (`name`) and `"level"`, else
    /// the job's `"pngEncoder"` and `"pngLevel"`, else `fallback` at its level. An output that
    /// names its own encoder does not take the job's level; `fallback` (a sheet's `small`) does
    /// not take the job's level either unless the job names its encoder.
    func pngSetting(name: JSONNode.Member?, level: JSONNode.Member?, inherited: PNGDefaults,
                    fallback: String) throws -> (encoder: String, level: Int) {
        let nameMember = name ?? inherited.name
        let levelMember = level ?? (name == nil && (inherited.name != nil || fallback == PNGEncoderCatalog.defaultName) ? inherited.level : nil)
        let text = try string(nameMember) ?? fallback
        var level: Int?
        if let levelMember {
            if case .number(let value, _) = levelMember.value.value {
                // A fraction is no level: Int.min lies outside every range, so resolve refuses it.
                level = Int(exactly: value) ?? Int.min
            } else if let levels = PNGEncoderCatalog.levels(for: text) {
                throw fail(levelMember.value, "\"\(levelMember.key)\" must be an integer in [\(levels.lowerBound), \(levels.upperBound)], "
                           + "not \(levelMember.value.typeName)")
            } else {
                level = Int.min // an unknown name or a named setting: resolve says why
            }
        }
        switch PNGEncoderCatalog.resolve(text, level: level) {
        case .success(let setting):
            return setting
        case .failure(.unknownName):
            // Only a name the user wrote can be unknown (the fallbacks are known names).
            let names = PNGEncoderCatalog.names
            var message = "unknown \(nameMember!.key) \"\(ThrobberError.echoed(text))\""
            if let nearest = nearestName(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
            throw fail(nameMember!.value, message + " (known: \(names.joined(separator: ", ")))")
        case .failure(let refusal):
            throw fail(levelMember!.value, "invalid \(levelMember!.key) \(shown(levelMember!)): " + PNGEncoderCatalog.allowed(refusal, name: text))
        }
    }

    /// A member's value as the user wrote it, for an error line.
    private func shown(_ member: JSONNode.Member) -> String {
        if case .number(_, let raw) = member.value.value { return ThrobberError.echoed(raw) }
        return member.value.typeName
    }

    func clips(_ node: JSONNode, png: PNGDefaults) throws -> [Clip] {
        let known = ["scene", "name", "parameters", "scale", "scales", "background", "fps", "frames", "duration", "loop",
                     "loopSeconds", "maxSpeedChange", "start", "outputs"]
        let m = try members(node, "a render", known: known)
        guard let sceneID = try string(m["scene"]) else { throw fail(node, "a render needs \"scene\" (one of \(SceneRegistry.ids.joined(separator: ", ")))") }
        var scene: Scene
        do {
            scene = Scene(try SceneRegistry.model(sceneID))
        } catch let error as ThrobberError {
            throw fail(m["scene"]!.value, error.message)
        }
        let name = try string(m["name"]) ?? sceneID
        // A name is a path component ({name} in a pattern): never a directory of its own.
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= Job.longestName,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw fail(m["name"]!.value, "invalid name \"\(ThrobberError.echoed(name))\": letters, digits, '.', '_' and '-' only, "
                       + "not \".\" or \"..\", at most \(Job.longestName) bytes")
        }
        if let parameters = m["parameters"] {
            guard case .object(let members) = parameters.value.value else {
                throw fail(parameters.value, "\"parameters\" must be an object of SPEC names")
            }
            for member in members {
                // Read outside the `do`: its errors carry their own location already.
                let text = try parameterText(member)
                do {
                    scene = try scene.setting(member.key, to: text)
                } catch let error as ThrobberError {
                    throw fail(member, error.message)
                }
            }
        }
        if let background = try string(m["background"]) {
            do { scene = try scene.setting("background", to: background) } catch let error as ThrobberError { throw fail(m["background"]!.value, error.message) }
        }
        var scales: [Double] = []
        if let scale = try number(m["scale"], Limits.scaleRange) { scales = [scale] }
        if let member = m["scales"] {
            guard m["scale"] == nil else { throw fail(member, "give \"scale\" or \"scales\", not both") }
            guard case .array(let elements) = member.value.value, !elements.isEmpty else {
                throw fail(member.value, "\"scales\" must be a non-empty array of numbers, e.g. [1, 2, 3]")
            }
            for element in elements {
                guard case .number(let value, let text) = element.value, Limits.scaleRange.contains(value) else {
                    throw fail(element, "a scale must be a number > 0 and ≤ \(formatNumber(Limits.scale))")
                }
                guard !scales.contains(value) else { throw fail(element, "scale \(text) is listed twice") }
                scales.append(value)
            }
        }
        if scales.isEmpty { scales = [1] }
        let fps = try number(m["fps"], Limits.fpsRange) ?? 60
        var start = try number(m["start"], Limits.timeRange) ?? 0
        let given = ["frames", "duration", "loop"].filter { m[$0] != nil }
        if given.count > 1 { throw fail(m[given[1]]!, "give one of \"frames\", \"duration\" or \"loop\", not \(given.joined(separator: " and "))") }
        var frameCount = try integer(m["frames"], 1...Limits.frames) ?? 1
        if let duration = try number(m["duration"], Limits.spanRange) {
            // The same cap as "frames", checked before the count exists as an integer.
            do { frameCount = max(1, try Limits.count(duration * fps, "duration × fps (frames)", limit: Limits.frames)) }
            catch let error as ThrobberError { throw fail(m["duration"]!.value, error.message) }
        }
        var loop: LoopPlan?
        let loopSeconds = try number(m["loopSeconds"], Limits.spanRange)
        // In percent, as every loop line prints it; the range says so, since 0.02 would be a valid, strict bound.
        let maxSpeedChange = try number(m["maxSpeedChange"], .any)
        if let maxSpeedChange, !LoopPlan.maxSpeedChangeRange.contains(maxSpeedChange), case .number(_, let text) = m["maxSpeedChange"]!.value.value {
            throw fail(m["maxSpeedChange"]!.value, "invalid maxSpeedChange \(ThrobberError.echoed(text)): a percentage in [0, 100] (2 means 2%)")
        }
        if try bool(m["loop"]) == true {
            guard let periodicFrom = scene.model.periodicFrom else {
                throw fail(m["loop"]!.value, "\(sceneID) does not repeat with these parameters (a progress ramp runs once); drop progressEnd or \"loop\"")
            }
            // A level still moving at the start would jump back at the seam: loop once it has settled.
            start = max(start, periodicFrom)
            var plan: LoopPlan
            do {
                if let loopSeconds {
                    plan = try LoopPlan(parts: scene.model.periodicParts, seconds: loopSeconds, fps: fps)
                    plan.maxSpeedChange = maxSpeedChange
                } else {
                    plan = try scene.model.defaultLoop(fps: fps, maxSpeedChange: maxSpeedChange ?? LoopPlan.defaultMaxSpeedChange)
                }
            } catch let error as ThrobberError {
                throw fail(m["loopSeconds"]?.value ?? m["loop"]!.value, error.message)
            }
            // A bound the user wrote is a requirement; only the default bound may be missed (with a note).
            if let maxSpeedChange, let worst = plan.worstChange, abs(worst.speedChangePercent) > maxSpeedChange {
                let change = String(format: "%@ %+.2f%%", worst.part, worst.speedChangePercent)
                if loopSeconds != nil {
                    throw fail(m["loopSeconds"]!.value, "loopSeconds \(LoopPlan.shortSeconds(loopSeconds!)) changes a part's speed by more than "
                               + "maxSpeedChange \(formatNumber(maxSpeedChange))% (\(change)); drop one of them or choose another loopSeconds")
                }
                throw fail(m["maxSpeedChange"]!.value, "invalid maxSpeedChange \(formatNumber(maxSpeedChange)): no loop of up to "
                           + "\(formatNumber(LoopPlan.searchLimit)) s keeps every part of \(sceneID) within it (the closest, "
                           + "\(LoopPlan.shortSeconds(plan.duration)) s, changes \(change)); allow at least "
                           + "\(String(format: "%.2f", (abs(worst.speedChangePercent) * 100).rounded(.up) / 100))% or give loopSeconds")
            }
            scene.model.speeds = plan.speeds
            frameCount = plan.frames
            loop = plan
        } else if let member = m["loopSeconds"] ?? m["maxSpeedChange"] {
            throw fail(member, "\"\(member.key)\" needs \"loop\": true")
        }
        do {
            try scene.validate()
        } catch let error as ThrobberError {
            throw fail(node, error.message)
        }
        do {
            try Limits.checkTimeline(start: start, fps: fps, frames: frameCount)
        } catch let error as ThrobberError {
            throw fail(m["fps"]?.value ?? node, error.message)
        }

        let outputNodes: [JSONNode]
        if let member = m["outputs"] {
            guard case .array(let elements) = member.value.value, !elements.isEmpty else {
                throw fail(member.value, "\"outputs\" must be a non-empty array of output objects")
            }
            outputNodes = elements
        } else {
            outputNodes = []
        }
        return try scales.map { scale -> Clip in
            var clipScene = scene
            clipScene.scale = scale
            do { try clipScene.validate() } catch let error as ThrobberError { throw fail(node, "at scale \(formatNumber(scale)): \(error.message)") }
            var outputs: [Output] = []
            for outputNode in outputNodes {
                let output = try output(outputNode, name: name, scene: sceneID, scale: scale, png: png)
                if case .sheet(let path, _, let columns, let maxSize, _, _) = output {
                    // A page is held whole in memory and must fit a PNG, and a frame must fit a
                    // page: refuse either now, not after every frame is rendered.
                    let (width, height) = clipScene.pixelSize
                    var maxSizeMember: JSONNode.Member?
                    if case .object(let members) = outputNode.value { maxSizeMember = members.first { $0.key == "maxSize" } }
                    do {
                        try SpriteSheet.checkSize(path: path, frameCount: frameCount, frameWidth: width, frameHeight: height,
                                                  columns: columns, maxSize: maxSize, defaultMaxSize: maxSizeMember == nil)
                    } catch let error as ThrobberError {
                        let tooSmall = width > maxSize || height > maxSize
                        throw fail(tooSmall ? maxSizeMember?.value ?? outputNode : outputNode,
                                   tooSmall ? "\(name)@\(formatNumber(scale))x: \(error.message)" : error.message)
                    }
                }
                if case .video(let path, let settings) = output {
                    // What depends on the frame size and rate (odd sides, GIF's centiseconds).
                    let (width, height) = clipScene.pixelSize
                    do {
                        try settings.validate(path: path, width: width, height: height, fps: fps)
                    } catch let error as ThrobberError {
                        throw fail(outputNode, error.message)
                    }
                }
                outputs.append(output)
            }
            if outputs.isEmpty {
                let path = resolve(FramePattern.expandingPlaceholdersOnly("{name}@{scale}x_%05d.png", name: name, scene: sceneID, scale: scale))
                let setting = try pngSetting(name: nil, level: nil, inherited: png, fallback: PNGEncoderCatalog.defaultName)
                outputs = [.png(pattern: try FramePattern(path, frameDirective: true), encoder: setting.encoder, level: setting.level)]
            }
            return Clip(name: name, scene: clipScene, fps: fps, start: start, frameCount: frameCount, loop: loop,
                        outputs: outputs, line: node.line)
        }
    }

    func output(_ node: JSONNode, name: String, scene: String, scale: Double, png: PNGDefaults) throws -> Output {
        let m = try members(node, "an output", known: ["type", "pattern", "path", "encoder", "level", "columns", "maxSize", "json",
                                                       "alpha", "matte", "oddSize"])
        guard let type = try string(m["type"]) else { throw fail(node, "an output needs \"type\": png, sheet, rgba, y4m or video") }
        let types = ["png", "sheet", "rgba", "y4m", "video"]
        guard types.contains(type) else {
            var message = "unknown output type \"\(ThrobberError.echoed(type))\""
            if let nearest = nearestName(to: type, in: types) { message += "; did you mean \"\(nearest)\"?" }
            throw fail(m["type"]!.value, message + " (known: \(types.joined(separator: ", ")))")
        }
        let allowed: [String: [String]] = ["png": ["type", "pattern", "encoder", "level"],
                                           "sheet": ["type", "path", "columns", "maxSize", "json", "encoder", "level"],
                                           "rgba": ["type", "path"], "y4m": ["type", "path", "alpha"],
                                           "video": ["type", "path", "matte", "oddSize"]]
        for (key, member) in m where !allowed[type]!.contains(key) {
            throw fail(member, "\"\(key)\" does not apply to a \(type) output (it takes \(allowed[type]!.joined(separator: ", ")))")
        }
        func pattern(_ key: String, default fallback: String, frames: Bool) throws -> String {
            let text = try string(m[key]) ?? fallback
            do {
                let parsed = try FramePattern(text, frameDirective: frames)
                // Placeholders are filled now; the frame directive stays for the writer.
                let path = frames ? FramePattern.expandingPlaceholdersOnly(text, name: name, scene: scene, scale: scale)
                    : parsed.path(name: name, scene: scene, scale: scale)
                return path == "-" ? path : resolve(path)
            } catch let error as PatternError {
                throw fail(m[key]?.value ?? node, "invalid \(key) \"\(ThrobberError.echoed(text, longest: ThrobberError.longestPathEcho))\": \(error.message)")
            }
        }
        switch type {
        case "png":
            let path = try pattern("pattern", default: "{name}@{scale}x_%05d.png", frames: true)
            guard path != "-" else { throw fail(m["pattern"]!.value, "a PNG sequence cannot go to stdout; use an rgba or y4m output") }
            let setting = try pngSetting(name: m["encoder"], level: m["level"], inherited: png, fallback: PNGEncoderCatalog.defaultName)
            return .png(pattern: try FramePattern(path, frameDirective: true), encoder: setting.encoder, level: setting.level)
        case "sheet":
            let path = try pattern("path", default: "{name}@{scale}x_sheet.png", frames: false)
            let json = try m["json"] == nil ? URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("json").path
                : pattern("json", default: "", frames: false)
            let setting = try pngSetting(name: m["encoder"], level: m["level"], inherited: png,
                                         fallback: PNGEncoderCatalog.sheetDefaultName)
            return .sheet(path: path, json: json, columns: try integer(m["columns"], 1...10_000),
                          maxSize: try integer(m["maxSize"], SpriteSheet.maxSizeRange) ?? SpriteSheet.defaultMaxSize,
                          encoder: setting.encoder, level: setting.level)
        case "rgba":
            return .rgba(path: try pattern("path", default: "-", frames: false))
        case "y4m":
            return .y4m(path: try pattern("path", default: "-", frames: false), alpha: try bool(m["alpha"]) ?? false)
        default:
            guard let text = try string(m["path"]) else { throw fail(node, "a video output needs \"path\" ending in .gif, .webp, .apng or .mp4") }
            let ext = URL(fileURLWithPath: text).pathExtension.lowercased()
            guard Job.videoExtensions.contains(ext) else {
                throw fail(m["path"]!.value, "a video path must end in .gif, .webp, .apng or .mp4, not \"\(text)\"")
            }
            return .video(path: try pattern("path", default: text, frames: false), settings: try videoSettings(m, format: ext))
        }
    }

    /// A video output's `"matte"` and `"oddSize"`, checked against its format.
    func videoSettings(_ m: [String: JSONNode.Member], format: String) throws -> VideoSettings {
        var settings = VideoSettings()
        if let member = m["matte"] {
            guard ["gif", "mp4"].contains(format) else {
                throw fail(member, "\"matte\" applies to .gif and .mp4 videos; .\(format) keeps alpha")
            }
            // The forms colours take elsewhere in a job file, less alpha: a matte is opaque.
            let text: String, shown: String
            switch member.value.value {
            case .string(let string):
                (text, shown) = (string, "\"\(string)\"")
            case .array(let elements):
                let parts = elements.map { element -> String in
                    if case .number(_, let raw) = element.value { return raw }
                    return element.typeName
                }
                (text, shown) = (parts.joined(separator: ","), "[\(parts.joined(separator: ", "))]")
            default:
                throw fail(member.value, "\"matte\" must be \(VideoSettings.matteForms), not \(member.value.typeName)")
            }
            guard let color = VideoSettings.parseMatte(text) else {
                throw fail(member.value, "invalid matte \(ThrobberError.echoed(shown)): \(VideoSettings.matteForms)")
            }
            settings.matte = color
        }
        if let member = m["oddSize"] {
            guard format == "mp4" else { throw fail(member, "\"oddSize\" applies to .mp4 videos only (H.264 needs even sides)") }
            let names = VideoSettings.OddSize.allCases.map(\.rawValue)
            let text = try string(member) ?? ""
            guard let oddSize = VideoSettings.OddSize(rawValue: text) else {
                var message = "unknown oddSize \"\(ThrobberError.echoed(text))\""
                if let nearest = nearestName(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
                throw fail(member.value, message + " (known: \(names.joined(separator: ", ")))")
            }
            settings.oddSize = oddSize
        }
        return settings
    }
}

extension FramePattern {
    /// `text` with `{name}`, `{scene}`, `{scale}` filled in and the frame directive left as it is.
    static func expandingPlaceholdersOnly(_ text: String, name: String, scene: String, scale: Double) -> String {
        text.replacingOccurrences(of: "{name}", with: name).replacingOccurrences(of: "{scene}", with: scene)
            .replacingOccurrences(of: "{scale}", with: formatNumber(scale))
    }
}
