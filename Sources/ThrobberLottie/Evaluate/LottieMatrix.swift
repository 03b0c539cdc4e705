import Foundation
import Throbber

extension PathTransform {
    /// `self` after `inner`: a point goes through `inner` first.
    func concatenating(_ inner: PathTransform) -> PathTransform {
        PathTransform(a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
                      c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
                      tx: a * inner.tx + c * inner.ty + tx, ty: b * inner.tx + d * inner.ty + ty)
    }

    static func translation(_ x: Double, _ y: Double) -> PathTransform { PathTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    static func scaling(_ x: Double, _ y: Double) -> PathTransform { PathTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    /// Clockwise on screen (y down) by `degrees`.
    static func rotation(degrees: Double) -> PathTransform {
        let r = degrees * Double.pi / 180
        return PathTransform(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0)
    }

    /// How much it scales lengths, on average: sqrt(|det|) (a stroke's width, a dash, a radius).
    var lengthScale: Double { abs(determinant).squareRoot() }
}

/// A Lottie transform at one frame as a matrix (docs/lottie.md "Transforms"): a point p of the
/// layer or group goes to position + R(rotation) · K(skew, axis) · S(scale / 100) · (p − anchor),
/// where R turns clockwise on screen and K shears by −tan(skew) along the axis turned by `axis`
/// degrees: K = R(−axis) · [[1, −tan(skew)], [0, 1]] · R(axis).
struct LottieTransformValue {
    var matrix: PathTransform
    /// Opacity, 0…1.
    var opacity: Double

    init(_ t: LottieTransform, at frame: Double, extraRotation: Double = 0) {
        let anchor = t.anchor.value(at: frame)
        let position = t.position(at: frame)
        let scale = t.scale.value(at: frame)
        let sx = scale.values.isEmpty ? 1 : scale[0] / 100, sy = scale.values.count > 1 ? scale[1] / 100 : sx
        var m = PathTransform.translation(-anchor[0], -anchor[1])
        m = PathTransform.scaling(sx, sy).concatenating(m)
        let skew = t.skew.value(at: frame)
        if skew != 0 {
            let axis = t.skewAxis.value(at: frame)
            let shear = PathTransform(a: 1, b: 0, c: -tan(min(max(skew, -85), 85) * Double.pi / 180), d: 1, tx: 0, ty: 0)
            let k = PathTransform.rotation(degrees: -axis).concatenating(shear).concatenating(.rotation(degrees: axis))
            m = k.concatenating(m)
        }
        m = PathTransform.rotation(degrees: t.rotation.value(at: frame) + extraRotation).concatenating(m)
        m = PathTransform.translation(position.x, position.y).concatenating(m)
        matrix = m
        opacity = min(max(t.opacity.value(at: frame) / 100, 0), 1)
    }

    /// A layer's transform at its own `frame`, turned by its direction of travel where it
    /// auto-orients.
    init(_ layer: LottieLayer, at frame: Double) {
        self.init(layer.transform, at: frame, extraRotation: layer.autoOrient ? Self.heading(layer.transform, at: frame) ?? 0 : 0)
    }

    /// The direction a position is moving at `frame`, in degrees (auto-orient), from a
    /// hundredth of a frame either side; nil when it is still.
    static func heading(_ t: LottieTransform, at frame: Double) -> Double? {
        let d = t.position(at: frame + 0.01) - t.position(at: frame - 0.01)
        guard d.length > 1e-9 else { return nil }
        return atan2(d.y, d.x) * 180 / Double.pi
    }
}

extension LottieTransform {
    /// The position at `frame`, whole or from its separated dimensions.
    func position(at frame: Double) -> PathPoint {
        if let p = position {
            let v = p.value(at: frame)
            return PathPoint(v[0], v[1])
        }
        return PathPoint(positionX?.value(at: frame) ?? 0, positionY?.value(at: frame) ?? 0)
    }
}
