import Foundation
import Throbber
import ThrobberText
import ThrobberPNG
import ThrobberRender

/// Turns a parsed job file into a `Job`, with the file's name, line and column in every message.
///
/// The reader knows the file's form — keys, types, defaults, the job's PNG settings that outputs
/// inherit, `duration` and `loop` — and nothing of what a clip or a job may be: it makes every
/// clip with `Clip`'s initialiser and admits it with ``JobRules``, as a job built in code is
/// checked, and points each error at the setting it names (``ThrobberError/field``). A rule on a
/// setting the reader needs before the clip exists (a frame rate to make a loop with) is the
/// same rule, applied as the setting is read, with the value as the file spells it.
struct JobFileReader {
    /// The job file's name, as messages show it.
    let path: String
    /// What relative output paths are relative to.
    let base: String
    let fields: JSONFields

    init(path: String, base: String) {
        self.path = path
        self.base = base
        fields = JSONFields(path: path)
    }

    func resolve(_ relative: String) -> String {
        if relative == "-" || relative.hasPrefix("/") { return relative }
        return URL(fileURLWithPath: base).appendingPathComponent(relative).path
    }

    func job(_ root: JSONNode) throws -> Job {
        let top = try fields.members(root, "the job", known: ["renders", "backend", "pngEncoder", "pngLevel"])
        let backend = try fields.string(top["backend"])
        if let backend, Backend(rawValue: backend) == nil, let member = top["backend"] {
            throw fields.fail(member.value, "unknown backend \"\(backend)\" (known: \(Backend.names.joined(separator: ", ")))")
        }
        let png = PNGDefaults(name: top["pngEncoder"], level: top["pngLevel"])
        // Checked here too, so a wrong setting is named even when no output writes a PNG.
        _ = try pngEncoder(name: nil, level: nil, inherited: png, fallback: PNGEncoderCatalog.defaultName)
        guard let rendersMember = top["renders"] else { throw fields.fail(root, "the job needs \"renders\": [ … ]") }
        guard case .array(let renders) = rendersMember.value.value, !renders.isEmpty else {
            throw fields.fail(rendersMember.value, "\"renders\" must be a non-empty array of render objects")
        }
        var clips: [Clip] = []
        var rules = JobRules()
        for render in renders {
            for clip in try self.clips(render, png: png) {
                try fields.at(or: render) { try rules.admit(clip) }
                clips.append(clip)
            }
        }
        do {
            try rules.finish()
        } catch let error as ThrobberError {
            throw ThrobberError("\(path): \(error.message)", kind: .badData)
        }
        return Job(path: path, digest: "", backend: backend.flatMap(Backend.init(rawValue:)), clips: clips)
    }

