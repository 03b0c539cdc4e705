import Foundation
import Throbber
import ThrobberPNG

extension JobFileReader {
    /// One output of a render at one scale, its placeholders filled and its paths resolved.
    func output(_ node: JSONNode, name: String, scene: String, scale: Double, png: PNGDefaults) throws -> Output {
        let m = try fields.members(node, "an output", known: ["type", "pattern", "path", "encoder", "level", "columns", "maxSize", "json",
                                                              "alpha", "matte", "oddSize", "fps", "trim", "alias", "padding", "extrude",
                                                              "format", "multiatlas", "animation", "loopCount", "alphaThreshold",
                                                              "background", "crf", "tolerance"])
        guard let type = try fields.string(m["type"]) else {
            throw fields.fail(node, "an output needs \"type\": png, sheet, rgba, y4m, video or lottie")
        }
        let types = ["png", "sheet", "rgba", "y4m", "video", "lottie"]
        guard types.contains(type) else {
            var message = "unknown output type \"\(ThrobberError.echoed(type))\""
            if let nearest = nearestName(to: type, in: types) { message += "; did you mean \"\(nearest)\"?" }
            throw fields.fail(m["type"]!.value, message + " (known: \(types.joined(separator: ", ")))")
        }
        let allowed: [String: [String]] = ["png": ["type", "pattern", "encoder", "level"],
                                           "sheet": ["type", "path", "columns", "maxSize", "json", "encoder", "level", "fps", "trim", "alias",
                                                     "padding", "extrude", "format", "multiatlas", "animation"],
                                           "rgba": ["type", "path", "fps"], "y4m": ["type", "path", "alpha", "matte", "fps"],
                                           "video": ["type", "path", "matte", "oddSize", "fps", "loopCount", "alphaThreshold", "background", "crf"],
                                           "lottie": ["type", "path", "tolerance"]]
        for (key, member) in m where !allowed[type]!.contains(key) {
            throw fields.fail(member, "\"\(key)\" does not apply to a \(type) output (it takes \(allowed[type]!.joined(separator: ", ")))")
        }
        func pattern(_ key: String, default fallback: String, frames: Bool, pages: Bool = false) throws -> String {
            let text = try fields.string(m[key]) ?? fallback
            // A file's name, not a directory's: refused here, at the field, not when written.
            if text != "-", let problem = OutputClaims.fileNameProblem(text) {
                throw fields.fail(m[key]?.value ?? node,
                                  "invalid \(key) \"\(ThrobberError.echoed(text, longest: ThrobberError.longestPathEcho))\": \(problem)")
            }
            do {
                let parsed = try FramePattern(text, frameDirective: frames, pages: pages)
                // Placeholders are filled now; the frame directive stays for the writer.
                let path = frames ? FramePattern.expandingPlaceholdersOnly(text, name: name, scene: scene, scale: scale)
                    : parsed.path(name: name, scene: scene, scale: scale)
                return path == "-" ? path : resolve(path)
            } catch let error as PatternError {
                throw fields.fail(m[key]?.value ?? node,
                                  "invalid \(key) \"\(ThrobberError.echoed(text, longest: ThrobberError.longestPathEcho))\": \(error.message)")
            }
        }
        switch type {
        case "png":
            let path = try pattern("pattern", default: Clip.defaultFramePattern, frames: true)
            guard path != "-" else { throw fields.fail(m["pattern"]!.value, "a PNG sequence cannot go to stdout; use an rgba or y4m output") }
            let encoder = try pngEncoder(name: m["encoder"], level: m["level"], inherited: png, fallback: PNGEncoderCatalog.defaultName)
            return .png(pattern: try FramePattern(path, frameDirective: true), encoder: encoder)
        case "sheet":
            let path = try pattern("path", default: "{name}@{scale}x_sheet.png", frames: false, pages: true)
            let json = try m["json"] == nil ? URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("json").path
                : pattern("json", default: "", frames: false, pages: true)
            let encoder = try pngEncoder(name: m["encoder"], level: m["level"], inherited: png, fallback: PNGEncoderCatalog.sheetDefaultName)
            var settings = SheetSettings(path: path, json: json, columns: try fields.integer(m["columns"], Output.columnsRule),
                                         maxSize: try fields.integer(m["maxSize"], SpriteSheet.maxSizeRule) ?? SpriteSheet.defaultMaxSize,
                                         encoder: encoder, trim: try fields.bool(m["trim"]) ?? false, alias: try fields.bool(m["alias"]) ?? false,
                                         spacing: SpriteSheet.Spacing(padding: try fields.integer(m["padding"], SheetSettings.paddingRule) ?? 0,
                                                                      extrude: try fields.integer(m["extrude"], SheetSettings.extrudeRule) ?? 0),
                                         fps: try fields.number(m["fps"], Clip.fpsRule))
            if m["multiatlas"] != nil { settings.multiatlas = try pattern("multiatlas", default: "", frames: false) }
            if let member = m["format"] {
                let text = try fields.string(member) ?? ""
                settings.format = try oneOf(member, text, SheetSettings.AtlasFormat.allCases, what: "format")
            }
            if let member = m["animation"] {
                let text = try fields.string(member) ?? ""
                do {
                    let name = try FramePattern(text, frameDirective: false).path(name: name, scene: scene, scale: scale)
                    guard !name.isEmpty else { throw PatternError("an animation needs a name") }
                    settings.animation = name
                } catch let error as PatternError {
                    throw fields.fail(member.value, "invalid animation \"\(ThrobberError.echoed(text))\": \(error.message)")
                }
            }
            return .sheet(settings)
        case "rgba":
            return .rgba(path: try pattern("path", default: "-", frames: false), fps: try fields.number(m["fps"], Clip.fpsRule))
        case "y4m":
            return .y4m(path: try pattern("path", default: "-", frames: false), alpha: try fields.bool(m["alpha"]) ?? false,
                        matte: try m["matte"].map { try matte($0) }, fps: try fields.number(m["fps"], Clip.fpsRule))
        case "lottie":
            guard let text = try fields.string(m["path"]) else {
                throw fields.fail(node, "a lottie output needs \"path\" ending in .json (Lottie) or .lottie (dotLottie)")
            }
            // One file whatever the render's scales: a Lottie's canvas is in pt (LottieOutput).
            if text.contains("{scale}") {
                throw fields.fail(m["path"]!.value, "invalid path \"\(ThrobberError.echoed(text, longest: ThrobberError.longestPathEcho))\": "
                                  + "a Lottie is the same at every scale (its canvas is in pt and its player scales it), so it is written "
                                  + "once per render and its path takes {name} and {scene}, not {scale}")
            }
            return .lottie(path: try pattern("path", default: text, frames: false),
                           tolerance: try fields.number(m["tolerance"], LottieOutput.toleranceRule) ?? LottieOutput.defaultTolerance)
        default:
            guard let text = try fields.string(m["path"]) else {
                throw fields.fail(node, "a video output needs \"path\" ending in .gif, .webp, .apng, .mp4 or .webm")
            }
            // Which formats take a matte or an odd size is the output's own rule (Output.check).
            return .video(path: try pattern("path", default: text, frames: false), settings: try videoSettings(m))
        }
    }

