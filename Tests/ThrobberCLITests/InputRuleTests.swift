import Foundation
import Testing
import ThrobberPNG
import ThrobberTestSupport

/// Issue 46, point 1: every file a run reads is opened by one rule. A font path — typed with
/// `--set`, in a job file, or in a PNG's tEXt that `reproduce` reads — that names a FIFO, a
/// device or a directory is refused before it is opened; a missing or unreadable one is exit 66
/// with the system's reason; none of them blocks, reads a stream or costs memory.
@Suite(.serialized)
struct InputRuleTests {
    /// Things at a font path that are not font files, the line each must give, and whether the
    /// system's reason makes it a missing input (66) rather than a wrong kind of file.
    static func hostileFonts(in directory: URL) throws -> [(path: String, words: String, missing: Bool)] {
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let loop = directory.appendingPathComponent("loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let notAFont = directory.appendingPathComponent("words.ttf")
        try Data("not a font at all".utf8).write(to: notAFont)
        return [(fifo, "it is a FIFO or pipe; the font file must be a regular file", false),
                ("/dev/zero", "it is a character device", false),
                ("/dev/urandom", "it is a character device", false),
                (directory.path, "it is a directory", true),
                (directory.appendingPathComponent("missing.ttf").path, "No such file or directory", true),
                (loop, "Too many levels of symbolic links", true),
                ("/proc/self/mem", "Input/output error", true),
                (notAFont.path, "is not a font file", false)]
    }

    func expectRefused(_ result: (status: Int32, stdout: String, stderr: String, peakKiB: Int), _ font: (path: String, words: String, missing: Bool),
                       usage: Int32, _ what: String) {
        #expect(result.status == (font.missing ? 66 : usage), "\(what) \(font.path): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(font.words) && result.stderr.contains("uiFont"), "\(what) \(font.path): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(what): \(result.stderr)")
        // Refused before any font byte is read: the memory of a start-up, far under 64 MB.
        #expect(result.peakKiB < 64 << 10, "\(what) \(font.path): peak \(result.peakKiB) KiB")
    }

    @Test func aFontPathTypedOrInAJobIsOpenedByTheRule() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for font in try InputRuleTests.hostileFonts(in: directory) {
            let out = directory.appendingPathComponent("out")
            let typed = try runThrobberMeasured(["render", "hud", "--set", "status=Hi", "--set", "uiFont=\(font.path)", "-o", out.path],
                                                killAfter: 30)
            expectRefused(typed, font, usage: 64, "--set")
            let job = directory.appendingPathComponent("job.json")
            let escaped = font.path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            try Data(#"{"renders":[{"scene":"hud","parameters":{"status":"Hi","uiFont":"\#(escaped)"},"outputs":[{"type":"png","pattern":"out/%03d.png"}]}]}"#.utf8)
                .write(to: job)
            let batch = try runThrobberMeasured(["batch", job.path, "-q"], killAfter: 30)
            expectRefused(batch, font, usage: 65, "job")
            #expect(batch.stderr.hasPrefix("throbber: \(job.path):1:"), "\(batch.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(font.path): an output was made")
        }
    }

    /// A PNG from elsewhere may name any path in its tEXt: `reproduce` refuses it as the file's
    /// bad data (65), or 66 when it is missing, and never blocks on it.
    @Test func aFontPathInAPNGIsTheFilesData() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let font = directory.appendingPathComponent("Roboto.ttf")
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", toPath: font.path)
        let frames = directory.appendingPathComponent("frames")
        let made = try runThrobber(["render", "hud", "--set", "status=Hi", "--set", "uiFont=\(font.path)", "-o", frames.path, "-q"])
        #expect(made.status == 0, "\(made.stderr)")
        let frame = frames.appendingPathComponent("hud_00000.png")
        let data = try Data(contentsOf: frame)
        let image = try PNGCodec.decode(data), text = try PNGCodec.textChunks(data)
        #expect(text.contains { $0.1.contains(font.path) })
        #expect(try runThrobber(["reproduce", frame.path]).status == 0)
        for hostile in try InputRuleTests.hostileFonts(in: directory) {
            let forged = directory.appendingPathComponent("forged.png")
            try PNGCodec.encode(image, text: text.map { ($0.0, $0.1.replacingOccurrences(of: font.path, with: hostile.path)) }).write(to: forged)
            let result = try runThrobberMeasured(["reproduce", forged.path], killAfter: 30)
            expectRefused(result, hostile, usage: 65, "reproduce")
        }
    }

