import Throbber

// The disc's row (Throbber/DrawList/Primitives/Disc.swift): its coverage, twin of
// Shaders/Primitives/disc.glsl, and how the CPU renderer paints it.

/// SPEC §0 filled circle (`Disc`): circle = (cx, cy, r).
@inline(__always) func discCoverage(_ px: Float, _ py: Float, _ cx: Float, _ cy: Float, _ r: Float) -> Float {
    fillCoverage(circleDistance(px, py, cx, cy, r))
}

extension Disc: CPUPrimitive {
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem { PreparedDisc(disc: self, annulus: annulus) }
}

final class PreparedDisc: AreaItem {
    let disc: Disc
    let annulus: Annulus?
    var bounds: PixelRect { disc.bounds }

    init(disc: Disc, annulus: Annulus?) {
        self.disc = disc
        self.annulus = annulus
    }

    func paint(_ band: Band) {
        let d = disc
        band.shade(d.bounds, annulus, d.color, circle: (d.centerX, d.centerY, d.radius), fullRow: { _ in true }, DiscCoverage(disc: d))
    }

    func paintReference(_ band: Band) {
        let d = disc
        band.shade(d.bounds, annulus, d.color) { _, px, py, _ in
            inside(d.bounds, px, py) ? discCoverage(px, py, d.centerX, d.centerY, d.radius) : 0
        }
    }
}

/// `discCoverage`, skipped where the pixel lies certainly inside the disc.
struct DiscCoverage: PixelCoverage {
    let disc: Disc

    @inline(__always) func at(_ x: Int, _ px: Float, _ py: Float, solid: Bool) -> Float {
        solid ? 1 : discCoverage(px, py, disc.centerX, disc.centerY, disc.radius)
    }
}
