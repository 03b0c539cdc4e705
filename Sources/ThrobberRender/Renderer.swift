import Throbber
import ThrobberCPU
import ThrobberGL

/// What every renderer does: turn draw lists into images (DESIGN "Data flow": DrawList → renderer
/// → Image). Both backends conform — the CPU reference renderer and the GL renderer — and so does
/// `FrameRenderer`, the one a command opens by backend name.
public protocol Renderer {
    /// What renders, in words (for run lines, reports and metadata).
    var rendererDescription: String { get }
    /// The largest canvas side this renderer draws.
    var maxCanvasSide: Int { get }
    /// Renders one frame.
    func render(_ list: DrawList) throws -> Image
    /// Renders frames in order, as many per draw as the renderer takes.
    func render(_ lists: [DrawList]) throws -> [Image]
    /// How many frames of `width` × `height` px to hand `render(_:)` at once (1 where more gain
    /// nothing).
    func framesPerDraw(width: Int, height: Int) -> Int
}

extension CPURenderer: Renderer {
    public var maxCanvasSide: Int { Scene.maximumPixelSide }
    public func render(_ lists: [DrawList]) -> [Image] { lists.map { render($0) } }
    public func framesPerDraw(width: Int, height: Int) -> Int { 1 }
}

extension GLRenderer: Renderer {
    public var rendererDescription: String { "\(info.renderer) (\(info.version), \(info.platform))" }
    public var maxCanvasSide: Int { info.maxCanvasSide }
}
