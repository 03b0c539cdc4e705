import CWebP
import Foundation
import Throbber

/// A still lossless WebP (a sheet's page), through libwebp.
enum WebPImage {
    /// `image` as a lossless WebP whose every pixel decodes to the same four bytes, transparent
    /// ones included (`exact`: libwebp otherwise rewrites the colour of pixels of alpha 0).
    ///
    /// - Throws: `.io` when libwebp refuses (a side over 16,383 px is refused before this).
    static func encodeLossless(_ image: Image) throws -> Data {
        var config = WebPConfig()
        var picture = WebPPicture()
        guard WebPConfigInit(&config) != 0, WebPPictureInit(&picture) != 0 else {
            throw ThrobberError("libwebp does not match the headers Throbber was built with", kind: .io)
        }
        config.lossless = 1
        config.exact = 1
        config.method = 4
        config.quality = 75
        config.thread_level = 1
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4)) }
        guard imported != 0 else { throw ThrobberError("libwebp could not take a \(image.width)×\(image.height) px page", kind: .io) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        picture.writer = WebPMemoryWrite
        withUnsafeMutablePointer(to: &writer) { picture.custom_ptr = UnsafeMutableRawPointer($0) }
        guard WebPEncode(&config, &picture) != 0 else {
            throw ThrobberError("libwebp failed to encode a \(image.width)×\(image.height) px page (error \(picture.error_code.rawValue))", kind: .io)
        }
        return Data(bytes: writer.mem, count: writer.size)
    }
}

