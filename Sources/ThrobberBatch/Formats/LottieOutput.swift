import Foundation
import Throbber
import ThrobberLottie
import ThrobberText

/// A job's `lottie` output (issue 51): the clip exported as one Lottie animation (`.json`) or
/// dotLottie archive (`.lottie`) by ``LottieExporter``, as `throbber export` writes it.
///
/// The export is drawn from the scene, not from the frames, and is free of scale: a Lottie's
/// canvas is the scene's in pt and its player scales it. So it is exported from the clip's scene
/// at scale 1 whatever the clip's scale, over the clip's span — frame 0 at the clip's start, as
/// many Lottie frames as the clip has (`op` = the clip's frame count, a loop's whole length) at
/// the clip's frame rate — and a render with several scales writes it once (the job-file reader
/// gives it to the render's first scale only and refuses `{scale}` in its path).
///
/// A chain cannot be one: its links are the scene with other parameters on one timeline, and the
/// exporter writes one scene with one set of parameters; writing the first link over the whole
/// span would be a file that says something else than the frames. Such an output is refused when
/// the job is read.
public enum LottieOutput {
    /// The largest distance (pt) a written shape may be from the scene's, unless the output
    /// says otherwise: `throbber export`'s.
    public static let defaultTolerance = LottieExportOptions.defaultTolerance
    /// An output's `tolerance`, in pt: as `throbber export --tolerance` takes it.
    public static let toleranceRule = NumberRule("tolerance", .closed(0.001, 1))
    /// The most frames one export holds (``LottieExportLimits/frames``).
    public static let mostFrames = LottieExportLimits.frames

    /// Whether `path` names a dotLottie archive (`.lottie`) rather than Lottie JSON (`.json`).
    public static func isArchive(_ path: String) -> Bool {
        URL(fileURLWithPath: path).pathExtension.lowercased() == "lottie"
    }

    /// Checks a Lottie output of a clip of `frameCount` frames at `fps`, labelled `label`: a file
    /// ending in `.json` or `.lottie`, a tolerance in range, no more frames than one export
    /// holds, and no chain.
    ///
    /// - Throws: a usage error naming the output and what is allowed (``ThrobberError/field``
    ///   names the setting at fault, where one is).
    static func check(path: String, tolerance: Double, label: String, frameCount: Int, fps: Double, chained: Bool) throws {
        let shown = ThrobberError.echoed(path, longest: ThrobberError.longestPathEcho)
        guard path != "-", ["json", "lottie"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) else {
            throw ThrobberError("a lottie path must end in .json (Lottie) or .lottie (dotLottie), not \"\(shown)\"", kind: .usage, field: "path")
        }
        try toleranceRule.check(tolerance)
        guard !chained else {
            throw ThrobberError("\(label): lottie output \(shown) cannot be written for a chain: the export is one scene with one set of "
                                + "parameters, and a chain's links change them on one timeline; give each link a render of its own "
                                + "with its own lottie output", kind: .usage, field: "type")
        }
        guard frameCount <= mostFrames else {
            throw ThrobberError("\(label): lottie output \(shown) would hold \(frameCount) frames; an export holds at most \(mostFrames) "
                                + "(\(formatNumber(Double(mostFrames) / fps)) s at \(formatNumber(fps)) fps): shorten the clip or "
                                + "lower its fps", kind: .usage, field: "path")
        }
    }

    /// What the exporter is asked for `clip`: frame 0 at the clip's start, the clip's frames
    /// (a loop's whole length: frame N is frame 0 again) at the clip's rate, within `tolerance`.
    public static func options(for clip: Clip, tolerance: Double) -> LottieExportOptions {
        LottieExportOptions(start: clip.start, duration: Double(clip.frameCount) / clip.fps, frameRate: clip.fps, tolerance: tolerance)
    }

    /// The bytes of `clip`'s Lottie output at `path`: the export of its scene at scale 1 (laid
    /// out again when the clip is at another scale; a loop's retimed speeds kept), as JSON or,
    /// for a `.lottie` path, in a dotLottie archive whose animation is named after the clip.
    ///
    /// - Throws: what laying the scene out at scale 1 throws; the exporter's refusal of a scene
    ///   it cannot write (`.badData`, naming the item).
    public static func data(for clip: Clip, path: String, tolerance: Double) throws -> Data {
        var scene = clip.scene
        if scene.scale != 1 {
            var unscaled = scene.scene
            unscaled.scale = 1
            scene = try unscaled.validated().layingOutText()
        }
        let export = try LottieExporter.export(scene, options: options(for: clip, tolerance: tolerance))
        guard isArchive(path) else { return export.json }
        return try DotLottieWriter.archive(id: clip.name, json: export.json, themes: [], generator: "throbber \(throbberVersion)")
    }
}
