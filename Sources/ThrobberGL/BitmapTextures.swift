@preconcurrency import CGL
import Throbber

/// Where the images (`Bitmap`) a GL renderer holds lie in its one image texture (bitmap.glsl's
/// u_bitmaps): RGBA8, `FrameStack.textureWidth` texels a row, each image's texels in order from
/// the first texel of a row of its own. Pure Swift, so it is tested without a driver
/// (`BitmapTextures` does the GL).
///
/// An image is uploaded once, the first time a stack reads it, and kept: later stacks that read
/// it upload nothing. Images new to the texture are appended while its rows last; past them the
/// texture is made larger (doubling, up to the driver's rows) with every image it held, or, once
/// that is full, made again with only the stack's own images.
struct BitmapPlacement {
    /// What names an image's pixels (`BitmapPixels.identity`, with its size).
    struct Key: Hashable {
        let identity: String
        let width: Int
        let height: Int

        init(_ pixels: BitmapPixels) {
            identity = pixels.identity
            width = pixels.width
            height = pixels.height
        }
    }

    /// What the texture must be told to hold `place`'s images.
    enum Upload {
        /// Nothing: it holds them all.
        case none
        /// These images, each from its first row; the rest stays.
        case append([(pixels: BitmapPixels, row: Int)])
        /// A texture of `rows` rows holding these images, each from its first row.
        case remake(rows: Int, [(pixels: BitmapPixels, row: Int)])
    }

    /// Rows of the texture (0 before the first image).
    private(set) var capacity = 0
    /// Rows holding images (from row 0 on).
    private(set) var used = 0
    /// The images held and their first rows.
    private var held: [Key: (pixels: BitmapPixels, row: Int)] = [:]

    /// How many texture rows `pixels` take: its texels, in whole rows (one at least).
    static func rows(_ pixels: BitmapPixels) -> Int {
        max(1, (pixels.width * pixels.height + FrameStack.textureWidth - 1) / FrameStack.textureWidth)
    }

    /// The first row of each of `bitmaps` (a stack's images, each once), and what to upload for it.
    ///
    /// - Parameters:
    ///   - maxRows: the most rows the texture may have (the driver's `GL_MAX_TEXTURE_SIZE`).
    ///   - renderer: the driver's name, for the message.
    /// - Throws: a usage error when the images together need more than `maxRows` rows.
    mutating func place(_ bitmaps: [BitmapPixels], maxRows: Int, renderer: String) throws -> (rows: [Int], upload: Upload) {
        let missing = bitmaps.filter { held[Key($0)] == nil }
        var upload = Upload.none
        if !missing.isEmpty {
            let wanted = missing.reduce(0) { $0 + BitmapPlacement.rows($1) }
            if used + wanted <= capacity {
                upload = .append(missing.map { (pixels: $0, row: add($0)) })
            } else {
                // Everything held and the new images if they fit the driver's rows, else the stack's own.
                let kept = used + wanted <= maxRows ? held.values.sorted { $0.row < $1.row }.map(\.pixels) + missing : bitmaps
                let total = kept.reduce(0) { $0 + BitmapPlacement.rows($1) }
                guard total <= maxRows else {
                    throw ThrobberError("invalid draw list: its images need \(total * FrameStack.textureWidth) texels; at most "
                                        + "\(maxRows * FrameStack.textureWidth) in a stack on \(renderer) (draw smaller images, or use --backend cpu)",
                                        kind: .usage, field: "draw list")
                }
                var rows = 16
                while rows < total { rows *= 2 }
                capacity = min(rows, maxRows)
                held = [:]
                used = 0
                upload = .remake(rows: capacity, kept.map { (pixels: $0, row: add($0)) })
            }
        }
        return (bitmaps.map { held[Key($0)]!.row }, upload)
    }

    /// Holds `pixels` from the first free row on; returns that row.
    private mutating func add(_ pixels: BitmapPixels) -> Int {
        let row = used
        held[Key(pixels)] = (pixels, row)
        used += BitmapPlacement.rows(pixels)
        return row
    }
}

/// The image texture of a GL renderer's boxes pass (bitmap.glsl's u_bitmaps), filled as
/// `BitmapPlacement` says. Holds its context, so that the texture is deleted while the context
/// lives. Not `Sendable`: used on the context's thread.
final class BitmapTextures {
    private let context: GLPlatformContext
    private let gl: GLFunctions
    let texture: GLuint
    private var placement = BitmapPlacement()
    private let maxRows: Int
    private let renderer: String

    /// - Parameters:
    ///   - maxRows: the most rows a texture may have (`GL_MAX_TEXTURE_SIZE`).
    ///   - renderer: the driver's name, for messages.
    init(_ context: GLPlatformContext, maxRows: Int, renderer: String) {
        self.context = context
        gl = context.gl
        texture = gl.makeDataTextures(1)[0]
        self.maxRows = maxRows
        self.renderer = renderer
    }

    deinit {
        var texture = texture
        gl.DeleteTextures(1, &texture)
    }

    /// Uploads whichever of `bitmaps` the texture does not hold yet; returns each one's first row.
    ///
    /// - Throws: a usage error when the images need more rows than the driver's textures have.
    func place(_ bitmaps: [BitmapPixels]) throws -> [Int] {
        let (rows, change) = try placement.place(bitmaps, maxRows: maxRows, renderer: renderer)
        let parts: [(pixels: BitmapPixels, row: Int)]
        switch change {
        case .none:
            return rows
        case .append(let appended):
            parts = appended
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
        case let .remake(capacity, all):
            parts = all
            gl.BindTexture(GLenum(GL_TEXTURE_2D), texture)
            gl.TexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(FrameStack.textureWidth), GLsizei(capacity), 0, GLenum(GL_RGBA),
                          GLenum(GL_UNSIGNED_BYTE), nil)
        }
        for (pixels, row) in parts { upload(pixels, row: row) }
        return rows
    }

    /// Writes `pixels`' texels in order from the first texel of `row`: its whole rows at once,
    /// then what is left of them as part of one more row.
    private func upload(_ pixels: BitmapPixels, row: Int) {
        let width = FrameStack.textureWidth
        let texels = pixels.width * pixels.height, whole = texels / width, rest = texels % width
        pixels.rgba.withUnsafeBytes { bytes in
            if whole > 0 {
                gl.TexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(row), GLsizei(width), GLsizei(whole), GLenum(GL_RGBA),
                                 GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
            }
            if rest > 0 {
                gl.TexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(row + whole), GLsizei(rest), 1, GLenum(GL_RGBA),
                                 GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress! + whole * width * 4)
            }
        }
    }
}
