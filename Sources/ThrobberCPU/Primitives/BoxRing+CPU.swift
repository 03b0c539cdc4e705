import Throbber

// The box ring's row (Throbber/DrawList/Primitives/BoxRing.swift). The CPU renderer paints the
// ring's boxes themselves, placed in double precision (`BoxRing.boxes`), one by one with
// `boxCoverage` (Boxes+CPU.swift); GL finds the boxes near a pixel from its angle instead
// (BoxRing+GL.swift, Shaders/Primitives/box-ring.glsl), with no twin here.

extension BoxRing: CPUPrimitive {
    /// The boxes, their bounds and axes: a cosine and a sine per box in double precision and
    /// again in single. A ring that does not change from frame to frame (a tick ring) is
    /// prepared once and kept (`PreparedItems`): at 64×64 px this was a quarter of a frame.
    func prepare(shortcuts: Bool, resources: DrawResources) -> any CPUItem {
        let boxes = boxes()
        return PreparedBoxes(boxes, bounds: boxes.map { $0.bounds(width: width, height: height) })
    }
}
