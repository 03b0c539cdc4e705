import Foundation
import Testing
import Throbber
import ThrobberPNG
import ThrobberTestSupport

/// Lottie files as a user meets them (docs/lottie.md): recognised by their content whatever
/// their name, rendered at the file's own clock, markers and slots as parameters, and what
/// Throbber does not draw refused in one line (exit 65) unless skipped, each skipped feature
/// named once.
@Suite(.serialized)
struct LottieCLITests {
    static let dot = """
        {"ty":4,"ind":2,"nm":"dot","ip":0,"op":30,"st":0,"ks":{"p":{"a":1,"k":[{"t":0,"s":[20,50]},{"t":30,"s":[80,50]}]}},
         "shapes":[{"ty":"el","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[20,20]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1],"sid":"tint"},"o":{"a":0,"k":100}}]}
        """
    static let title = #"{"ty":5,"ind":1,"nm":"Title","ip":0,"op":30,"st":0,"ks":{},"t":{}}"#

    static func file(_ layers: String) -> String {
        #"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"markers":[{"cm":"half","tm":15,"dr":15}],"layers":["# + layers + "]}"
    }

    @Test func aLottieFileRendersByItsContentAtItsOwnClock() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Named .txt: the content decides.
        try Data(Self.file(Self.dot).utf8).write(to: directory.appendingPathComponent("dot.txt"))
        let render = try runThrobber(["render", "./dot.txt", "--frames", "2", "--fps", "2", "--scale", "2", "--set", "tint=#00ff00",
                                      "-o", "out", "--backend", "cpu", "-q"], in: directory)
        #expect(render.status == 0, "\(render.stderr)")
        let frame = try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("out/dot_00001.png")))
        #expect(frame.width == 200 && frame.height == 200)
        // t = 0.5 s is Lottie frame 15: the dot half way, at x = 50 pt = 100 px, green.
        #expect(frame[100, 100] == (r: 0, g: 255, b: 0, a: 255))
        #expect(frame[40, 100].a == 0)

        let marked = try runThrobber(["render", "./dot.txt", "--marker", "half", "-o", "m", "--backend", "cpu", "-q"], in: directory)
        #expect(marked.status == 0, "\(marked.stderr)")
        // The segment starts at frame 15: the dot at x = 50 pt.
        #expect(try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("m/dot_00000.png")))[50, 50].r == 255)

        let unknown = try runThrobber(["render", "./dot.txt", "--marker", "full", "-o", "u", "--backend", "cpu"], in: directory)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("full") && unknown.stderr.contains("half"), "\(unknown.stderr)")
    }

    @Test func anUnsupportedFeatureIsOneLineExit65OrSkippedAndNamedOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.file(Self.title + "," + Self.dot).utf8).write(to: directory.appendingPathComponent("titled.json"))
        let refused = try runThrobber(["render", "titled.json", "-o", "out", "--backend", "cpu"], in: directory)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("layer 'Title' (1): ty: text layers are not supported"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["titled.json"])

        let skipped = try runThrobber(["render", "titled.json", "--skip-unsupported", "--frames", "2", "-o", "out", "--backend", "cpu", "-q"],
                                      in: directory)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.components(separatedBy: "text layers").count == 2, "\(skipped.stderr)")
    }

    @Test func scenesListsSlotsAndMarkers() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.file(Self.dot).utf8).write(to: directory.appendingPathComponent("dot.json"))
        let scenes = try runThrobber(["scenes", "dot.json", "--json"], in: directory)
        #expect(scenes.status == 0, "\(scenes.stderr)")
        #expect(scenes.stdout.contains("\"tint\"") && scenes.stdout.contains("\"marker\"") && scenes.stdout.contains("half"))
    }
}
