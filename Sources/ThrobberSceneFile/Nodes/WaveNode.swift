import Foundation
import Throbber

/// `wave`: a sine band filled below y = amplitude·sin(2π(x − originX)/wavelength + phase) +
/// baseline, down to `bottom` (or the canvas edge), or clipped to a circle (docs/scene-files.md §8).
struct WaveNode: PrimitiveNode {
    static let type = "wave"
    static let keys = ["function", "originX", "wavelength", "amplitude", "phase", "baseline", "bottom", "clip", "color"]
    static let requiredKeys = ["wavelength", "amplitude", "baseline", "color"]

    let info: NodeInfo
    /// `cos`: the phase is a quarter turn later.
    let cosine: Bool
    let originX: SceneSource?
    let wavelength: SceneSource
    let amplitude: SceneSource
    let phase: SceneSource?
    let baseline: SceneSource
    let bottom: SceneSource?
    let clipCenter: SceneDefinition.Point?
    let clipRadius: SceneSource?
    let color: SceneSource

    static func read(_ f: NodeFields, in reader: inout SceneFileReader) throws -> WaveNode {
        let field = f.field
        let function = try reader.string(f["function"], "\(field).function") ?? "sin"
        guard function == "sin" || function == "cos" else {
            throw reader.fail(f["function"]!.value, "invalid \(field).function '\(ThrobberError.echoed(function))' (known: sin, cos)")
        }
        var clipCenter: SceneDefinition.Point?, clipRadius: SceneSource?
        if let clip = f["clip"] {
            let c = try reader.members(clip.value, "\(field).clip", known: ["center", "radius"], required: ["center", "radius"])
            clipCenter = try reader.point(c["center"]!.value, field: "\(field).clip.center", in: f.scope)
            clipRadius = try reader.source(c["radius"]!.value, field: "\(field).clip.radius", type: .number, in: f.scope)
            if f["bottom"] != nil { throw reader.fail(f["bottom"]!, "\(field) has a clip: a clipped wave has no bottom") }
        }
        return WaveNode(info: f.info, cosine: function == "cos", originX: try reader.scalar("originX", f),
                        wavelength: try reader.scalar("wavelength", f)!, amplitude: try reader.scalar("amplitude", f)!,
                        phase: try reader.scalar("phase", f), baseline: try reader.scalar("baseline", f)!,
                        bottom: try reader.scalar("bottom", f), clipCenter: clipCenter, clipRadius: clipRadius, color: try reader.color(f))
    }

    var slotsRead: Set<Int> {
        (clipCenter?.slotsRead ?? []).union(ThrobberSceneFile.slotsRead([info.visible, originX, wavelength, amplitude, phase, baseline,
                                                                         bottom, clipRadius, color]))
    }

    func evaluate(in e: inout FileSceneEvaluator) throws -> (any ScenePrimitive)? {
        guard try e.visible(info) else { return nil }
        let lambda = try e.number(wavelength, "wavelength", info.place)
        guard lambda > 0 else { throw e.failure(info.place, "wavelength", "= \(formatNumber(lambda)): a wavelength is more than 0") }
        var phi = try e.number(phase, "phase", info.place)
        if cosine { phi += Double.pi / 2 }
        var clip: Shape.Circle?
        if let clipCenter {
            let (x, y) = try e.point(clipCenter, "clip.center", info.place)
            clip = Shape.Circle(centerX: x, centerY: y, radius: try e.length(clipRadius, "clip.radius", info.place))
        }
        return Shape(originX: try e.number(originX, "originX", info.place), amplitude: try e.length(amplitude, "amplitude", info.place),
                     wavelength: lambda, phase: phi, baseline: try e.number(baseline, "baseline", info.place),
                     bottom: try bottom.map { try e.number($0, "bottom", info.place) }, clip: clip,
                     color: try e.color(color, "color", info.place))
    }

    /// A sine band in points.
    struct Shape: ScenePrimitive, Equatable {
        var originX: Double, amplitude: Double, wavelength: Double, phase: Double, baseline: Double
        var bottom: Double?
        var clip: Circle?
        var color: RGBA

        /// A circle a wave is clipped to.
        struct Circle: Sendable, Equatable {
            var centerX: Double
            var centerY: Double
            var radius: Double
        }

        func placed(at p: Placement, by evaluator: FileSceneEvaluator, place: String) throws -> Shape {
            let T = p.transform
            try evaluator.requireUpright(T, place, "wave", "a wave band is horizontal, so its groups may not rotate it")
            let origin = T.apply(originX, baseline)
            let placedClip = clip.map { c -> Circle in
                let cc = T.apply(c.centerX, c.centerY)
                return Circle(centerX: cc.x, centerY: cc.y, radius: T.scale * c.radius)
            }
            return Shape(originX: origin.x, amplitude: T.scale * amplitude, wavelength: T.scale * wavelength, phase: phase,
                         baseline: origin.y, bottom: bottom.map { T.apply(0, $0).y }, clip: placedClip, color: p.painted(color))
        }

        func lower(_ placed: PlacedPrimitive, into lowering: inout Lowering) {
            let s = lowering.scale, w = lowering.width, h = lowering.height
            let k = 2 * Double.pi / (wavelength * s)
            let wave = clip.map {
                Wave(originX: originX * s, amplitude: amplitude * s, k: k, phase: phase, baseline: baseline * s,
                     clipCenterX: $0.centerX * s, clipCenterY: $0.centerY * s, clipRadius: $0.radius * s, color: color,
                     width: w, height: h)
            } ?? Wave(originX: originX * s, amplitude: amplitude * s, k: k, phase: phase, baseline: baseline * s,
                      bottom: bottom.map { $0 * s }, color: color, width: w, height: h)
            lowering.append(DrawItem(ItemID(placed.id), wave))
        }
    }
}
