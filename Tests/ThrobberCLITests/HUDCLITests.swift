import Foundation
import Testing
import ThrobberTestSupport

/// The hud's bad input as a user meets it: one line naming the parameter, the value and what is
/// allowed, exit 64 on the command line and 65 in a job file, and nothing written.
@Suite(.serialized)
struct HUDCLITests {
    static let cases: [(settings: [String], message: String)] = [
        (["state=spin"], "invalid state 'spin': one of ring, progress, success, error, info, text"),
        (["status=" + String(repeating: "a\n", count: 16) + "a"], "at most 16 lines"),
        (["showAt=1", "dismissAt=1.1"], "invalid dismissAt '1.1': at least showAt + fadeIn = 1.15 s"),
        (["dismissAt=auto"], "invalid dismissAt 'auto': only with showAt"),
        (["fadeIn=-0.1"], "invalid fadeIn '-0.1'"),
        (["fadeOut=-1"], "invalid fadeOut '-1'"),
        (["screen=40x40", "status=Loading"], "invalid screen '40x40': at least the HUD's"),
        (["maskColor=#ff000080"], "invalid maskColor"),
        (["offset=0,-40"], "invalid offset '0,-40'"),
        (["screen=390x844", "margin=4"], "invalid margin '4'"),
    ]

    @Test(arguments: cases)
    func badHUDParametersAreOneLineAndWriteNothing(settings: [String], message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let render = try runThrobber(["render", "hud", "-o", "out", "--backend", "cpu"] + settings.flatMap { ["--set", $0] }, in: directory)
        #expect(render.status == 64 && render.stderr.contains(message), "\(render.stderr)")
        #expect(render.stderr.split(separator: "\n").count == 1, "\(render.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        // The same in a job file: exit 65, FILE:LINE:COLUMN, nothing but the job there.
        let parameters = settings.map { setting -> String in
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            let value = String(data: try! JSONSerialization.data(withJSONObject: parts[1], options: .fragmentsAllowed), encoding: .utf8)!
            return "\"\(parts[0])\": \(value)"
        }.joined(separator: ", ")
        try Data(#"{"renders": [{"scene": "hud", "parameters": {\#(parameters)}, "outputs": [{"type": "video", "path": "h.gif"}]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("job.json"))
        let batch = try runThrobber(["batch", "job.json", "--backend", "cpu"], in: directory)
        #expect(batch.status == 65 && batch.stderr.contains("job.json:1:") && batch.stderr.contains(message), "\(batch.stderr)")
        #expect(batch.stderr.split(separator: "\n").count == 1, "\(batch.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["job.json"])
    }
}
