import Foundation
import Throbber
import ThrobberDigest
import ThrobberPNG
import ThrobberRender

extension Clip {
    /// A clip built in code: `scene` (parameters and scale set) rendered for `frames` frames at
    /// t = start + k / fps, written to `outputs`. Checked as a job file's render is: the scene
    /// validated, the timeline and frame count in range, sheets small enough to hold, video
    /// settings that fit the format, size and rate.
    ///
    /// - Parameter name: what `{name}` stands for and labels say (default: the scene's id).
    /// - Throws: `.usage` naming what is out of range.
    public init(name: String? = nil, scene: Scene, frames: Int, fps: Double = 60, start: Double = 0, outputs: [Output]) throws {
        try scene.validate()
        guard (1...Limits.frames).contains(frames) else {
            throw ThrobberError.invalid("frames", String(frames), allowed: "1 … \(Limits.frames)")
        }
        guard Limits.fpsRange.contains(fps) else {
            throw ThrobberError.invalid("fps", formatNumber(fps), allowed: Limits.fpsRange.text)
        }
        guard Limits.timeRange.contains(start) else {
            throw ThrobberError.invalid("start", formatNumber(start), allowed: Limits.timeRange.text)
        }
        try Limits.checkTimeline(start: start, fps: fps, frames: frames)
        guard !outputs.isEmpty else { throw ThrobberError("a clip needs at least one output", kind: .usage) }
        let (width, height) = scene.pixelSize
        for case .sheet(let path, _, let columns, let maxSize, _, _) in outputs {
            try SpriteSheet.checkSize(path: path, frameCount: frames, frameWidth: width, frameHeight: height, columns: columns,
                                      maxSize: maxSize)
        }
        for case .video(let path, let settings) in outputs {
            try settings.validate(path: path, width: width, height: height, fps: fps)
        }
        self.init(name: name ?? scene.model.id, scene: scene, fps: fps, start: start, frameCount: frames, loop: nil,
                  outputs: outputs, line: 0)
    }
}

extension Output {
    /// A PNG sequence: `pattern` (a path with one printf-style frame directive such as `%05d`,
    /// and optionally `{name}`, `{scene}`, `{scale}`), written by the named PNG setting
    /// (`PNGEncoderCatalog`; default `auto`).
    ///
    /// - Throws: `.usage` for a pattern without one frame directive, or an unknown encoder or a
    ///   level out of its range.
    public static func pngSequence(_ pattern: String, encoder: String = PNGEncoderCatalog.defaultName, level: Int? = nil) throws -> Output {
        let setting: (encoder: String, level: Int)
        switch PNGEncoderCatalog.resolve(encoder, level: level) {
        case .success(let resolved): setting = resolved
        case .failure(let refusal):
            throw ThrobberError.invalid(level != nil && refusal != .unknownName ? "level" : "encoder",
                                        level != nil && refusal != .unknownName ? String(level!) : encoder,
                                        allowed: PNGEncoderCatalog.allowed(refusal, name: encoder))
        }
        do {
            return .png(pattern: try FramePattern(pattern, frameDirective: true), encoder: setting.encoder, level: setting.level)
        } catch let error as PatternError {
            throw ThrobberError.invalid("pattern", pattern, allowed: error.message)
        }
    }
}

extension Job {
    /// A job built in code, checked as a job file is: no two clips write one file, at most one
    /// output goes to stdout. Placeholders in PNG patterns are filled per clip; relative paths
    /// are relative to the current directory.
    ///
    /// - Parameters:
    ///   - name: the job's name in messages and in its manifest (where a file's path would be).
    ///   - backend: the backend the job asks for (a caller may override it).
    public init(name: String, backend: Backend? = nil, clips: [Clip]) throws {
        var claimed: [String: String] = [:]
        var filled: [Clip] = []
        for clip in clips {
            for output in clip.outputs where output.path != "-" {
                // A PNG pattern's placeholders stand for the clip's own name, scene and scale.
                let path = if case .png(let pattern, _, _) = output {
                    FramePattern.expandingPlaceholdersOnly(pattern.description, name: clip.name, scene: clip.scene.model.id,
                                                        scale: clip.scene.scale)
                } else { output.path }
                if let other = claimed[path] {
                    throw ThrobberError("\(clip.label) writes \(path), which \(other) writes too; give the clips different names or paths",
                                        kind: .usage)
                }
                claimed[path] = clip.label
            }
            filled.append(clip)
        }
        if filled.flatMap({ $0.outputs.filter { $0.path == "-" } }).count > 1 {
            throw ThrobberError("only one output can go to stdout (\"-\")", kind: .usage)
        }
        // The digest stands for the job file's bytes: here, for a description of every clip.
        let description = filled.map { clip in
            "\(clip.label) \(clip.scene.model.parameterInfos.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: " ")) "
                + "fps=\(clip.fps) start=\(clip.start) frames=\(clip.frameCount) outputs=\(clip.outputs.map(\.path))"
        }.joined(separator: "\n")
        self.init(path: name, digest: SHA256.hex(Array(description.utf8)), backend: backend, clips: filled, isFile: false)
    }
}