    /// One of `cases` by its raw value, or a line naming the field, the value and what is allowed.
    func oneOf<T: RawRepresentable>(_ member: JSONNode.Member, _ text: String, _ cases: [T], what: String) throws -> T where T.RawValue == String {
        if let value = T(rawValue: text) { return value }
        let names = cases.map(\.rawValue)
        var message = "unknown \(what) \"\(ThrobberError.echoed(text))\""
        if let nearest = nearestName(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
        throw fields.fail(member.value, message + " (known: \(names.joined(separator: ", ")))")
    }

    /// A video output's `"matte"`, `"oddSize"`, `"fps"`, `"loopCount"`, `"alphaThreshold"` and
    /// `"background"`, as values.
    func videoSettings(_ m: [String: JSONNode.Member]) throws -> VideoSettings {
        var settings = VideoSettings()
        settings.fps = try fields.number(m["fps"], Clip.fpsRule)
        settings.loopCount = try fields.integer(m["loopCount"], VideoSettings.loopCountRule) ?? 0
        settings.alphaThreshold = try fields.integer(m["alphaThreshold"], VideoSettings.alphaThresholdRule) ?? 128
        settings.crf = try fields.integer(m["crf"], VideoSettings.crfRule)
        if let member = m["background"] {
            let text = try fields.string(member) ?? ""
            guard let color = RGBA.parse(text), color.isValid else {
                throw fields.fail(member.value, "invalid background \"\(ThrobberError.echoed(text))\": a colour, \"#rrggbb\", \"#rrggbbaa\" or \"r,g,b,a\" in [0, 1]")
            }
            settings.background = color
        }
        if let member = m["matte"] { settings.matte = try matte(member) }
        if let member = m["oddSize"] {
            let text = try fields.string(member) ?? ""
            settings.oddSize = try oneOf(member, text, VideoSettings.OddSize.allCases, what: "oddSize")
        }
        return settings
    }

    /// A `"matte"`: an opaque colour in the forms colours take elsewhere in a job file.
    func matte(_ member: JSONNode.Member) throws -> RGBA {
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
            throw fields.fail(member.value, "\"matte\" must be \(VideoSettings.matteForms), not \(member.value.typeName)")
        }
        guard let color = VideoSettings.parseMatte(text) else {
            throw fields.fail(member.value, "invalid matte \(ThrobberError.echoed(shown)): \(VideoSettings.matteForms)")
        }
        return color
    }
}

