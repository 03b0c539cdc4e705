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
    static func finish(_ path: String, lengthMilliseconds: Int, background: RGBA?, loopCount: Int) throws {
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw ThrobberError("cannot reopen the WebP ffmpeg wrote (\(ThrobberError.shownPath(path)))", kind: .io)
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
            throw ThrobberError("ffmpeg wrote no WebP at \(ThrobberError.shownPath(path))", kind: .io)
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
            throw ThrobberError("the WebP ffmpeg wrote at \(ThrobberError.shownPath(path)) is not animated", kind: .io)
        }
        let before = frames.dropLast().reduce(0) { $0 + $1.duration }
        let last = lengthMilliseconds - before
        guard last > 0, last < 1 << 24 else {
            throw ThrobberError("the WebP ffmpeg wrote lasts \(before) ms before its last frame, not less than \(lengthMilliseconds)", kind: .io)
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
}
