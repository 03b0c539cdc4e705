import Foundation
import Throbber
import ThrobberText

/// The parity matrix — every scene × scale × time with default parameters (and any fixed
/// settings) — written once for `throbber parity` and the GL test suites, and the one
/// comparison of a renderer against the CPU reference (docs/spec.md §0 "Comparing two renders").
public enum ParityMatrix {
    /// The matrix's scales unless told otherwise.
    public static let defaultScales: [Double] = [1, 2, 3]
    /// How many times across a scene's loop unless told otherwise.
    public static let defaultTimeCount = 6
    /// The largest channel difference allowed by default (SPEC §0).
    public static let defaultTolerance = 2

    /// One case: a scene ready to draw, the time, and the settings that rebuild it.
    public struct Case: Sendable {
        public var id: String
        /// What `render` takes to draw it again: the scene's id, or its scene file's path.
        public var reference: String
        /// The random case's number within its scene (with the seed, all it takes to draw it
        /// again); nil for a case of the matrix.
        public var index: Int?
        public var scene: Scene
        /// The scene with its text laid out when the case was drawn (a random case); nil: it is
        /// laid out when it is compared (`laidOutScene()`).
        public var laidOut: LaidOutScene?
        public var t: Double
        /// `scale` first, then `background` when set, then parameters in order: as `render`
        /// applies them.
        public var settings: [SampledCase.Setting]

        /// The case's scene ready to draw: `laidOut`, else `scene` laid out.
        ///
        /// - Throws: as `Scene.layingOutText()`.
        public func laidOutScene() throws -> LaidOutScene { try laidOut ?? scene.layingOutText() }
    }

    /// The largest canvas side of a random case: large enough for every edge, small enough
    /// that a few hundred cases finish in a CI minute.
    public static let randomPixelCap = 640

    /// `count` times spread over one loop of `model` (its preview duration), from t = 0.
    public static func times(_ model: any SceneModel, count: Int = defaultTimeCount) -> [Double] {
        (0..<count).map { model.previewDuration * Double($0) / Double(count) }
    }

    /// Whether scene `id` takes a setting of this name: one of its parameters, or scale or background.
    public static func applies(_ name: String, to id: String) -> Bool {
        (try? SceneRegistry.model(id)).map { applies(name, to: $0) } ?? false
    }

    /// Whether `model` takes a setting of this name: one of its parameters, or scale or background.
    public static func applies(_ name: String, to model: any SceneModel) -> Bool {
        ParameterSampler.sceneSettingNames.contains(name) || model.parameterInfos.contains { $0.name == name }
    }

    /// What `render` takes to draw `model` again: a file scene's path, else its id.
    public static func reference(of model: any SceneModel) -> String {
        model.origin?.path ?? model.id
    }

    /// The matrix's cases, every one built (and validated) before any is rendered.
    ///
    /// - Parameters:
    ///   - times: explicit times for every case; nil spreads `timeCount` over each scene's loop.
    ///   - fixed: settings applied to every scene that takes them (a `scale` among them replaces
    ///     `scales`).
    /// - Throws: `.usage` when a setting does not fit a scene.
    public static func cases(scenes: [String], scales: [Double] = defaultScales, times: [Double]? = nil,
                             timeCount: Int = defaultTimeCount, fixed: [SampledCase.Setting] = []) throws -> [Case] {
        try cases(models: try scenes.map { try SceneRegistry.model($0) }, scales: scales, times: times, timeCount: timeCount, fixed: fixed)
    }

    /// The matrix's cases of scenes given as models at their defaults: built-ins or scene files.
    public static func cases(models: [any SceneModel], scales: [Double] = defaultScales, times: [Double]? = nil,
                             timeCount: Int = defaultTimeCount, fixed: [SampledCase.Setting] = []) throws -> [Case] {
        let scales = fixed.last(where: { $0.name == "scale" }).flatMap { Double($0.value) }.map { [$0] } ?? scales
        var cases: [Case] = []
        for model in models {
            let id = model.id
            for scale in scales {
                var scene = Scene(model, scale: scale)
                var settings = [SampledCase.Setting("scale", formatNumber(scale))]
                for setting in fixed where setting.name != "scale" && applies(setting.name, to: model) {
                    scene = try scene.setting(setting.name, to: setting.value)
                    settings.append(setting)
                }
                scene = try scene.validated()
                for t in times ?? self.times(scene.model, count: timeCount) {
                    cases.append(Case(id: id, reference: reference(of: model), index: nil, scene: scene, laidOut: nil, t: t, settings: settings))
                }
            }
        }
        return cases
    }

