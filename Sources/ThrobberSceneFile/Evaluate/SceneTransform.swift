import Foundation
import Throbber

/// A similarity transform in points: p′ = offset + scale·R(rotation)·p, with R turning clockwise
/// on screen (y down), as a group's and a replicator copy's `transform` compose
/// (docs/scene-files.md §9.1).
///
/// It is applied analytically to each primitive's parameters, so no matrix ever reaches a
/// renderer and both renderers keep their formulas. Composition is in double.
public struct SceneTransform: Sendable, Equatable {
    /// The uniform scale factor.
    public var scale: Double
    /// The rotation in radians, clockwise on screen.
    public var rotation: Double
    /// Where the origin goes, in points.
    public var offsetX: Double
    public var offsetY: Double

    /// The identity.
    public static let identity = SceneTransform(scale: 1, rotation: 0, offsetX: 0, offsetY: 0)

    public init(scale: Double, rotation: Double, offsetX: Double, offsetY: Double) {
        self.scale = scale
        self.rotation = rotation
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// A group's or a copy's transform: anchor + translate + scale·R(rotate)·(p − anchor).
    ///
    /// - Parameters:
    ///   - rotation: radians, clockwise on screen.
    public init(translate: (Double, Double), rotation: Double, scale: Double, anchor: (Double, Double)) {
        let (c, s) = rotation == 0 ? (1.0, 0.0) : (cos(rotation), sin(rotation))
        self.scale = scale
        self.rotation = rotation
        // offset = anchor + translate − scale·R·anchor
        offsetX = anchor.0 + translate.0 - scale * (c * anchor.0 - s * anchor.1)
        offsetY = anchor.1 + translate.1 - scale * (s * anchor.0 + c * anchor.1)
    }

    /// Where the point (x, y) goes.
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        if rotation == 0 { return (offsetX + scale * x, offsetY + scale * y) }
        let c = cos(rotation), s = sin(rotation)
        return (offsetX + scale * (c * x - s * y), offsetY + scale * (s * x + c * y))
    }

    /// `self` after `inner`: the transform of a child (`inner`) inside this one.
    public func then(_ inner: SceneTransform) -> SceneTransform {
        let origin = apply(inner.offsetX, inner.offsetY)
        return SceneTransform(scale: scale * inner.scale, rotation: rotation + inner.rotation, offsetX: origin.x, offsetY: origin.y)
    }
}
