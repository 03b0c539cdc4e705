import Foundation
import Throbber
import ThrobberText

/// One render of the job at one scale: the unit outputs are written for.
public struct Clip: Sendable {
    /// The render's name (default: the scene id), used by `{name}`.
    public var name: String
    /// The scene at this clip's scale (speeds set when looping), validated and its text laid out.
    public var scene: LaidOutScene
    public var fps: Double
    /// Time of frame 0.
    public var start: Double
    public var frameCount: Int
    /// How the clip was made into a seamless loop, when it was.
    public var loop: LoopPlan?
    public var outputs: [Output]
    /// Where the render is in the job file (0 for a clip built in code).
    public var line: Int
    /// A chained render's links after the first, each from its first frame on (empty for a
    /// render of one scene): frames `chain[i].firstFrame` … draw `chain[i].scene`, on the one
    /// timeline t = start + k / fps, so a spinner turns on across a change of state.
    public var chain: [Link] = []

    /// One link of a chained render after the first: its scene (the render's parameters with
    /// the link's over them) and the clip frame it starts at.
    public struct Link: Sendable {
        public var scene: LaidOutScene
        public var firstFrame: Int
    }

    /// The time of frame `k`: start + k / fps.
    public func time(_ k: Int) -> Double { start + Double(k) / fps }

    /// Which link draws frame `k`: 0 for the first (`scene`), i for `chain[i − 1]`.
    ///
    /// A binary search over the links' first frames, which rise: every frame asks, so a chain of
    /// 100,000 links costs 17 comparisons a frame instead of 100,000.
    public func linkIndex(_ k: Int) -> Int {
        // The number of links whose first frame is at most k.
        chain.countOfPrefix { $0.firstFrame <= k }
    }

    /// The scene that draws frame `k`.
    public func scene(forFrame k: Int) -> LaidOutScene {
        let index = linkIndex(k)
        return index == 0 ? scene : chain[index - 1].scene
    }

    /// Every link's scene, the first link's (`scene`) first.
    public var linkScenes: [LaidOutScene] { [scene] + chain.map(\.scene) }

    /// A label such as `wave-ball@2x`.
    public var label: String { Clip.label(name: name, scale: scene.scale) }

    /// The label of the clip of render `name` at `scale`.
    static func label(name: String, scale: Double) -> String { "\(name)@\(formatNumber(scale))x" }
}

extension Clip {
    /// A clip's frame count: 1 … `Limits.frames`.
    public static let framesRule = IntegerRule("frames", 1...Limits.frames)
    /// A clip's frame rate.
    public static let fpsRule = NumberRule("fps", Limits.fpsRange)
    /// The time of a clip's frame 0.
    public static let startRule = NumberRule("start", Limits.timeRange)

