/// What the driver says about itself, for reports (`GL_VENDOR`, `GL_RENDERER`, `GL_VERSION`) and
/// the limits a canvas must respect.
public struct GLInfo: Sendable, Equatable, Codable {
    /// Where the context came from: OSMesa, an EGL device, EGL surfaceless.
    public var platform: String
    public var vendor: String
    public var renderer: String
    public var version: String
    /// The largest side of a renderbuffer or texture, and of the viewport: the largest canvas.
    public var maxCanvasSide: Int
}
