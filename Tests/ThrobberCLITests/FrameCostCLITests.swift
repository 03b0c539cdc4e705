import Foundation
import Testing
import ThrobberTestSupport

/// Issue 46.2 and 46.8 as a user meets them: a frame too expensive to draw, whatever its
/// shapes, is refused before anything is written with one line naming what costs and how much
/// (64 from the command line's parameters, 65 from a scene file or a job); nested copies are
/// refused as the file is read; a long preflight says how far it is and stops at a signal;
/// `scenes` lists a file whose loop is longer than a clip.
@Suite(.serialized)
struct FrameCostCLITests {
    /// The issue's reproducers, a few hundred bytes each.
    static let arcs = """
        {"format":"throbber-scene/1","id":"arcs","canvas":{"width":1000,"height":1000},
        "content":[{"type":"replicator","count":10000,"content":[
        {"type":"arc","center":[500,500],"radius":490,"width":4,"sweep":360,"color":[0,0,0,0.01]}]}]}
        """
    static let boxes = """
        {"format":"throbber-scene/1","id":"boxes","canvas":{"width":1000,"height":1000},
        "clocks":[{"name":"spin","duration":1,"repeat":"forever"}],
        "content":[{"type":"replicator","count":10000,"content":[
        {"type":"box","center":[500,500],"size":[300,300],"rotation":"360 * spin.u + i","color":[0.2,0.3,0.9,0.05]}]}]}
        """
    static let nested = """
        {"format":"throbber-scene/1","id":"nested","canvas":{"width":100,"height":100},
        "content":[{"type":"replicator","count":10000,"content":[{"type":"replicator","count":10000,"content":[
        {"type":"disc","center":[50,50],"radius":1,"color":[0,0,0,1]}]}]}]}
        """