    /// A render's clips, one per scale.
    func clips(_ node: JSONNode, png: PNGDefaults) throws -> [Clip] {
        let known = ["scene", "name", "parameters", "scale", "scales", "background", "fps", "frames", "duration", "loop",
                     "loopSeconds", "maxSpeedChange", "start", "outputs", "chain", "marker", "skipUnsupported"]
        let m = try fields.members(node, "a render", known: known)
        guard let sceneReference = try fields.string(m["scene"]) else {
            throw fields.fail(node, "a render needs \"scene\" (one of \(SceneRegistry.ids.joined(separator: ", ")))")
        }
        let jobDirectory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var scene = try fields.at(or: m["scene"]!.value) { Scene(try SceneReference.model(sceneReference, relativeTo: jobDirectory, origin: .file)) }
        let sceneID = scene.model.id
        let name = try fields.string(m["name"]) ?? scene.model.id
        // Before the name fills any pattern.
        try fields.at(m, or: node) { try Clip.checkName(name) }
        scene = try applying(m["parameters"], to: scene)
        // A Lottie file's named segment and its unsupported features, as on the command line.
        if let marker = try fields.string(m["marker"]) {
            scene = try fields.at(or: m["marker"]!.value) {
                guard scene.model.value(of: "marker") != nil else {
                    throw ThrobberError("scene \(sceneID) has no markers (a Lottie file names them in 'markers')", kind: .badData)
                }
                return try scene.setting("marker", to: marker)
            }
        }
        if try fields.bool(m["skipUnsupported"]) == true, scene.model.value(of: "unsupported") != nil {
            scene = try scene.setting("unsupported", to: "skip")
        }
        if let background = try fields.string(m["background"]) {
            scene = try fields.at(or: m["background"]!.value) { try scene.setting("background", to: background) }
        }
        let scales = try self.scales(m)
        let fps = try fields.number(m["fps"], Clip.fpsRule) ?? scene.model.naturalFPS ?? 60
        var start = try fields.number(m["start"], Clip.startRule) ?? 0
        if let chain = m["chain"], let other = ["frames", "duration", "loop", "loopSeconds", "maxSpeedChange"].first(where: { m[$0] != nil }) {
            throw fields.fail(m[other]!, "a chained render's length is its links': give \"\(other)\" in no render with \"chain\"" 
                              + " (line \(chain.value.line))")
        }
        let given = ["frames", "duration", "loop"].filter { m[$0] != nil }
        if given.count > 1 {
            throw fields.fail(m[given[1]]!, "give one of \"frames\", \"duration\" or \"loop\", not \(given.joined(separator: " and "))")
        }
        var frameCount = try fields.integer(m["frames"], Clip.framesRule) ?? 1
        if let duration = try fields.number(m["duration"], Limits.spanRange) {
            // The same cap as "frames", checked before the count exists as an integer.
            frameCount = try fields.at(or: m["duration"]!.value) {
                max(1, try Limits.count(duration * fps, "duration × fps (frames)", limit: Limits.frames))
            }
        }
        var loop: LoopPlan?
        let loopSeconds = try fields.number(m["loopSeconds"], Limits.spanRange)
        // In percent, as every loop line prints it; the range says so, since 0.02 would be a valid, strict bound.
        let maxSpeedChange = try fields.number(m["maxSpeedChange"], .any)
        if let maxSpeedChange, !LoopPlan.maxSpeedChangeRange.contains(maxSpeedChange), case .number(_, let text) = m["maxSpeedChange"]!.value.value {
            throw fields.fail(m["maxSpeedChange"]!.value, "invalid maxSpeedChange \(ThrobberError.echoed(text)): a percentage in [0, 100] (2 means 2%)")
        }
        if try fields.bool(m["loop"]) == true {
            let plan = try loopPlan(m, seconds: loopSeconds, maxSpeedChange: maxSpeedChange, scene: scene, sceneID: sceneID, fps: fps)
            // A level still moving at the start would jump back at the seam: loop once it has settled.
            start = max(start, scene.model.periodicFrom!)
            scene.model.speeds = plan.speeds
            frameCount = plan.frames
            loop = plan
        } else if let member = m["loopSeconds"] ?? m["maxSpeedChange"] {
            throw fields.fail(member, "\"\(member.key)\" needs \"loop\": true")
        }
        let links = try m["chain"].map { try chainLinks($0, base: scene, fps: fps, start: start) }
        if let links {
            scene = links[0].scene
            frameCount = try fields.at(or: m["chain"]!.value) {
                try Limits.count(Double(links.reduce(0) { $0 + $1.frames }), "the chain's frames", limit: Limits.frames)
            }
        }
        // The clip's own rules, applied here as well (Clip.init applies them again), so that an
        // error points at the render, or at the frame rate, before any output is read.
        try fields.at(or: node) { try scene.validate() }
        try fields.at(or: m["fps"]?.value ?? node) { try Limits.checkTimeline(start: start, fps: fps, frames: frameCount) }

        let outputNodes: [JSONNode]
        if let member = m["outputs"] {
            guard case .array(let elements) = member.value.value, !elements.isEmpty else {
                throw fields.fail(member.value, "\"outputs\" must be a non-empty array of output objects")
            }
            outputNodes = elements
        } else {
            outputNodes = []
        }
        return try scales.enumerated().compactMap { scaleIndex, scale -> Clip? in
            var scaled = scene
            scaled.scale = scale
            let clipScene: LaidOutScene
            do { clipScene = try scaled.validated().layingOutText() } catch var error as ThrobberError {
                // A font file that is missing stays a missing input (66); the rest is this file's data.
                error.message = "at scale \(formatNumber(scale)): \(error.message)"
                error.field = nil
                throw fields.fail(error, or: node)
            }
            let label = Clip.label(name: name, scale: scale), (width, height) = clipScene.pixelSize
            var outputs: [Output] = []
            for outputNode in outputNodes {
                let output = try self.output(outputNode, name: name, scene: sceneID, scale: scale, png: png)
                // A Lottie is scale-free: written once, with the render's first scale (LottieOutput).
                if case .lottie = output, scaleIndex > 0 { continue }
                // Checked as Clip.init checks it, here so that an error points at this output.
                var members: [String: JSONNode.Member] = [:]
                if case .object(let list) = outputNode.value { members = Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }) }
                try fields.at(members, or: outputNode) {
                    try output.check(label: label, frameCount: frameCount, width: width, height: height, fps: fps, chained: links != nil)
                }
                outputs.append(output)
            }
            // A render whose only outputs are Lottie files has nothing to draw at its other scales.
            if outputs.isEmpty && !outputNodes.isEmpty { return nil }
            if outputs.isEmpty {
                let path = resolve(FramePattern.expandingPlaceholdersOnly(Clip.defaultFramePattern, name: name, scene: sceneID, scale: scale))
                let encoder = try pngEncoder(name: nil, level: nil, inherited: png, fallback: PNGEncoderCatalog.defaultName)
                outputs = [.png(pattern: try FramePattern(path, frameDirective: true), encoder: encoder)]
            }
            var chain: [Clip.Link] = [], firstFrame = links?.first?.frames ?? 0
            for (index, link) in (links ?? []).enumerated().dropFirst() {
                var linkScene = link.scene
                linkScene.scale = scale
                let laidOutLink = try fields.at(or: link.node) { try Clip.linkScene(linkScene, index: index, first: clipScene) }
                chain.append(Clip.Link(scene: laidOutLink, firstFrame: firstFrame))
                firstFrame += link.frames
            }
            return try fields.at(m, or: node) {
                try Clip(name: name, scene: clipScene, frames: frameCount, fps: fps, start: start, loop: loop, outputs: outputs, line: node.line,
                         chain: chain)
            }
        }
    }

    /// A render's `"scale"` or `"scales"`: one scale or a list, each in (0, 64]; 1 by default.
    func scales(_ m: [String: JSONNode.Member]) throws -> [Double] {
        let scale = try fields.number(m["scale"], Limits.scaleRange)
        guard let member = m["scales"] else { return [scale ?? 1] }
        guard scale == nil else { throw fields.fail(member, "give \"scale\" or \"scales\", not both") }
        guard case .array(let elements) = member.value.value, !elements.isEmpty else {
            throw fields.fail(member.value, "\"scales\" must be a non-empty array of numbers, e.g. [1, 2, 3]")
        }
        var scales: [Double] = []
        for element in elements {
            guard case .number(let value, let text) = element.value, Limits.scaleRange.contains(value) else {
                throw fields.fail(element, "a scale must be a number > 0 and ≤ \(formatNumber(Limits.scale))")
            }
            guard !scales.contains(value) else { throw fields.fail(element, "scale \(text) is listed twice") }
            scales.append(value)
        }
        return scales
    }

    /// `scene` with a render's or a link's `"parameters"` set, each error at its member.
    func applying(_ parameters: JSONNode.Member?, to scene: Scene) throws -> Scene {
        guard let parameters else { return scene }
        guard case .object(let members) = parameters.value.value else {
            throw fields.fail(parameters.value, "\"parameters\" must be an object of SPEC names")
        }
        var scene = scene
        for member in members {
            // Read outside the `do`: its errors carry their own location already.
            let text = try parameterText(member)
            do {
                scene = try scene.setting(member.key, to: text)
            } catch let error as ThrobberError {
                throw fields.fail(member, error.message)
            }
        }
        return scene
    }

    /// A render's `"chain"`: each link's scene (the render's with the link's parameters over
    /// them) and frame count, in order. Each link gives `frames` or `duration`; the last one may
    /// give neither when its scene ends (a dismissed HUD), and runs until then.
    func chainLinks(_ member: JSONNode.Member, base: Scene, fps: Double, start: Double) throws -> [(scene: Scene, frames: Int, node: JSONNode)] {
        guard case .array(let elements) = member.value.value, elements.count >= 2 else {
            throw fields.fail(member.value, "\"chain\" must be an array of at least two link objects ({\"parameters\": …, \"duration\": s})")
        }
        var links: [(scene: Scene, frames: Int, node: JSONNode)] = [], firstFrame = 0
        for (index, element) in elements.enumerated() {
            let m = try fields.members(element, "a chain link", known: ["parameters", "frames", "duration"])
            let scene = try applying(m["parameters"], to: base)
            try fields.at(m, or: element) { try scene.validate() }
            if m["frames"] != nil, let duration = m["duration"] {
                throw fields.fail(duration, "give \"frames\" or \"duration\", not both")
            }
            var frames = try fields.integer(m["frames"], Clip.framesRule)
            if let duration = try fields.number(m["duration"], Limits.spanRange) {
                frames = try fields.at(or: m["duration"]!.value) {
                    max(1, try Limits.count(duration * fps, "duration × fps (frames)", limit: Limits.frames))
                }
            }
            if frames == nil {
                let linkStart = start + Double(firstFrame) / fps
                guard index == elements.count - 1, let end = try fields.at(or: element, { try scene.validated().model.endsAt }) else {
                    throw fields.fail(element, "chain link \(index + 1) needs \"frames\" or \"duration\" (only the last link of a "
                                      + "scene that ends, such as a hud with dismissAt, may run until its end)")
                }
                guard end > linkStart else {
                    throw fields.fail(element, "chain link \(index + 1) starts at \(formatNumber(linkStart)) s, after its scene ends at "
                                      + "\(formatNumber(end)) s: give it \"frames\" or \"duration\", or a later dismissAt")
                }
                // Through the first frame at or after the end, so the last frame shows it over.
                frames = try fields.at(or: element) {
                    try Limits.count(((end - linkStart) * fps - 1e-9).rounded(.up) + 1, "frames until the scene ends", limit: Limits.frames)
                }
            }
            links.append((scene, frames!, element))
            firstFrame += frames!
        }
        return links
    }

    /// The loop a render with `"loop": true` asks for: `loopSeconds` long, or the shortest within
    /// `maxSpeedChange` (a bound the user wrote is a requirement; only the default may be missed).
    func loopPlan(_ m: [String: JSONNode.Member], seconds loopSeconds: Double?, maxSpeedChange: Double?, scene: Scene, sceneID: String,
                  fps: Double) throws -> LoopPlan {
        guard scene.model.periodicFrom != nil else {
            throw fields.fail(m["loop"]!.value, "\(sceneID) does not repeat with these parameters (a progress ramp runs once); drop progressEnd or \"loop\"")
        }
        let plan = try fields.at(or: m["loopSeconds"]?.value ?? m["loop"]!.value) {
            if let loopSeconds {
                var plan = try LoopPlan(parts: scene.model.periodicParts, seconds: loopSeconds, fps: fps)
                plan.maxSpeedChange = maxSpeedChange
                return plan
            }
            return try scene.model.defaultLoop(fps: fps, maxSpeedChange: maxSpeedChange ?? LoopPlan.defaultMaxSpeedChange)
        }
        if let maxSpeedChange, let worst = plan.worstChange, abs(worst.speedChangePercent) > maxSpeedChange {
            let change = String(format: "%@ %+.2f%%", worst.part, worst.speedChangePercent)
            if let loopSeconds {
                throw fields.fail(m["loopSeconds"]!.value, "loopSeconds \(LoopPlan.shortSeconds(loopSeconds)) changes a part's speed by more than "
                                  + "maxSpeedChange \(formatNumber(maxSpeedChange))% (\(change)); drop one of them or choose another loopSeconds")
            }
            throw fields.fail(m["maxSpeedChange"]!.value, "invalid maxSpeedChange \(formatNumber(maxSpeedChange)): no loop of up to "
                              + "\(formatNumber(LoopPlan.searchLimit)) s keeps every part of \(sceneID) within it (the closest, "
                              + "\(LoopPlan.shortSeconds(plan.duration)) s, changes \(change)); allow at least "
                              + "\(String(format: "%.2f", (abs(worst.speedChangePercent) * 100).rounded(.up) / 100))% or give loopSeconds")
        }
        return plan
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
                    throw fields.fail(element, "colour components of \"\(member.key)\" must be numbers")
                }
                parts.append(text)
            }
            return parts.joined(separator: ",")
        default:
            throw fields.fail(member.value, "\"\(member.key)\" must be a number, a string or a colour array, not \(member.value.typeName)")
        }
    }
}