    /// A scene file a frame names: empty, or with a NUL that would cut the path short, is the
    /// PNG's bad data, never an unknown scene id nor another file.
    @Test func aSceneFileNamedEmptyOrWithANULIsBadData() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scene = directory.appendingPathComponent("ring.scene.json")
        try FileManager.default.copyItem(at: examplesDirectory().appendingPathComponent("scenes/ring.scene.json"), to: scene)
        let frames = directory.appendingPathComponent("frames")
        #expect(try runThrobber(["render", scene.path, "-o", frames.path, "-q"]).status == 0)
        let frame = frames.appendingPathComponent(try #require(try listing(frames).first))
        let data = try Data(contentsOf: frame)
        let image = try PNGCodec.decode(data), text = try PNGCodec.textChunks(data)
        for value in ["", "%00", scene.path + "%00.json"] {
            let forged = directory.appendingPathComponent("forged.png")
            try PNGCodec.encode(image, text: text.map { $0.0 == "Throbber:sceneFile" ? ($0.0, value) : $0 }).write(to: forged)
            let result = try runThrobber(["reproduce", forged.path])
            #expect(result.status == 65, "'\(value)': \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("Throbber:sceneFile") && !result.stderr.contains("unknown scene"), "\(result.stderr)")
        }
        // A raw NUL inside a tEXt text, which PNG does not allow and a C string would cut at.
        var bytes = Array(try PNGCodec.encode(image, text: text.filter { $0.0 != "Throbber:sceneFile" }))
        // After IHDR (8 + 25 bytes), before IDAT: where the reader looks for tEXt.
        let end = 33
        bytes.insert(contentsOf: TestPNG.chunk("tEXt", Array("Throbber:sceneFile".utf8) + [0] + Array(scene.path.utf8) + [0] + Array("x".utf8)), at: end)
        let raw = directory.appendingPathComponent("raw.png")
        try Data(bytes).write(to: raw)
        let result = try runThrobber(["reproduce", raw.path])
        #expect(result.status == 65 && result.stderr.contains("holds a NUL character"), "\(result.status) \(result.stderr)")
    }

    /// A character no font has, in a scene file's text node, is the file's mistake: `scenes`
    /// refuses the file as `render` does, at the node.
    @Test func aGlyphNoFontHasInASceneFileIsRefusedAtItsNode() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try String(contentsOf: examplesDirectory().appendingPathComponent("scenes/done-badge.scene.json"), encoding: .utf8)
        // U+1F600 as a surrogate pair: the JSON reader joins it into one character.
        let edited = source.replacingOccurrences(of: #""text": { "parameter": "status" }"#, with: #""text": "Done \uD83D\uDE00""#)
        #expect(edited != source)
        let scene = directory.appendingPathComponent("emoji.scene.json")
        try Data(edited.utf8).write(to: scene)
        for arguments in [["scenes", scene.path], ["render", scene.path, "-o", directory.appendingPathComponent("out").path]] {
            let result = try runThrobber(arguments)
            #expect(result.status == 65, "\(arguments[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(scene.path):") && result.stderr.contains("text node 'label'")
                    && result.stderr.contains("U+1F600"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
        // A lone surrogate is no character: refused where it stands.
        try Data(source.replacingOccurrences(of: #""default": "Done""#, with: #""default": "Done \uD83D""#).utf8).write(to: scene)
        let lone = try runThrobber(["scenes", scene.path])
        #expect(lone.status == 65 && lone.stderr.contains("high surrogate"), "\(lone.stderr)")
    }

    func examplesDirectory() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples")
    }
}