    /// Checks a render's name, which `{name}` puts into paths as a whole path component: letters,
    /// digits, `.`, `_` and `-`, not `.` or `..`, at most `Job.longestName` bytes, so that
    /// `o/{name}/x_%05d.png` never climbs out of `o/`.
    ///
    /// - Throws: a usage error naming `name`, with ``ThrobberError/field``.
    public static func checkName(_ name: String) throws {
        guard !name.isEmpty, name != ".", name != "..", name.utf8.count <= Job.longestName,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw ThrobberError("invalid name \"\(ThrobberError.echoed(name))\": letters, digits, '.', '_' and '-' only, "
                                + "not \".\" or \"..\", at most \(Job.longestName) bytes", kind: .usage, field: "name")
        }
    }

    /// A clip built in code: `scene` (parameters and scale set) rendered for `frames` frames at
    /// t = start + k / fps, written to `outputs`. Checked as a job file's render is, by the same
    /// rules with the same messages: the name a path component, the scene validated, the frame
    /// count, rate and start in range (``framesRule``, ``fpsRule``, ``startRule``) and the timeline
    /// within `Limits`, each output possible for the clip (``Output/check(for:)``).
    ///
    /// - Parameter name: what `{name}` stands for and labels say (default: the scene's id).
    /// - Throws: `.usage` naming what is out of range (``ThrobberError/field`` names the setting).
    public init(name: String? = nil, scene: Scene, frames: Int, fps: Double = 60, start: Double = 0, outputs: [Output]) throws {
        try Clip.checkName(name ?? scene.model.id)
        try self.init(name: name, scene: try scene.validated().layingOutText(), frames: frames, fps: fps, start: start, outputs: outputs)
    }

    /// A clip built in code of a scene whose text is laid out already, checked as
    /// ``init(name:scene:frames:fps:start:outputs:)`` checks it.
    ///
    /// - Throws: `.usage` naming what is out of range (``ThrobberError/field`` names the setting).
    public init(name: String? = nil, scene: LaidOutScene, frames: Int, fps: Double = 60, start: Double = 0, outputs: [Output]) throws {
        try self.init(name: name ?? scene.model.id, scene: scene, frames: frames, fps: fps, start: start, loop: nil,
                      outputs: outputs, line: 0)
    }

    /// The one place a clip is checked and made, for code and the job-file reader alike.
    ///
    /// - Parameters:
    ///   - loop: how the clip was made a seamless loop (its scene already retimed, `frames` the
    ///     loop's), for its provenance.
    ///   - line: where the render is in its job file.
    init(name: String, scene: LaidOutScene, frames: Int, fps: Double, start: Double, loop: LoopPlan?, outputs: [Output],
         line: Int, chain: [Link] = []) throws {
        try Clip.checkName(name)
        try Clip.framesRule.check(frames)
        try Clip.fpsRule.check(fps)
        try Clip.startRule.check(start)
        try Limits.checkTimeline(start: start, fps: fps, frames: frames)
        guard !outputs.isEmpty else { throw ThrobberError("a clip needs at least one output", kind: .usage, field: "outputs") }
        self.init(name: name, scene: scene, fps: fps, start: start, frameCount: frames, loop: loop, outputs: outputs, line: line,
                  chain: chain)
        for output in outputs { try output.check(for: self) }
        try preflight()
    }

    /// The most frames of a file scene evaluated before the first is drawn: every frame of a
    /// clip up to this many, else this many spread evenly, with the first and last frames. A
    /// frame between them that cannot be drawn stops the run when it is drawn
    /// (`LaidOutScene.checkedDrawList`).
    public static let preflightFrames = 100_000

    /// Where a long preflight says how far it is, and what may stop it: set once by the command
    /// line (a line on stderr, its signal handling); a library caller may set its own.
    public static let preflightObserver = PreflightObserver()

    /// Evaluates the numbers of the frames a scene file draws — clocks, tracks, expressions,
    /// lengths, counts, colours — and the pixels each frame's shapes cover, without drawing
    /// (docs/scene-files.md §12.2), so a frame that cannot be drawn stops the run before
    /// anything is written.
    ///
    /// The work is bounded: frames are taken in an order that spreads them over the clip (the
    /// first, the last, then the middles of the gaps, `spreadOrder`) until every candidate
    /// (`preflightFrames`) is evaluated or `Limits.preflightWork` is spent, so a heavy file
    /// has fewer frames checked up front, evenly spread, instead of hours of them; the rest are
    /// checked as they are drawn. Past a second it reports its progress (`preflightObserver`),
    /// and between frames it stops once the observer's cancellation is set.
    ///
    /// - Parameters:
    ///   - observer: where progress goes and what cancels (`preflightObserver`).
    ///   - workLimit: the work after which no more frames are taken (`Limits.preflightWork`).
    /// - Returns: how many frames were evaluated.
    /// - Throws: `.badData` naming the node, the value, the time and the parameters;
    ///   `.interrupted` once cancelled.
    @discardableResult
    func preflight(observer: PreflightObserver = Clip.preflightObserver, workLimit: Int = Limits.preflightWork) throws -> Int {
        guard linkScenes.contains(where: { $0.model.preflight == .eachFrame }) else { return 0 }
        let frames: [Int]
        if frameCount <= Clip.preflightFrames {
            frames = Array(0..<frameCount)
        } else {
            let step = Double(frameCount - 1) / Double(Clip.preflightFrames - 1)
            frames = (0..<Clip.preflightFrames).map { min(frameCount - 1, Int((Double($0) * step).rounded())) }
        }
        let began = ContinuousClock.now
        var nextReport = Duration.seconds(1)
        var spent = 0, evaluated = 0
        for index in Clip.spreadOrder(frames.count) {
            // The first and last frames always; then as many as the work allows.
            if evaluated >= 2 && spent >= workLimit { break }
            if let reason = observer.cancellation?.cancellationReason {
                throw ThrobberError.interrupted(reason, "while checking the frames of \(label) before the first (\(evaluated) of \(frames.count) checked)")
            }
            let k = frames[index]
            spent += try scene(forFrame: k).preflightFrame(at: time(k))
            evaluated += 1
            let elapsed = ContinuousClock.now - began
            if elapsed >= nextReport {
                observer.report("checking the frames of \(label) before the first: \(evaluated) of \(frames.count) evaluated in "
                                + "\(String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)) s"
                                + " (at most \(workLimit) node evaluations; the frames not evaluated are checked as they are drawn)")
                nextReport = elapsed + .seconds(10)
            }
        }
        return evaluated
    }

    /// The indices `0 ..< count` in an order whose every prefix is spread over the range: the
    /// first, the last, then the middle of each gap, level by level (0, 8, 4, 2, 6, 1, 3, 5, 7
    /// for 9), each once. A preflight that stops early has checked frames across the clip.
    static func spreadOrder(_ count: Int) -> [Int] {
        guard count > 2 else { return Array(0..<count) }
        var order = [0, count - 1]
        order.reserveCapacity(count)
        var gaps = [(0, count - 1)], next: [(Int, Int)] = []
        while !gaps.isEmpty {
            for (low, high) in gaps where high - low >= 2 {
                let middle = (low + high) / 2
                order.append(middle)
                next.append((low, middle))
                next.append((middle, high))
            }
            gaps = next
            next.removeAll(keepingCapacity: true)
        }
        return order
    }

    /// A chained clip built in code: `links` one after another on one timeline — link i's
    /// scene draws its `frames` frames from t = start + (frames of the links before) / fps —
    /// written to `outputs` as one sequence (one numbering, one sheet, one video). Every link
    /// is a scene of the same kind at the same scale drawing frames of the same size (a `hud`
    /// chain gives each link the same `screen`).
    ///
    /// - Throws: `.usage` naming the link at fault (``ThrobberError/field`` is `chain`), or as
    ///   ``init(name:scene:frames:fps:start:outputs:)`` does.
    public init(name: String? = nil, links: [(scene: Scene, frames: Int)], fps: Double = 60, start: Double = 0,
                outputs: [Output]) throws {
        guard let first = links.first else { throw ThrobberError("a chain needs at least one link", kind: .usage, field: "chain") }
        for link in links { try Clip.framesRule.check(link.frames) }
        let total = links.reduce(0) { $0 + $1.frames }
        try Limits.checkTimeline(start: start, fps: fps, frames: min(total, Limits.frames + 1))
        try Clip.framesRule.check(total)
        // Laid out once, as every later link is compared with it.
        let firstScene = try first.scene.validated().layingOutText()
        var chain: [Link] = [], firstFrame = first.frames
        for (index, link) in links.enumerated().dropFirst() {
            chain.append(Link(scene: try Clip.linkScene(link.scene, index: index, first: firstScene), firstFrame: firstFrame))
            firstFrame += link.frames
        }
        try self.init(name: name ?? first.scene.model.id, scene: firstScene, frames: total, fps: fps, start: start, loop: nil,
                      outputs: outputs, line: 0, chain: chain)
    }

    /// Link `index` (0-based) of a chain, validated, its text laid out, and checked to draw
    /// what the first link draws: the same scene at the same scale, frames of the same size.
    /// `first` is the first link's scene, validated and laid out already.
    static func linkScene(_ scene: Scene, index: Int, first: LaidOutScene) throws -> LaidOutScene {
        let scene = try scene.validated().layingOutText()
        let which = "chain link \(index + 1)"
        guard scene.model.id == first.model.id else {
            throw ThrobberError("\(which) draws \(scene.model.id), the first link \(first.model.id): a chain is one scene's",
                                kind: .usage, field: "chain")
        }
        guard scene.scale == first.scale else {
            throw ThrobberError("\(which) is at scale \(formatNumber(scene.scale)), the first at \(formatNumber(first.scale))",
                                kind: .usage, field: "chain")
        }
        let (w, h) = scene.pixelSize, (w0, h0) = first.pixelSize
        guard w == w0, h == h0 else {
            var hint = ""
            if scene.model.parameterInfos.contains(where: { $0.name == "screen" }) {
                hint = " (give every link one screen, e.g. \"screen\": \"390x844\" in the render's parameters)"
            }
            throw ThrobberError("\(which) draws \(w)×\(h) px frames, the first link \(w0)×\(h0) px: one output's frames are "
                                + "one size\(hint)", kind: .usage, field: "chain")
        }
        return scene
    }
}

/// Where a long preflight (`Clip.preflight`) reports and what may stop it between frames.
public final class PreflightObserver: @unchecked Sendable {
    private let lock = NSLock()
    private var reporter: (@Sendable (String) -> Void)?
    private var source: (any CancellationSource)?

    init() {}

    /// Sends progress lines to `report` and stops a preflight between frames once
    /// `cancellation` is set.
    public func observe(report: (@Sendable (String) -> Void)?, cancellation: (any CancellationSource)?) {
        lock.withLock {
            reporter = report
            source = cancellation
        }
    }

    var cancellation: (any CancellationSource)? { lock.withLock { source } }

    func report(_ line: String) {
        let reporter = lock.withLock { self.reporter }
        reporter?(line)
    }
}
