import Foundation
import Throbber
import ThrobberPNG
import ThrobberRender
import ThrobberSceneFile

/// One scene at one size: the frames every benchmark of it times, and what they share.
final class BenchCase {
    /// The scene as the bench names it: its id, or `ID:NAME=VALUE…` (`Benchmarks.SceneSpec`).
    let id: String
    /// The scene's text not laid out: what a job is given (it lays the text out per clip).
    let unlaidScene: Scene
    /// The longer side asked for, in px.
    let size: Int
    /// The scene scaled to `size`, its text laid out.
    let scene: LaidOutScene
    /// The canvas in px.
    let width: Int, height: Int
    /// Millions of pixels per frame.
    var megapixels: Double { Double(width * height) / 1e6 }
    /// The run's settings.
    let settings: Benchmarks.Settings
    /// Frame i at t = i / 60, in time order, as a batch renders them.
    let lists: [DrawList]
    /// What the scene's path outline cache did up to the last of `lists`; nil when it draws no path.
    let pathOutlines: BenchReport.PathOutlines?
    /// Where stages that write files put them; removed by the caller at the end of the run.
    let scratch: URL
    /// The frames as the first backend renders them: the input of encode, hash, write and the
    /// encode ceiling, one per list. Past `distinctReferenceFrames` they repeat the first ones
    /// (sharing their memory), so a long run holds at most `referenceBudget` bytes of pixels.
    private(set) var reference: [Image] = []
    /// The most bytes of distinct reference pixels a case holds (default 256 MB): `--frames 3000`
    /// at 1024 px would otherwise keep 12 GB.
    let referenceBudget: Int
    /// How many reference frames are drawn: every one, or as many as `referenceBudget` holds.
    var distinctReferenceFrames: Int { max(1, min(lists.count, referenceBudget / max(1, width * height * 4))) }
    /// The reference frames as PNG files: the encode stage's own output where it ran, so hash and
    /// write do not encode them again.
    var encoded: [Data]?

    /// The case of scene `id` at `size` px.
    init(_ id: String, size: Int, settings: Benchmarks.Settings, scratch: URL, referenceBudget: Int = 256 << 20) throws {
        self.id = id
        self.referenceBudget = referenceBudget
        self.size = size
        self.settings = settings
        self.scratch = scratch
        unlaidScene = try Benchmarks.SceneSpec(id).scene(size: size)
        scene = try unlaidScene.layingOutText()
        (width, height) = scene.pixelSize
        let scene = self.scene
        // A scene file keeps its paths' outlines across frames (`FileScene.pathOutlines`), one
        // cache per file read, so per case: its counts run from the file's reading (validation
        // draws frame 0 once, building its outlines) to the last of these lists.
        let file = scene.scene.model as? FileScene
        var listMs: [Double] = []
        lists = (0..<settings.frames).map { k in
            var list: DrawList?
            listMs.append(Stopwatch.milliseconds { list = scene.drawList(at: Double(k) / 60) })
            return list!
        }
        let counts = file?.pathOutlines.statistics ?? PathOutlineStatistics()
        if counts.built + counts.kept + counts.moved == 0 {
            pathOutlines = nil
        } else {
            // What building frame 0's outlines from their curves costs, as a scene without the
            // cache would pay every frame: the median of 5 builds of them all.
            let paths = lists[0].items.compactMap { $0.primitive(as: Path.self) }
            let builds = (0..<5).map { _ in
                Stopwatch.milliseconds {
                    for path in paths { _ = PathOutline.build(path.geometry, transform: path.transform, role: path.role, trim: path.trim) }
                }
            }
            pathOutlines = BenchReport.PathOutlines(scene: id, size: size, frames: lists.count, built: counts.built, kept: counts.kept,
                                                    moved: counts.moved, firstListMs: listMs[0],
                                                    laterListMs: listMs.count > 1 ? Summary(Array(listMs.dropFirst())).median : nil,
                                                    frameOutlinesMs: Summary(builds).median)
        }
    }

    /// Renders the reference frames with `renderer`; not timed.
    func renderReference(with renderer: FrameRenderer) throws {
        reference = BenchCase.repeating(try lists.prefix(distinctReferenceFrames).map { try renderer.render($0) }, count: lists.count)
        // As a batch chooses for a clip: frame 1 after frame 0 (frame 0 alone for one frame).
        chosen = reference.count > 1 && lists.count > 1 ? try settings.png.choice(for: reference[1], previous: reference[0])
                                                        : try settings.png.choice(for: reference[0])
    }

    /// `count` values: `distinct`, then `distinct` again from its start, and so on.
    static func repeating<T>(_ distinct: [T], count: Int) -> [T] {
        (0..<count).map { distinct[$0 % distinct.count] }
    }

    /// The bench's encoder for this case and why: `auto` chooses from the first two reference
    /// frames (frames 0 and 1 at 60 fps), as a batch does from a clip's.
    var pngChoice: PNGChoice {
        guard let chosen else { preconditionFailure("the PNG choice reads the reference frames, rendered first") }
        return chosen
    }
    private var chosen: PNGChoice?

    /// The bench's encoder for this case (``pngChoice``).
    var png: PNGEncoder { pngChoice.encoder }

    /// The reference frames as PNG files, encoded now (not timed) unless the encode stage did.
    func encodedFrames() throws -> [Data] {
        if let encoded { return encoded }
        let png = self.png
        let frames = BenchCase.repeating(try reference.prefix(distinctReferenceFrames).map { try png.encode($0) }, count: reference.count)
        encoded = frames
        return frames
    }
}