    @Test(arguments: [("arcs", arcs, "the 10000 arcs of a frame cover 9721960000 px and cost 9885800000 px with 16384 px a shape for its setup, 9.21 times"),
                      ("boxes", boxes, "the 10000 boxes of a frame cover 1510297716 px and cost 1674137716 px with 16384 px a shape for its setup, 1.56 times")])
    func heavyFramesAreRefusedBeforeAnythingIsWritten(name: String, text: String, expected: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(text.utf8.count < 400)
        try Data(text.utf8).write(to: directory.appendingPathComponent("\(name).scene.json"))
        let render = try runThrobber(["render", "./\(name).scene.json", "-o", "out", "--backend", "cpu"], in: directory)
        #expect(render.status == 65, "\(render.stderr)")
        #expect(render.stderr.hasPrefix("throbber: ./\(name).scene.json: \(expected)"), "\(render.stderr)")
        #expect(render.stderr.contains("1073741824 px") && render.stderr.split(separator: "\n").count == 1, "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
        // From a job: the job's place, exit 65, nothing written.
        try Data(#"{"renders": [{"scene": "\#(name).scene.json", "frames": 3, "outputs": [{"type": "png", "path": "o/f_%05d.png"}]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("job.json"))
        let batch = try runThrobber(["batch", "job.json", "--backend", "cpu"], in: directory)
        #expect(batch.status == 65 && batch.stderr.contains("job.json:1:") && batch.stderr.contains(expected), "\(batch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("o").path))
        // A smaller scale, as the line advises, renders.
        let smaller = try runThrobber(["render", "./\(name).scene.json", "-o", "small", "--backend", "cpu", "--scale", "0.1", "-q"], in: directory)
        #expect(smaller.status == 0, "\(smaller.stderr)")
    }

    /// A built-in's parameters on the command line: exit 64, the parameters named (never an
    /// empty field), the shapes and their pixels.
    @Test func aBuiltInsParametersOverTheBudgetAreUsage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runThrobber(["render", "wave-ball", "--set", "tickCount=10000", "--set", "tickWidth=300", "--set", "tickLength=100",
                                      "--scale", "4", "-o", "out"], in: directory)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("throbber: invalid tickCount 10000, tickLength 100, tickWidth 300 at scale 4: the "), "\(result.stderr)")
        #expect(result.stderr.contains(" boxes and ") && result.stderr.contains("1073741824 px") && !result.stderr.contains("invalid  "))
    }

    @Test func nestedCopiesAreRefusedAsTheFileIsRead() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.nested.utf8).write(to: directory.appendingPathComponent("nested.scene.json"))
        for arguments in [["render", "./nested.scene.json", "-o", "out", "--backend", "cpu"], ["scenes", "./nested.scene.json"]] {
            let result = try runThrobber(arguments, in: directory)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("throbber: ./nested.scene.json:2:41: content[0].count 10000: 10000 copies of 10000 shapes"), "\(result.stderr)")
        }
    }

    /// Issue 46.8: a valid file whose loop is 10⁶ s renders, and `scenes` lists it (exit 0) with
    /// its loop and why no loop of it fits a clip at 60 fps, in text and in JSON.
    @Test(arguments: [1_000_000.0, 200_000.0, 2.5])
    func scenesListsAFileWhoseLoopIsLongerThanAClip(seconds: Double) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            {"format":"throbber-scene/1","id":"long","canvas":{"width":40,"height":40},"loop":{"seconds":\(seconds)},
            "clocks":[{"name":"c","duration":\(seconds),"repeat":"forever"}],
            "content":[{"type":"disc","center":[20,20],"radius":"5 + 10 * c.u","color":[0,0,0,1]}]}
            """
        try Data(text.utf8).write(to: directory.appendingPathComponent("long.scene.json"))
        let listed = try runThrobber(["scenes", "./long.scene.json"], in: directory)
        #expect(listed.status == 0, "\(listed.stderr)")
        let tooLong = seconds * 60 > 10_000_000
        #expect(listed.stdout.contains("loops every \(seconds == 2.5 ? "2.5" : String(Int(seconds))) s"), "\(listed.stdout)")
        #expect(listed.stdout.contains("no loop of it fits a clip at 60 fps") == tooLong, "\(listed.stdout)")
        let json = try runThrobber(["scenes", "./long.scene.json", "--json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let loop = parsed?.first?["loop"] as? [String: Double]
        #expect(loop?["seconds"] == seconds, "\(json.stdout)")
        let render = try runThrobber(["render", "./long.scene.json", "-o", "out", "--backend", "cpu", "-q"], in: directory)
        #expect(render.status == 0, "\(render.stderr)")
    }

    /// A heavy file's preflight past a second prints where it is, and the first SIGINT ends it
    /// within a second (the target; asserted with slack), with nothing written.
    @Test func aLongPreflightReportsAndStopsAtSIGINT() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let discs = (0..<200).map { #"{"type":"disc","center":["i",\#($0 % 50)],"radius":1,"color":[0,0,0,1]}"# }.joined(separator: ",")
        let text = #"{"format":"throbber-scene/1","id":"heavy","canvas":{"width":100,"height":100},"content":[{"type":"replicator","count":300,"content":[\#(discs)]}]}"#
        try Data(text.utf8).write(to: directory.appendingPathComponent("heavy.scene.json"))
        let child = try SpawnedThrobber(["render", directory.appendingPathComponent("heavy.scene.json").path, "--frames", "100000",
                                         "-o", directory.appendingPathComponent("out").path, "--backend", "cpu"], stderrIn: directory)
        #expect(child.waitUntilSignalsAreCaught(), "render never caught SIGINT")
        #expect(child.wait(seconds: 300) { child.stderr.contains("checking the frames of heavy@1x before the first: ") }, "\(child.stderr)")
        let sent = ContinuousClock.now
        child.send(SIGINT)
        let status = child.finish()
        let latency = ContinuousClock.now - sent
        #expect(status == 130, "\(child.stderr)")
        #expect(latency < .milliseconds(1500), "SIGINT obeyed after \(latency)")
        #expect(child.stderr.contains("interrupted by SIGINT"), "\(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }
}
