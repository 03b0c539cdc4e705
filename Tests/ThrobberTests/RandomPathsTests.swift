import Foundation
import Testing
@testable import Throbber

/// Parity's `paths` scene (docs/parity.md): its random paths are the same for the same seed, and
/// 200 seeds reach every fill rule, join, cap and paint kind, dashes, wrapping trims, hairlines,
/// and every kind of transform; its gallery (seed 0, the matrix's cases) holds each of them too.
struct RandomPathsTests {
    /// What a list of paths holds, by kind of feature.
    struct Features {
        var rules: Set<String> = []
        var joins: Set<String> = []
        var caps: Set<String> = []
        var paints: Set<String> = []
        var other: Set<String> = []

        init(_ specs: [PathSpec]) {
            for spec in specs {
                if let fill = spec.fill {
                    rules.insert(fill.rule.rawValue)
                    paints.insert(Features.kind(fill.paint))
                }
                if let stroke = spec.stroke {
                    joins.insert(stroke.style.join.rawValue)
                    caps.insert(stroke.style.cap.rawValue)
                    paints.insert(Features.kind(stroke.paint))
                    if !stroke.style.dash.isEmpty { other.insert("dash") }
                    if !stroke.style.dash.isEmpty && stroke.style.dashOffset != 0 { other.insert("dash offset") }
                    if stroke.style.dash.contains(0) { other.insert("zero-length dash") }
                    if spec.hairline || stroke.style.width <= 0.1 { other.insert("thin") }
                    if stroke.style.width >= 10 { other.insert("thick") }
                    if stroke.style.join == .miter && stroke.style.miterLimit < 2 { other.insert("low miter limit") }
                }
                if let trim = spec.trim {
                    other.insert("trim")
                    let a = Features.fraction(trim.start + trim.offset), b = Features.fraction(trim.end + trim.offset)
                    if trim.end > trim.start && trim.end - trim.start < 1 && b < a { other.insert("trim wrapping") }
                }
                if spec.rotation != 0 { other.insert("rotation") }
                if spec.skew != 0 { other.insert("skew") }
                if abs(spec.scaleX) != abs(spec.scaleY) { other.insert("uneven scale") }
                if spec.scaleX * spec.scaleY < 0 { other.insert("mirror") }
                if spec.spin != 0 { other.insert("spin") }
                if spec.center.x < 0.05 || spec.center.x > 0.95 || spec.center.y < 0.05 || spec.center.y > 0.95 { other.insert("off canvas") }
                if spec.opacity == 0 { other.insert("opacity 0") }
                if spec.opacity > 0 && spec.opacity < 1 { other.insert("translucent") }
                if spec.geometry.subpaths.count > 1 { other.insert("subpaths") }
                if spec.geometry.subpaths.contains(where: { $0.segments.contains { if case .cubic = $0 { true } else { false } } }) {
                    other.insert("cubic")
                }
                if spec.geometry.subpaths.contains(where: { $0.segments.isEmpty && $0.closed }) { other.insert("dot") }
            }
        }

        static func kind(_ paint: PathPaint) -> String {
            switch paint {
            case .solid: "solid"
            case .linear: "linear"
            case .radial(_, _, let highlight, _, _): highlight == 0 ? "radial" : "focal"
            }
        }

        static func fraction(_ x: Double) -> Double { x - x.rounded(.down) }
    }

    static let everyRule: Set<String> = ["nonzero", "evenodd"]
    static let everyJoin: Set<String> = ["miter", "round", "bevel"]
    static let everyCap: Set<String> = ["butt", "round", "square"]
    static let everyPaint: Set<String> = ["solid", "linear", "radial", "focal"]

    /// A seed's paths as text: equal text, equal paths (every field is printed).
    func described(_ model: RandomPaths) -> String { String(describing: model.randomSpecs()) }

    @Test func theSameSeedDrawsTheSamePaths() {
        var model = RandomPaths()
        model.seed = 123_457
        let first = described(model)
        #expect(first == described(model))
        var other = model
        other.seed = 123_458
        #expect(described(other) != first)
        // Time, scale and canvas do not change what is drawn, only where and how it turns.
        model.size = 17
        #expect(described(model) == first)
        // The first paths of a larger count are the paths of the smaller.
        var more = model
        more.count = model.count + 3
        #expect(more.randomSpecs().prefix(model.count).map { String(describing: $0) } == model.randomSpecs().map { String(describing: $0) })
    }

    @Test func twoHundredSeedsCoverEveryRuleJoinCapAndPaint() {
        var specs: [PathSpec] = []
        for seed in 1...200 {
            var model = RandomPaths()
            model.seed = seed
            specs += model.randomSpecs()
        }
        let features = Features(specs)
        #expect(features.rules == Self.everyRule)
        #expect(features.joins == Self.everyJoin)
        #expect(features.caps == Self.everyCap)
        #expect(features.paints == Self.everyPaint)
        let expected: Set<String> = ["dash", "dash offset", "zero-length dash", "thin", "thick", "low miter limit", "trim",
                                     "trim wrapping", "rotation", "skew", "uneven scale", "mirror", "spin", "off canvas",
                                     "opacity 0", "translucent", "subpaths", "cubic", "dot"]
        #expect(expected.subtracting(features.other).isEmpty, "missing: \(expected.subtracting(features.other).sorted())")
    }

    @Test func theGalleryHoldsEveryRuleJoinCapAndPaint() {
        let features = Features(RandomPaths.gallery)
        #expect(RandomPaths.gallery.count == 16)
        #expect(features.rules == Self.everyRule)
        #expect(features.joins == Self.everyJoin)
        #expect(features.caps == Self.everyCap)
        #expect(features.paints == Self.everyPaint)
        let expected: Set<String> = ["dash", "dash offset", "zero-length dash", "thin", "low miter limit", "trim",
                                     "trim wrapping", "rotation", "skew", "uneven scale", "spin", "translucent", "subpaths", "cubic", "dot"]
        #expect(expected.subtracting(features.other).isEmpty, "missing: \(expected.subtracting(features.other).sorted())")
    }

    @Test func parityDrawsItButScenesDoesNotListIt() throws {
        #expect(!SceneRegistry.ids.contains("paths"))
        #expect(SceneRegistry.parityIDs == SceneRegistry.ids + ["paths"])
        let model = try SceneRegistry.model("paths")
        #expect(model is RandomPaths && model.id == "paths")
        // Random cases draw seeds from 1: seed 0 is the matrix's gallery.
        let seed = try #require(RandomPaths.parameters.first { $0.name == "seed" })
        #expect(seed.samplingRange?.low == 1)
    }

    @Test func aFrameTurnsWithTheLoop() {
        var model = RandomPaths()
        model.loopSeconds = 2
        #expect(model.frameState(at: 0).turn == 0)
        #expect(model.frameState(at: 1).turn == 0.5)
        #expect(model.frameState(at: 1e5 + 0.5).turn == 0.25)
    }
}
