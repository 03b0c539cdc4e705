import Foundation
import Throbber
import ThrobberInput
import ThrobberPNG

/// Image assets' pixels, from a `data:` URI, a dotLottie archive's images, or a file beside the
/// Lottie file read by ThrobberInput's rule; PNG only, its size checked from its header against
/// `LottieLimits.imagePixels` before it is decoded.
enum LottieImages {
    /// Every image asset an image layer draws (in the main composition or a precomposition),
    /// decoded once.
    static func load(_ animation: LottieAnimation, lottiePath: String, archive: DotLottieArchive?) throws -> [String: BitmapPixels] {
        var used: Set<String> = []
        for layer in animation.layers + animation.compositions.values.flatMap({ $0 }) {
            if case .image(let id) = layer.content { used.insert(id) }
        }
        var result: [String: BitmapPixels] = [:]
        for id in used.sorted() {
            guard let asset = animation.imageAssets[id] else { continue }
            result[id] = try load(asset, lottiePath: lottiePath, archive: archive)
        }
        return result
    }

    static func load(_ asset: LottieImageAsset, lottiePath: String, archive: DotLottieArchive?) throws -> BitmapPixels {
        let place = "\(ThrobberError.shownPath(lottiePath)): image asset '\(ThrobberError.echoed(asset.id))'"
        let bytes: [UInt8]
        if asset.name.hasPrefix("data:") {
            guard let comma = asset.name.firstIndex(of: ","), asset.name[..<comma].hasSuffix(";base64"),
                  let data = Data(base64Encoded: String(asset.name[asset.name.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw ThrobberError("\(place): p is a data URI that is not base64: give data:image/png;base64,…", kind: .badData)
            }
            bytes = Array(data)
        } else if let archive {
            let key = (asset.name as NSString).lastPathComponent
            guard let stored = archive.images[key] ?? archive.images[asset.name] else {
                throw ThrobberError("\(place): '\(ThrobberError.echoed(asset.name))' is not among the archive's images", kind: .badData)
            }
            bytes = stored
        } else {
            guard !asset.name.contains("\0"), !asset.directory.contains("\0") else {
                throw ThrobberError("\(place): a path holds no NUL character", kind: .badData)
            }
            let base = URL(fileURLWithPath: lottiePath).deletingLastPathComponent()
            let file = base.appendingPathComponent(asset.directory).appendingPathComponent(asset.name).path
            bytes = try InputRule.read(file, as: InputKind("image", limit: LottieLimits.largestArchiveImage), origin: .file)
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes.prefix(8)) == signature else {
            throw ThrobberError("\(place): only PNG images are read (this one is not a PNG)", kind: .badData)
        }
        let width = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
        let height = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
        guard width > 0, height > 0, width <= LottieLimits.imagePixels, height <= LottieLimits.imagePixels / width else {
            throw ThrobberError("\(place): \(width)×\(height) px is more than the \(LottieLimits.imagePixels) px an image may have", kind: .badData)
        }
        let image: Image
        do {
            image = try PNGCodec.decode(Data(bytes), pixelBudget: LottieLimits.imagePixels)
        } catch let error as ThrobberError {
            throw ThrobberError("\(place): \(error.message)", kind: .badData)
        }
        return padded(image, identity: "\(lottiePath)#\(asset.id)")
    }

    /// The image with a border of one texel repeating its edge: SPEC §11's bilinear colour then
    /// reads inside the image as the players' clamp-to-edge sampling does, and the layer clips it
    /// to the image's rectangle by exact coverage (`LottieEvaluator`), so the edge is the
    /// rectangle's, not a fade across its last texel.
    static func padded(_ image: Image, identity: String) -> BitmapPixels {
        let w = image.width, h = image.height, pw = w + 2
        var out = [UInt8](repeating: 0, count: pw * (h + 2) * 4)
        for y in 0..<(h + 2) {
            let sy = min(max(y - 1, 0), h - 1)
            for x in 0..<pw {
                let sx = min(max(x - 1, 0), w - 1)
                let from = (sy * w + sx) * 4, to = (y * pw + x) * 4
                out[to] = image.pixels[from]
                out[to + 1] = image.pixels[from + 1]
                out[to + 2] = image.pixels[from + 2]
                out[to + 3] = image.pixels[from + 3]
            }
        }
        return BitmapPixels(width: pw, height: h + 2, rgba: out, identity: identity)
    }
}