/// The job's `"pngEncoder"` and `"pngLevel"` as written (either may be absent), which an
/// output's `"encoder"` and `"level"` override.
struct PNGDefaults {
    var name: JSONNode.Member?
    var level: JSONNode.Member?
}

extension JobFileReader {
    /// The encoder of a PNG output, parsed once, here: its own `"encoder"` (`name`) and
    /// `"level"`, else the job's `"pngEncoder"` and `"pngLevel"`, else `fallback` at its level.
    /// An output that names its own encoder does not take the job's level; `fallback` (a sheet's
    /// `small`) does not take the job's level either unless the job names its encoder.
    func pngEncoder(name: JSONNode.Member?, level: JSONNode.Member?, inherited: PNGDefaults, fallback: String) throws -> PNGEncoder {
        let nameMember = name ?? inherited.name
        let levelMember = level ?? (name == nil && (inherited.name != nil || fallback == PNGEncoderCatalog.defaultName) ? inherited.level : nil)
        let text = try fields.string(nameMember) ?? fallback
        var level: Int?
        if let levelMember {
            if case .number(let value, _) = levelMember.value.value {
                // A fraction is no level: Int.min lies outside every range, so the parse refuses it.
                level = Int(exactly: value) ?? Int.min
            } else if let levels = PNGEncoderCatalog.levels(for: text) {
                throw fields.fail(levelMember.value, "\"\(levelMember.key)\" must be an integer in [\(levels.lowerBound), \(levels.upperBound)], "
                                  + "not \(levelMember.value.typeName)")
            } else {
                level = Int.min // an unknown name or a named setting: the parse says why
            }
        }
        switch PNGEncoder.parse(text, level: level) {
        case .success(let encoder):
            return encoder
        case .failure(.unknownName):
            // Only a name the user wrote can be unknown (the fallbacks are known names).
            let names = PNGEncoderCatalog.names
            var message = "unknown \(nameMember!.key) \"\(ThrobberError.echoed(text))\""
            if let nearest = nearestName(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
            throw fields.fail(nameMember!.value, message + " (known: \(names.joined(separator: ", ")))")
        case .failure(let refusal):
            throw fields.fail(levelMember!.value, "invalid \(levelMember!.key) \(shown(levelMember!)): " + PNGEncoderCatalog.allowed(refusal, name: text))
        }
    }

    /// A member's value as the user wrote it, for an error line.
    private func shown(_ member: JSONNode.Member) -> String {
        if case .number(_, let raw) = member.value.value { return ThrobberError.echoed(raw) }
        return member.value.typeName
    }
}
