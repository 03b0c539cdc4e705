/// The one rule for a canvas a renderer is asked to draw: each side between 1 px and the
/// renderer's largest (`Scene.maximumPixelSide` for the CPU renderer; the driver's limits for GL).
/// Every caller — the GL renderer itself, `throbber render`, the batch pipeline — checks through
/// this, so the rule and its message are written once.
public enum Canvas {
    /// - Throws: a usage error naming the canvas, its size and what `renderer` allows.
    public static func check(width: Int, height: Int, maxSide: Int, renderer: String) throws {
        guard width >= 1, height >= 1, width <= maxSide, height <= maxSide else {
            throw ThrobberError.invalid("canvas", "\(width)×\(height) px", allowed: "each side between 1 and \(maxSide) px on \(renderer)")
        }
    }
}