/// Setting what ffmpeg's animated WebP leaves as it is, in the file it wrote: the ANIM chunk's
/// background hint (ffmpeg writes opaque white, which a player may paint behind a transparent
/// animation) and loop count, and the last ANMF frame's duration (ffmpeg repeats the one before,
/// so the loop would be a frame's rounding short).
enum WebPAnimation {
    /// Rewrites the ANIM chunk and the last frame's duration of the WebP at `path` in place, so
    /// that its frames last `lengthMilliseconds` in all.
    ///
    /// - Parameters:
    ///   - background: the hint, nil for transparent black.
    ///   - loopCount: plays, 0 forever (WebP counts plays, as APNG does).
    /// - Throws: `.io` when the file is not the animated WebP ffmpeg writes.
    ///   - width: the frames' width and height, to make an animation of a still WebP (libwebp
    ///     writes one when every frame is the same); nil refuses a still.
    ///   - shownPath: the output the file becomes, for messages (the file is a temporary one).
    static func finish(_ path: String, lengthMilliseconds: Int, background: RGBA?, loopCount: Int, width: Int? = nil, height: Int? = nil,
                       shownPath: String? = nil, stillRewritten: Bool = false) throws {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw ThrobberError("cannot reopen the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath ?? path))", kind: .io)
        }
        defer { try? file.close() }
        func read(_ offset: UInt64, _ count: Int) throws -> [UInt8] {
            try file.seek(toOffset: offset)
            let bytes = [UInt8](try file.read(upToCount: count) ?? Data())
            guard bytes.count == count else { throw ThrobberError("the WebP ffmpeg wrote ends early", kind: .io) }
            return bytes
        }
        func little(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reversed().reduce(0) { $0 << 8 | Int($1) } }
        let header = try read(0, 12)
        guard header[0..<4] == [0x52, 0x49, 0x46, 0x46][...], header[8..<12] == [0x57, 0x45, 0x42, 0x50][...] else {
            throw ThrobberError("ffmpeg wrote no WebP for \(ThrobberError.shownPath(shownPath ?? path))", kind: .io)
        }
        let end = UInt64(8 + little(header[4..<8]))
        var offset: UInt64 = 12
        var anim: UInt64?
        var frames: [(offset: UInt64, duration: Int)] = []
        while offset + 8 <= end {
            let chunk = try read(offset, 8)
            let size = UInt64(little(chunk[4..<8]))
            let payload = offset + 8
            switch String(decoding: chunk[0..<4], as: UTF8.self) {
            case "ANIM": anim = payload
            case "ANMF": frames.append((payload, little(try read(payload + 12, 3)[0..<3])))
            default: break
            }
            offset = payload + size + (size & 1)
        }
        guard let anim, let lastFrame = frames.last else {
            // Every frame the same: libwebp merges them into one and, when their length fits a
            // frame's 24-bit duration, writes a still image. Made an animation of that one frame.
            guard !stillRewritten, let width, let height else {
                throw ThrobberError("the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath ?? path)) is not animated", kind: .io)
            }
            try file.close()
            try animateStill(path, width: width, height: height, shownPath: shownPath ?? path)
            return try finish(path, lengthMilliseconds: lengthMilliseconds, background: background, loopCount: loopCount, width: width,
                              height: height, shownPath: shownPath, stillRewritten: true)
        }
        let before = frames.dropLast().reduce(0) { $0 + $1.duration }
        let last = lengthMilliseconds - before
        guard last > 0, last < 1 << 24 else {
            throw ThrobberError("the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath ?? path)) lasts \(before) ms before its last frame, "
                                + "not less than \(lengthMilliseconds)", kind: .io)
        }
        // Background: Blue, Green, Red, Alpha bytes; then the loop count, 16 bits little-endian.
        func byte(_ c: Double) -> UInt8 { UInt8((c * 255).rounded()) }
        var bytes: [UInt8] = [0, 0, 0, 0]
        if let background { bytes = [byte(background.b), byte(background.g), byte(background.r), byte(background.a)] }
        bytes.append(UInt8(loopCount & 0xff))
        bytes.append(UInt8(loopCount >> 8))
        try file.seek(toOffset: anim)
        try file.write(contentsOf: Data(bytes))
        let duration: [UInt8] = [UInt8(last & 0xff), UInt8((last >> 8) & 0xff), UInt8(last >> 16)]
        try file.seek(toOffset: lastFrame.offset + 12)
        try file.write(contentsOf: Data(duration))
    }

    /// Rewrites the still WebP at `path` (a `VP8L` or `VP8` image, with its `VP8X` and `ALPH`
    /// chunks if any) as an animation of one frame: `VP8X` with the animation flag, `ANIM`, and
    /// one `ANMF` holding the image's chunks (its duration and the `ANIM` fields are set by
    /// `finish`).
    ///
    /// - Throws: `.io` when the file holds no image.
    static func animateStill(_ path: String, width: Int, height: Int, shownPath: String) throws {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else {
            throw ThrobberError("cannot reopen the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath))", kind: .io)
        }
        let bytes = [UInt8](data)
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func field(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xff) } }
        var image: [UInt8] = []
        var alpha = false
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = little(offset + 4, 4)
            let end = min(bytes.count, offset + 8 + size + (size & 1))
            switch String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) {
            case "ALPH", "VP8 ":
                alpha = alpha || bytes[offset..<(offset + 4)].elementsEqual("ALPH".utf8)
                image += bytes[offset..<end]
            case "VP8L":
                // The alpha_is_used bit of the VP8L header (after the signature byte and 28 bits of size).
                alpha = alpha || (offset + 12 < bytes.count && bytes[offset + 12] & 0x10 != 0)
                image += bytes[offset..<end]
            default: break
            }
            offset = end
        }
        guard !image.isEmpty else {
            throw ThrobberError("the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath)) holds no image", kind: .io)
        }
        // VP8X: animation (0x02) and alpha (0x10) flags, three reserved bytes, canvas size − 1.
        let vp8x: [UInt8] = Array("VP8X".utf8) + field(10, 4) + [0x02 | (alpha ? 0x10 : 0), 0, 0, 0] + field(width - 1, 3) + field(height - 1, 3)
        let anim: [UInt8] = Array("ANIM".utf8) + field(6, 4) + [0, 0, 0, 0, 0, 0]
        // ANMF: origin 0, 0; frame size − 1; duration (set by `finish`); no blending, no disposal.
        let frame: [UInt8] = field(0, 3) + field(0, 3) + field(width - 1, 3) + field(height - 1, 3) + field(1, 3) + [0x02] + image
        let anmf: [UInt8] = Array("ANMF".utf8) + field(frame.count, 4) + frame + (frame.count & 1 == 1 ? [0] : [])
        let body = Array("WEBP".utf8) + vp8x + anim + anmf
        let file = Array("RIFF".utf8) + field(body.count, 4) + body
        guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
            throw ThrobberError("cannot rewrite the WebP ffmpeg wrote for \(ThrobberError.shownPath(shownPath))", kind: .io)
        }
    }
}