    /// `count` random cases per scene, every parameter drawn from its whole range
    /// (`ParameterSampler`), the same cases for the same seed.
    ///
    /// - Parameters:
    ///   - fixed: settings every case of a scene that takes them keeps instead of drawing.
    ///   - times, scales: lists to draw times and scales from instead of their ranges.
    /// - Throws: `.usage` when a fixed setting does not fit a scene.
    public static func randomCases(scenes: [String], count: Int, seed: UInt64, fixed: [SampledCase.Setting] = [],
                                   times: [Double]? = nil, scales: [Double]? = nil) throws -> [Case] {
        try randomCases(models: try scenes.map { try SceneRegistry.model($0) }, count: count, seed: seed, fixed: fixed,
                        times: times, scales: scales)
    }

    /// Random cases of scenes given as models at their defaults: built-ins or scene files, drawn alike.
    public static func randomCases(models: [any SceneModel], count: Int, seed: UInt64, fixed: [SampledCase.Setting] = [],
                                   times: [Double]? = nil, scales: [Double]? = nil) throws -> [Case] {
        var cases: [Case] = []
        for model in models {
            let shared = fixed.filter { applies($0.name, to: model) }
            let sampler = ParameterSampler(seed: seed, maximumPixelSide: randomPixelCap)
            for index in 0..<count {
                let item = try sampler.draw(model, index: index, fixed: shared, times: times, scales: scales) { try $0.layingOutText() }
                cases.append(Case(id: model.id, reference: reference(of: model), index: index, scene: item.scene, laidOut: item.laidOut, t: item.time,
                                  settings: item.settings))
            }
        }
        return cases
    }

    /// Checks settings every case shares against the chosen scenes: each must be taken by at
    /// least one of them, with a value that scene accepts.
    ///
    /// - Throws: `.usage` for a name no chosen scene takes (with the nearest name); the scene's
    ///   own error for a value out of range.
    public static func check(_ settings: [SampledCase.Setting], scenes: [String]) throws {
        try check(settings, models: try scenes.map { try SceneRegistry.model($0) })
    }

    /// Checks settings every case shares against scenes given as models (see `check(_:scenes:)`).
    public static func check(_ settings: [SampledCase.Setting], models: [any SceneModel]) throws {
        for setting in settings {
            let owners = models.filter { applies(setting.name, to: $0) }
            guard !owners.isEmpty else {
                let known = Set(models.flatMap { $0.parameterInfos.map(\.name) })
                throw ThrobberError.unknown("parameter", setting.name,
                                            known: known.sorted() + ParameterSampler.sceneSettingNames.sorted())
            }
            for model in owners { _ = try Scene(model).setting(setting.name, to: setting.value) }
        }
    }

    /// Renders the frame of `scene` at `t` with `renderer` and with `reference` and compares them.
    ///
    /// A renderer that draws frames in stacks (GL) draws the frame alone and then twice in one
    /// call, as `render` and `batch` draw a clip's frames: one above the other in one target, and
    /// its rings, seen twice, from coverage textures. The worst of the three is compared.
    ///
    /// - Returns: the reference image, the observed image, their difference, and whether the
    ///   observed image is one drawn in the stack (the frame alone matched better).
    public static func compare(_ scene: LaidOutScene, at t: Double, renderer: some Renderer, reference: some Renderer,
                               tolerance: Int = defaultTolerance) throws -> (expected: Image, observed: Image, diff: ImageDiff, stacked: Bool) {
        let list = scene.drawList(at: t)
        let expected = try reference.render(list)
        var observed = try renderer.render(list)
        var diff = ImageDiff(expected: expected, observed: observed, tolerance: tolerance)
        var stacked = false
        if renderer.framesPerDraw(width: 1, height: 1) > 1 {
            for image in try renderer.render([list, list]) {
                let other = ImageDiff(expected: expected, observed: image, tolerance: tolerance)
                if (other.pixelsOverTolerance, other.maxChannelDifference) > (diff.pixelsOverTolerance, diff.maxChannelDifference) {
                    (observed, diff, stacked) = (image, other, true)
                }
            }
        }
        return (expected, observed, diff, stacked)
    }
}
