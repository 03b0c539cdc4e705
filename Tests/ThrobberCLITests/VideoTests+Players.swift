import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// Videos as players read them (docs/video.md): GIF delays that add up to the clip, a matte for
/// partial alpha, MP4's even sides, and colour tags that match the conversion.
extension VideoTests {
    /// Runs `throbber batch` on a job written into a fresh directory and returns the directory
    /// (removed by the caller) and the result.
    func batch(_ job: String, _ name: String = #function) throws -> (URL, CommandResult) {
        let directory = try temporaryDirectory(name)
        let path = directory.appendingPathComponent("job.json")
        try job.write(to: path, atomically: true, encoding: .utf8)
        return (directory, try runThrobber(["batch", path.path]))
    }

    /// Runs ffmpeg or ffprobe and returns its standard output.
    func tool(_ name: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name, "-v", "error"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CLITestError("\(name) \(arguments) failed (\(process.terminationStatus))") }
        return data
    }

    /// `key=value` pairs of the first video stream, as ffprobe reports them.
    func streamInfo(_ file: URL) throws -> [String: String] {
        let text = String(decoding: try tool("ffprobe", ["-select_streams", "v:0", "-show_entries",
                                                        "stream=width,height,color_range,color_space,color_primaries,color_transfer",
                                                        "-of", "default=nw=1", file.path]), as: UTF8.self)
        var info: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { info[parts[0]] = parts[1] }
        }
        return info
    }

    /// The luma plane of a video's first frame, decoded without any colour conversion.
    func firstLumaPlane(_ file: URL) throws -> [UInt8] {
        [UInt8](try tool("ffmpeg", ["-i", file.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]))
    }

    /// The first frame of a GIF, decoded by ffmpeg to PNG and read back.
    func firstFrame(_ gif: URL) throws -> Image {
        try PNGCodec.decode(try tool("ffmpeg", ["-i", gif.path, "-frames:v", "1", "-f", "image2", "-c:v", "png", "-"]))
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"),
          arguments: [(60.0, nil, "\"duration\": 4", 200), (24.0, nil, "\"duration\": 2", 48), (7.0, nil, "\"frames\": 10", 10),
                      (60.0, 30.0, "\"duration\": 2", 60), (50.0, 24.0, "\"duration\": 1", 24), (30.0, 50.0, "\"duration\": 1", 50)])
    func gifDelaysAddUpToTheClip(fps: Double, own: Double?, length: String, frames: Int) throws {
        let key = own.map { ", \"fps\": \(formatNumber($0))" } ?? ""
        let (directory, result) = try batch("""
            {"renders": [{"scene": "ring", "fps": \(formatNumber(fps)), \(length), "outputs": [{"type": "video", "path": "ring.gif"\(key)}]}]}
            """, "gifDelays\(Int(fps))-\(Int(own ?? 0))")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        let delays = try GIFBlocks.delays(Data(contentsOf: directory.appendingPathComponent("ring.gif")))
        // A clip above 50 fps plays at 50 in a GIF (browsers show delays under 2 cs as 10 cs);
        // its own fps otherwise: frames taken or repeated on the clip's timeline, never retimed.
        let played = own ?? min(fps, 50)
        #expect(delays.count == frames)
        // Frame k lasts round((k+1)·100/fps) − round(k·100/fps) cs: the sum is round(frames·100/fps).
        let t = { (k: Int) in Int((Double(k * 100) / played).rounded()) }
        let expected = (0..<frames).map { t($0 + 1) - t($0) }
        #expect(delays == expected, "first delays \(delays.prefix(6)), last \(delays.suffix(3))")
        #expect(delays.allSatisfy { $0 >= 2 }, "a delay under 2 cs plays as 10 cs in browsers")
        let total = delays.reduce(0, +)
        #expect(total == Int((Double(frames) * 100 / played).rounded()), "total \(total) cs")
        // The run says what the GIF plays at, and why a fast clip's GIF is slower.
        #expect(result.stderr.contains("ring.gif: \(frames) frames at \(formatNumber(played)) fps"), "\(result.stderr)")
        #expect(result.stderr.contains("a GIF plays at most 50 fps") == (own == nil && fps > 50), "\(result.stderr)")
    }

    /// A WebP's frames last the clip exactly (the last delay set, which ffmpeg repeats from the
    /// frame before), its background hint is transparent unless asked, and its loop count is the
    /// output's; a WebM is VP9 with an alpha plane.
    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"),
          arguments: [(60.0, nil, 0, nil), (60.0, 30.0, 3, "#ff000080"), (24.0, nil, 1, nil), (50.0, 7.0, 2, "#00ff00")] as [(Double, Double?, Int, String?)])
    func webpAndWebMPlayAsTheOutputSays(fps: Double, own: Double?, loops: Int, background: String?) throws {
        let keys = (own.map { ", \"fps\": \(formatNumber($0))" } ?? "") + ", \"loopCount\": \(loops)"
            + (background.map { ", \"background\": \"\($0)\"" } ?? "")
        let (directory, result) = try batch("""
            {"renders": [{"scene": "ring", "fps": \(formatNumber(fps)), "duration": 1, "scale": 0.3,
              "outputs": [{"type": "video", "path": "r.webp"\(keys)}, {"type": "video", "path": "r.webm"}]}]}
            """, "webp\(Int(fps))-\(loops)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        let data = [UInt8](try Data(contentsOf: directory.appendingPathComponent("r.webp")))
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reversed().reduce(0) { $0 << 8 | Int(data[at + $1]) } }
        var offset = 12, anim: Int?, durations: [Int] = []
        while offset + 8 <= data.count {
            let tag = String(decoding: data[offset..<offset + 4], as: UTF8.self), size = little(offset + 4, 4)
            if tag == "ANIM" { anim = offset + 8 }
            if tag == "ANMF" { durations.append(little(offset + 8 + 12, 3)) }
            offset += 8 + size + (size & 1)
        }
        let start = try #require(anim)
        let hint = background.map { text -> [UInt8] in
            let color = RGBA.parse(text)!
            return [color.b, color.g, color.r, color.a].map { UInt8(($0 * 255).rounded()) }
        } ?? [0, 0, 0, 0]
        #expect(Array(data[start..<start + 4]) == hint, "background hint")
        #expect(little(start + 4, 2) == loops)
        // 1 s in whole milliseconds, however libwebp merged identical frames.
        #expect(durations.reduce(0, +) == 1000, "\(durations)")
        let info = try String(decoding: tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:stream_tags=alpha_mode",
                                                         "-of", "default=nw=1", directory.appendingPathComponent("r.webm").path]), as: UTF8.self)
        #expect(info.contains("codec_name=vp9") && info.contains("alpha_mode=1"), "\(info)")
    }

    /// `crf` reaches the encoder: a lower CRF is a larger, better MP4 or WebM.
    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"))
    func crfSetsAnMP4sAndAWebMsQuality() throws {
        let (directory, result) = try batch("""
            {"renders": [{"scene": "wave-ball", "frames": 12, "scale": 0.5,
              "outputs": [{"type": "video", "path": "fine.mp4", "crf": 8}, {"type": "video", "path": "coarse.mp4", "crf": 45},
                          {"type": "video", "path": "fine.webm", "crf": 4}, {"type": "video", "path": "coarse.webm", "crf": 60}]}]}
            """, "crf")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        func size(_ name: String) throws -> Int { try Data(contentsOf: directory.appendingPathComponent(name)).count }
        let (fineMP4, coarseMP4, fineWebM, coarseWebM) = (try size("fine.mp4"), try size("coarse.mp4"), try size("fine.webm"), try size("coarse.webm"))
        #expect(fineMP4 > 2 * coarseMP4, "\(fineMP4) against \(coarseMP4)")
        #expect(fineWebM > 2 * coarseWebM, "\(fineWebM) against \(coarseWebM)")
    }

    /// A Y4M without alpha is composited over its matte: the ring's clear corner is the matte's luma.
    @Test func y4mIsCompositedOverItsMatte() throws {
        for (matte, luma) in [("#ffffff", 235), ("#000000", 16)] {
            let (directory, result) = try batch("""
                {"renders": [{"scene": "ring", "frames": 1, "outputs": [{"type": "y4m", "path": "r.y4m", "matte": "\(matte)"}]}]}
                """, "y4mMatte\(luma)")
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(result.status == 0, "\(result.stderr)")
            let data = [UInt8](try Data(contentsOf: directory.appendingPathComponent("r.y4m")))
            let frame = try #require(data.indices.first { data[$0] == 0x0a }).advanced(by: 1) + "FRAME\n".utf8.count
            #expect(Int(data[frame]) == luma, "matte \(matte): Y of the clear corner \(data[frame])")
        }
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"))
    func gifMatteBlendsPartialAlphaAndKeepsTransparency() throws {
        // The activity HUD is (170, 169, 169) at alpha 0.5 (128); its rounded corner leaves (0, 0) clear.
        let (directory, result) = try batch("""
            {"renders": [{"scene": "activity", "parameters": {"size": 40}, "outputs": [
              {"type": "video", "path": "matte.gif", "matte": "#ffffff"}, {"type": "video", "path": "plain.gif"},
              {"type": "video", "path": "array.gif", "matte": [0, 0, 1]}]}]}
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        let matte = try firstFrame(directory.appendingPathComponent("matte.gif"))
        let plain = try firstFrame(directory.appendingPathComponent("plain.gif"))
        let blue = try firstFrame(directory.appendingPathComponent("array.gif"))
        func near(_ pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ rgb: (Int, Int, Int)) -> Bool {
            pixel.a == 255 && abs(Int(pixel.r) - rgb.0) <= 3 && abs(Int(pixel.g) - rgb.1) <= 3 && abs(Int(pixel.b) - rgb.2) <= 3
        }
        // Over white: (c·128 + 255·127) / 255; over blue the red and green halve, blue rises.
        let overWhite = ((170 * 128 + 255 * 127) / 255, (169 * 128 + 255 * 127) / 255, (169 * 128 + 255 * 127) / 255)
        let overBlue = (170 * 128 / 255, 169 * 128 / 255, (169 * 128 + 255 * 127) / 255)
        #expect(near(matte[20, 1], overWhite), "pixel (20, 1): expected \(overWhite), observed \(matte[20, 1])")
        #expect(near(blue[20, 1], overBlue), "pixel (20, 1): expected \(overBlue), observed \(blue[20, 1])")
        #expect(near(plain[20, 1], (170, 169, 169)), "pixel (20, 1) without a matte: observed \(plain[20, 1])")
        for image in [matte, plain, blue] { #expect(image[0, 0].a == 0, "the clear corner stays transparent") }
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"),
          arguments: [("pad", 376, 24), ("crop", 374, 22), ("scale", 376, 24), ("default", 376, 24)])
    func mp4OddSidesFollowTheRule(rule: String, width: Int, height: Int) throws {
        let key = rule == "default" ? "" : ", \"oddSize\": \"\(rule)\""
        let (directory, result) = try batch("""
            {"renders": [{"scene": "double-wave", "name": "strip", "parameters": {"width": 375, "height": 23}, "frames": 2,
              "background": "#ffffff", "outputs": [{"type": "video", "path": "strip.mp4", "matte": "#ff0000"\(key)}]}]}
            """, "oddSize\(rule)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        let info = try streamInfo(directory.appendingPathComponent("strip.mp4"))
        #expect(info["width"] == String(width) && info["height"] == String(height), "\(info)")
        #expect(result.stderr.contains("strip.mp4: 2 frames at 60 fps, 0.033 s; \(width)×\(height): 375×23 frames"), "\(result.stderr)")
        if rule == "pad" || rule == "default" {
            // The new column is the matte: red in BT.709 limited range has Y = 16 + 219 · 0.2126 ≈ 63.
            let luma = try firstLumaPlane(directory.appendingPathComponent("strip.mp4"))
            #expect((60...66).contains(luma[375]), "padded column's Y \(luma[375])")
            #expect(result.stderr.contains("padded with a column at the right and a row at the bottom of #ff0000"), "\(result.stderr)")
        }
    }

    @Test(.enabled(if: VideoTests.hasFFmpeg, "ffmpeg is not installed (scripts/setup --with-ffmpeg installs it)"))
    func mp4AndY4MAreTaggedAsConverted() throws {
        let (directory, result) = try batch("""
            {"renders": [{"scene": "ring", "background": "#ff0000", "frames": 2, "outputs": [
              {"type": "video", "path": "ring.mp4"}, {"type": "y4m", "path": "ring.y4m"}, {"type": "y4m", "path": "alpha.y4m", "alpha": true}]}]}
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0, "\(result.stderr)")
        let mp4 = try streamInfo(directory.appendingPathComponent("ring.mp4"))
        #expect(mp4["color_range"] == "tv" && mp4["color_space"] == "bt709" && mp4["color_primaries"] == "bt709"
                && mp4["color_transfer"] == "bt709", "\(mp4)")
        // The tag must match the matrix: opaque red is Y ≈ 63 in BT.709, 81 in BT.601.
        let luma = try firstLumaPlane(directory.appendingPathComponent("ring.mp4"))
        #expect((60...66).contains(luma[0]), "MP4 corner Y \(luma[0])")
        for name in ["ring.y4m", "alpha.y4m"] {
            let info = try streamInfo(directory.appendingPathComponent(name))
            #expect(info["color_range"] == "tv", "\(name): \(info)")
        }
        // Y4M's own conversion is BT.601 limited: red is 16 + 65.481 ≈ 81.
        let y4m = [UInt8](try Data(contentsOf: directory.appendingPathComponent("ring.y4m")))
        let start = y4m.firstIndex(of: 0x0A)! + 1 + "FRAME\n".utf8.count
        #expect(y4m[start] == 81)
    }

    @Test(arguments: [
        (##""matte": "#12345""##, "invalid matte \"#12345\": an opaque colour: \"#rrggbb\""),
        (##""matte": "#ff000080""##, "invalid matte \"#ff000080\""),
        (##""matte": [1, 0]"##, "invalid matte [1, 0]"),
        (##""matte": 3"##, "\"matte\" must be an opaque colour"),
        (##""oddSize": "squash""##, "unknown oddSize \"squash\""),
    ])
    func badVideoSettingsAreOneLineOfJobData(setting: String, message: String) throws {
        let (directory, result) = try batch("""
            {"renders": [{"scene": "ring", "outputs": [{"type": "video", "path": "ring.mp4", \(setting)}]}]}
            """, "badSetting\(setting.hashValue)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("job.json:1:") && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"])
    }

    @Test(arguments: [
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.gif", "fps": 60}]}"##, "a GIF plays at most 50 fps in browsers"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.mp4", "loopCount": 2}]}"##, "\"loopCount\" applies to .gif, .webp and .apng"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.gif", "matte": "#ffffff", "alphaThreshold": 40}]}"##,
         "\"alphaThreshold\" applies to a .gif without \"matte\""),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.apng", "background": "#ffffff"}]}"##, "\"background\" applies to .webp only"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.gif", "crf": 30}]}"##, "\"crf\" applies to .mp4 and .webm"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.mp4", "crf": 60}]}"##, "invalid crf 60 for"),
        (##"{"scene": "ring", "fps": 30, "outputs": [{"type": "sheet", "path": "s.png", "fps": 60}]}"##, "a sheet's \"fps\" 60 is above the clip's 30"),
        (##"{"scene": "ring", "outputs": [{"type": "y4m", "path": "r.y4m", "alpha": true, "matte": "#ffffff"}]}"##, "\"matte\" applies to a y4m stream without alpha"),
        (##"{"scene": "ring", "outputs": [{"type": "sheet", "path": "s.webp", "maxSize": 16384}]}"##, "a WebP sheet page is at most 16383 px a side"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.webp", "matte": "#000000"}]}"##, "\"matte\" applies to .gif and .mp4"),
        (##"{"scene": "ring", "outputs": [{"type": "video", "path": "r.gif", "oddSize": "crop"}]}"##, "\"oddSize\" applies to .mp4"),
        (##"{"scene": "double-wave", "parameters": {"height": 1}, "outputs": [{"type": "video", "path": "r.mp4", "oddSize": "crop"}]}"##,
         "cannot crop a 375×1 px frame"),
        // Frames ffmpeg would refuse after every one was rendered (16384² MP4: 74 at 3.1 GB before).
        (##"{"scene": "ring", "scale": 4, "parameters": {"hudSize": 4096}, "outputs": [{"type": "video", "path": "r.mp4"}]}"##,
         "frames of 16384×16384 px (canvas × scale) are too large for ffmpeg"),
        (##"{"scene": "ring", "scale": 4, "parameters": {"hudSize": 4096}, "outputs": [{"type": "video", "path": "r.gif"}]}"##,
         "at most 16384×16128 at this width"),
        (##"{"scene": "ring", "scale": 4, "parameters": {"hudSize": 4096}, "outputs": [{"type": "video", "path": "r.webp"}]}"##,
         "WebP (libwebp) takes at most 16383 px a side"),
    ])
    func videoSettingsThatCannotBeMetAreRefusedBeforeRendering(render: String, message: String) throws {
        let (directory, result) = try batch("{\"renders\": [\(render)]}", "cannotMeet\(render.hashValue)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try listing(directory) == ["job.json"])
    }
}

/// The parts of a GIF file needed to read its frame delays: the blocks after the header, each
/// Graphic Control Extension's delay in centiseconds.
enum GIFBlocks {
    static func delays(_ data: Data) throws -> [Int] {
        let bytes = [UInt8](data)
        guard bytes.count > 13, bytes.starts(with: Array("GIF89a".utf8)) else { throw CLITestError("not a GIF89a") }
        var i = 13
        if bytes[10] & 0x80 != 0 { i += 3 << (Int(bytes[10] & 7) + 1) }
        func skipSubBlocks() throws {
            while i < bytes.count && bytes[i] != 0 { i += Int(bytes[i]) + 1 }
            guard i < bytes.count else { throw CLITestError("GIF truncated in a sub-block") }
            i += 1
        }
        var delays: [Int] = []
        while i < bytes.count {
            switch bytes[i] {
            case 0x21:
                guard i + 6 < bytes.count else { throw CLITestError("GIF truncated in an extension") }
                if bytes[i + 1] == 0xF9 { delays.append(Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8) }
                i += 2
                try skipSubBlocks()
            case 0x2C:
                guard i + 10 < bytes.count else { throw CLITestError("GIF truncated in an image descriptor") }
                let flags = bytes[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
                i += 1 // LZW minimum code size
                try skipSubBlocks()
            case 0x3B:
                return delays
            default:
                throw CLITestError("unexpected GIF block 0x\(String(bytes[i], radix: 16)) at \(i)")
            }
        }
        throw CLITestError("GIF without a trailer")
    }
}
