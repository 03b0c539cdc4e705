import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch
import ThrobberTestSupport

/// What each video encoder refuses is refused before the first frame (`VideoSettings.validate`),
/// at the edges measured with ffmpeg itself; and a WebP whose frames are all the same (libwebp
/// writes a still) is made an animation.
struct VideoLimitsTests {
    static let formats = ["gif", "webp", "apng", "mp4", "webm"]

    /// The error `validate` throws for frames of `width` × `height` px written as `format`, if any.
    func refusal(_ format: String, _ width: Int, _ height: Int, settings: VideoSettings = VideoSettings()) -> ThrobberError? {
        do {
            try settings.validate(path: "/out/v.\(format)", width: width, height: height, fps: 30)
            return nil
        } catch {
            return error as? ThrobberError
        }
    }

    /// The tallest frame ffmpeg takes at `width` px: (width + 128) × (height + 128) below 2³¹ / 8.
    static func tallest(width: Int) -> Int { (VideoSettings.ffmpegPaddedPixels - 1) / (width + 128) - 128 }

    @Test(arguments: formats)
    func ffmpegsFrameSizeCheckIsMetAtItsEdge(format: String) throws {
        var random = SystemRandomNumberGenerator()
        // Widths where the edge lies inside the canvas range (16,384 px a side), at random and at the ends.
        let widths = [16_384, 16_256, 16_130] + (0..<20).map { _ in Int.random(in: 16_130...16_384, using: &random) }
        for width in widths where !(format == "webp" && width > VideoSettings.largestWebPSide) {
            // An MP4 pads an odd side: the edge is the padded frame's.
            let w = format == "mp4" ? width & ~1 : width
            let tallest = Self.tallest(width: w)
            #expect(tallest < 16_384)
            let h = format == "mp4" ? tallest & ~1 : tallest
            #expect(refusal(format, w, h) == nil, "\(format) \(w)×\(h) is within ffmpeg's check")
            let error = try #require(refusal(format, w, tallest + 1), "\(format) \(w)×\(tallest + 1) passes ffmpeg's check")
            #expect(error.kind == .usage && error.field == "scale", "\(error)")
            #expect(error.message.contains("\(w)×\(tallest + 1) px") && error.message.contains("\(VideoSettings.ffmpegPaddedPixels)"),
                    "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func anOddMP4SideIsCheckedAsPadded() throws {
        // 16,383 wide pads to 16,384: the padded frame is what x264 and the pad filter get.
        let tallest = Self.tallest(width: 16_384)
        #expect(refusal("mp4", 16_383, tallest) == nil)
        #expect(refusal("mp4", 16_383, tallest + 1) != nil)
        // Cropped, the encoder gets less than ffmpeg reads: the frame as read is what binds.
        let cropped = VideoSettings(oddSize: .crop)
        #expect(refusal("mp4", 16_383, Self.tallest(width: 16_383), settings: cropped) == nil)
        #expect(refusal("mp4", 16_383, Self.tallest(width: 16_383) + 1, settings: cropped) != nil)
    }

    @Test func webPSidesStopAt16383() throws {
        for side in [1, 100, 16_383] { #expect(refusal("webp", side, 64) == nil && refusal("webp", 64, side) == nil) }
        for side in [16_384] {
            for (w, h) in [(side, 64), (64, side)] {
                let error = try #require(refusal("webp", w, h))
                #expect(error.field == "scale" && error.message.contains("at most 16383 px a side"), "\(error.message)")
            }
        }
    }

    @Test func everyCodecTakesTheWholeCanvasSideWhereFfmpegDoes() {
        // The per-codec side limits (x264 and libvpx 16,384, GIF 65,535) are at or above the canvas
        // range; a long thin frame at the canvas limit is written by all but WebP.
        for format in ["gif", "apng", "mp4", "webm"] {
            #expect(refusal(format, Scene.maximumPixelSide, 64) == nil, "\(format)")
            #expect(refusal(format, 64, Scene.maximumPixelSide) == nil, "\(format)")
        }
        #expect(VideoSettings.largestH264Side >= Scene.maximumPixelSide && VideoSettings.largestVP9Side >= Scene.maximumPixelSide)
    }

    @Test func webPDelaysFitTheirTwentyFourBitsAtEveryAllowedRate() {
        // A WebP frame's duration is 24 bits of milliseconds: the slowest rate allowed gives the
        // longest delay, which must fit (so no rate needs refusing for it).
        let slowest = Limits.slowestFPS
        for fps in [slowest, slowest * 1.5, 0.0123, 1, 7.7, 59.94, 1000] {
            let delays = FrameClock.milliseconds(fps: fps).delayRange(frames: 1000)
            #expect(delays.upperBound < 1 << 24, "fps \(fps)")
        }
    }


    @Test(arguments: [(1, 1, 40), (37, 21, 1_000_000), (240, 240, 12_000), (5, 300, 16_777_215)])
    func aStillWebPBecomesAnAnimationOfOneFrame(width: Int, height: Int, length: Int) throws {
        // A still as libwebp writes it: one VP8L image.
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(i % 251); pixels[i + 3] = UInt8((i / 4) % 2 * 255) }
        let still = try WebPImage.encodeLossless(Image(width: width, height: height, pixels: pixels))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("still-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: url) }
        try still.write(to: url)
        #expect(TestScenes.riffChunks([UInt8](still)).map(\.name) == ["VP8L"])
        let background = RGBA(1, 0, 0, 1)
        try WebPAnimation.finish(url.path, lengthMilliseconds: length, background: background, loopCount: 3, width: width, height: height,
                                 shownPath: "/out/v.webp")
        let bytes = [UInt8](try Data(contentsOf: url))
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        #expect(bytes.prefix(4).elementsEqual("RIFF".utf8) && little(4, 4) == bytes.count - 8)
        let list = TestScenes.riffChunks(bytes)
        #expect(list.map(\.name) == ["VP8X", "ANIM", "ANMF"])
        let vp8x = list[0].offset, anim = list[1].offset, anmf = list[2].offset
        #expect(bytes[vp8x] & 0x02 != 0, "animation flag")
        #expect(little(vp8x + 4, 3) == width - 1 && little(vp8x + 7, 3) == height - 1)
        #expect(Array(bytes[anim..<(anim + 6)]) == [0, 0, 255, 255, 3, 0], "background BGRA and loop count")
        #expect(little(anmf + 6, 3) == width - 1 && little(anmf + 9, 3) == height - 1)
        #expect(little(anmf + 12, 3) == length, "the one frame lasts the clip")
        // The image inside is libwebp's, byte for byte.
        #expect(Array(bytes[(anmf + 16)..<(anmf + list[2].size)]) == Array(still[12...]))
    }

    @Test func aFileWithNoImageIsRefusedNamingTheOutput() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("RIFF\u{4}\0\0\0WEBP".utf8).write(to: url)
        #expect(throws: ThrobberError.self) {
            try WebPAnimation.finish(url.path, lengthMilliseconds: 10, background: nil, loopCount: 0, width: 2, height: 2, shownPath: "/out/v.webp")
        }
        do {
            try WebPAnimation.finish(url.path, lengthMilliseconds: 10, background: nil, loopCount: 0, width: 2, height: 2, shownPath: "/out/v.webp")
        } catch let error as ThrobberError {
            #expect(error.message.contains("/out/v.webp") && !error.message.contains(url.path), "\(error.message)")
        }
    }
}
