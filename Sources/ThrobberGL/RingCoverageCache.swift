@preconcurrency import CGL
import Throbber

/// Coverage textures of rings of boxes that recur from frame to frame (the wave ball's tick
/// rings, whenever the lit count holds): each evaluated once, by the expression the layers pass
/// would evaluate (`LayerPlan.coverageProgram`), into a single-channel float texture of the
/// frame's size, which later frames read instead (`LayerPlan.drawFromCoverage`).
///
/// A ring gets its texture on its second sighting, so a render of one frame never makes one;
/// at most `maximumBytes` of them are kept, the least recently used going first. The pixels are
/// the same either way, up to the last bit of a coverage.
///
/// Holds its context, so that its textures are deleted while the context lives. Not
/// `Sendable`: used on the context's thread.
final class RingCoverageCache {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    /// The textures by `LayerPlan.coverageKey`, with their size and when each was last used.
    private var textures: [[UInt32]: (texture: GLuint, bytes: Int, used: Int)] = [:]
    /// In how many frames each ring's coverage key was seen; a ring seen twice gets a texture.
    private var sightings: [[UInt32]: Int] = [:]
    private var clock = 0
    private var framebuffer: GLuint = 0

    /// The most bytes of coverage textures kept; past it the least recently used go.
    static let maximumBytes = 64 << 20
    /// The most ring keys whose sightings are counted; past it the count starts again.
    static let maximumSightings = 1024

    init(_ context: GLPlatformContext) {
        self.context = context
        gl = context.gl
    }

    deinit {
        for (texture, _, _) in textures.values { var t = texture; gl.DeleteTextures(1, &t) }
        if framebuffer != 0 { gl.DeleteFramebuffers(1, &framebuffer) }
    }

    /// How many coverage textures are kept.
    var count: Int { textures.count }
    /// The bytes of the coverage textures kept.
    var bytes: Int { textures.values.reduce(0) { $0 + $1.bytes } }

    /// Gives the rings of `plans` that recur — seen in two frames, in this stack or before —
    /// coverage textures, at most `LayersPass.coverageUnits` a stack, and has the plans draw
    /// them from those (`LayerPlan.drawFromCoverage`).
    ///
    /// - Parameter layers: the pass whose programs compute a coverage.
    /// - Returns: the texture of each unit, in order.
    /// - Throws: backend-failure when a coverage pass does not compile or its framebuffer is
    ///   incomplete.
    func use(_ plans: inout [LayerPlan], width: Int, height: Int, layers: LayersPass) throws -> [GLuint] {
        var keys: [[UInt32]] = []
        var frames: [[UInt32]: Int] = [:]
        var found: [(frame: Int, layer: Int, key: [UInt32])] = []
        for (f, plan) in plans.enumerated() {
            for layer in plan.cachableLayers {
                let key = plan.coverageKey(layer, width: width, height: height)
                if frames[key] == nil { keys.append(key) }
                frames[key, default: 0] += 1
                found.append((f, layer, key))
            }
        }
        guard !found.isEmpty else { return [] }
        var units: [[UInt32]: Int] = [:]
        var unitTextures: [GLuint] = []
        for key in keys where unitTextures.count < LayersPass.coverageUnits {
            guard textures[key] != nil || frames[key]! + (sightings[key] ?? 0) >= 2 else { continue }
            let first = found.first { $0.key == key }!
            // The textures this stack already reads stay, whatever else must go.
            guard let texture = try texture(key, plans[first.frame], layer: first.layer, width: width, height: height,
                                            keeping: Set(units.keys), layers: layers) else { continue }
            units[key] = unitTextures.count
            unitTextures.append(texture)
        }
        if sightings.count > RingCoverageCache.maximumSightings { sightings.removeAll() }
        for key in keys { sightings[key, default: 0] += frames[key]! }
        for (f, layer, key) in found {
            if let unit = units[key] { plans[f].drawFromCoverage(layer, unit: unit) }
        }
        return unitTextures
    }

    /// The coverage texture of `plan`'s layer `layer`, computed now unless it is kept, into a
    /// single-channel float texture of the frame's size; nil when it cannot be kept within
    /// `maximumBytes` without dropping one of `keeping`.
    private func texture(_ key: [UInt32], _ plan: LayerPlan, layer: Int, width: Int, height: Int,
                         keeping: Set<[UInt32]>, layers: LayersPass) throws -> GLuint? {
        clock += 1
        if let kept = textures[key] {
            textures[key]!.used = clock
            return kept.texture
        }
        let bytes = width * height * 4
        let held = textures.filter { keeping.contains($0.key) }.values.reduce(0) { $0 + $1.bytes }
        guard held + bytes <= RingCoverageCache.maximumBytes else { return nil }
        var total = self.bytes
        while total + bytes > RingCoverageCache.maximumBytes,
              let oldest = textures.filter({ !keeping.contains($0.key) }).min(by: { $0.value.used < $1.value.used }) {
            var texture = oldest.value.texture
            gl.DeleteTextures(1, &texture)
            textures[oldest.key] = nil
            total -= oldest.value.bytes
        }
        var texture: GLuint = 0
        gl.GenTextures(1, &texture)
        gl.ActiveTexture(GLenum(GL_TEXTURE0))
        gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        gl.TexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R32F, GLsizei(width), GLsizei(height), 0, GLenum(GL_RED), GLenum(GL_FLOAT), nil)
        if framebuffer == 0 { gl.GenFramebuffers(1, &framebuffer) }
        gl.BindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        gl.FramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        do {
            try gl.checkFramebuffer("ring coverage (R32F)")
            let (programKey, code, vectors) = plan.coverageProgram(layer)
            try layers.drawCoverage(programKey, code: code, vectors: vectors, width: width, height: height)
        } catch {
            gl.DeleteTextures(1, &texture)
            throw error
        }
        textures[key] = (texture, bytes, clock)
        return texture
    }
}
