import Foundation
import Throbber
import ThrobberPNG

extension JobFileReader {
    /// One output of a render at one scale, its placeholders filled and its paths resolved.
    func output(_ node: JSONNode, name: String, scene: String, scale: Double, png: PNGDefaults) throws -> Output {
        let m = try fields.members(node, "an output", known: ["type", "pattern", "path", "encoder", "level", "columns", "maxSize", "json",
                                                              "alpha", "matte", "oddSize"])
        guard let type = try fields.string(m["type"]) else {
            throw fields.fail(node, "an output needs \"type\": png, sheet, rgba, y4m or video")
        }
        let types = ["png", "sheet", "rgba", "y4m", "video"]
        guard types.contains(type) else {
            var message = "unknown output type \"\(ThrobberError.echoed(type))\""
            if let nearest = nearestName(to: type, in: types) { message += "; did you mean \"\(nearest)\"?" }
            throw fields.fail(m["type"]!.value, message + " (known: \(types.joined(separator: ", ")))")
        }
        let allowed: [String: [String]] = ["png": ["type", "pattern", "encoder", "level"],
                                           "sheet": ["type", "path", "columns", "maxSize", "json", "encoder", "level"],
                                           "rgba": ["type", "path"], "y4m": ["type", "path", "alpha"],
                                           "video": ["type", "path", "matte", "oddSize"]]
        for (key, member) in m where !allowed[type]!.contains(key) {
            throw fields.fail(member, "\"\(key)\" does not apply to a \(type) output (it takes \(allowed[type]!.joined(separator: ", ")))")
        }
        func pattern(_ key: String, default fallback: String, frames: Bool) throws -> String {
            let text = try fields.string(m[key]) ?? fallback
            do {
                let parsed = try FramePattern(text, frameDirective: frames)
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
            let path = try pattern("path", default: "{name}@{scale}x_sheet.png", frames: false)
            let json = try m["json"] == nil ? URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("json").path
                : pattern("json", default: "", frames: false)
            let encoder = try pngEncoder(name: m["encoder"], level: m["level"], inherited: png, fallback: PNGEncoderCatalog.sheetDefaultName)
            return .sheet(path: path, json: json, columns: try fields.integer(m["columns"], Output.columnsRule),
                          maxSize: try fields.integer(m["maxSize"], SpriteSheet.maxSizeRule) ?? SpriteSheet.defaultMaxSize, encoder: encoder)
        case "rgba":
            return .rgba(path: try pattern("path", default: "-", frames: false))
        case "y4m":
            return .y4m(path: try pattern("path", default: "-", frames: false), alpha: try fields.bool(m["alpha"]) ?? false)
        default:
            guard let text = try fields.string(m["path"]) else {
                throw fields.fail(node, "a video output needs \"path\" ending in .gif, .webp, .apng or .mp4")
            }
            // Which formats take a matte or an odd size is the output's own rule (Output.check).
            return .video(path: try pattern("path", default: text, frames: false), settings: try videoSettings(m))
        }
    }

    /// A video output's `"matte"` and `"oddSize"`, as values.
    func videoSettings(_ m: [String: JSONNode.Member]) throws -> VideoSettings {
        var settings = VideoSettings()
        if let member = m["matte"] {
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
            settings.matte = color
        }
        if let member = m["oddSize"] {
            let names = VideoSettings.OddSize.allCases.map(\.rawValue)
            let text = try fields.string(member) ?? ""
            guard let oddSize = VideoSettings.OddSize(rawValue: text) else {
                var message = "unknown oddSize \"\(ThrobberError.echoed(text))\""
                if let nearest = nearestName(to: text, in: names) { message += "; did you mean \"\(nearest)\"?" }
                throw fields.fail(member.value, message + " (known: \(names.joined(separator: ", ")))")
            }
            settings.oddSize = oddSize
        }
        return settings
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
