import Foundation
import Testing
import Throbber
@testable import ThrobberStudio

/// The copied command reads back, word for word, through a real shell; sliders come from the
/// sampling ranges.
struct StudioCommandLineTests {
    @Test func everyWordReadsBackThroughAShell() throws {
        let words = ["plain", "status=It's \"done\"", "#ff0000", "a b", "", "x=$HOME", "`date`", "ünïcødé…", "back\\slash",
                     "semi;colon", "~user", "*", "new\nline", "color=#ff0000cc", "--set"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "for w in " + words.map(StudioCommandLine.shellQuoted).joined(separator: " ") + "; do printf '%s\\0' \"$w\"; done"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let read = String(decoding: output, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(read == words)
        #expect(StudioCommandLine.shellQuoted("color=#ff0000") == "color=#ff0000")
    }

    @Test func timesAndScalesAreWrittenSoTheyReadBackAsTheSameNumber() {
        for value in [0, 1, 2, 0.1, 1.25, 1.0 / 3, 1e-7, 86_400.5, 99_999.999_999] {
            #expect(Double(formatShortest(value)) == value, "\(value) → \(formatShortest(value))")
        }
        #expect(formatShortest(2) == "2" && formatShortest(0.5) == "0.5")
    }

    @Test func slidersSpanTheSamplingRangeLogarithmicallyWhereItIsSampledSo() throws {
        let waveBall = try #require(SceneRegistry.defaults.first { $0.id == "wave-ball" })
        let parameters = Dictionary(uniqueKeysWithValues: waveBall.studioParameters.map { ($0.schema.name, $0) })
        let size = try #require(parameters["size"]?.slider)
        #expect(size.log && size.min > 0 && size.max > size.min)
        let progress = try #require(parameters["progress"]?.slider)
        #expect(!progress.log && progress.min == 0 && progress.max == 1)
        #expect(parameters["tickCount"]?.slider?.step == 1)
        // Colours, choices and texts have no slider; every number, size and offset of every built-in has one.
        for model in SceneRegistry.defaults {
            for parameter in model.studioParameters {
                let numeric = ["number", "integer", "size", "offset"].contains(parameter.schema.type)
                #expect(numeric == (parameter.slider != nil) || parameter.schema.choices != nil, "\(model.id).\(parameter.schema.name)")
            }
        }
        // The slider sits beside the schema's own members in one object.
        let json = String(decoding: try JSONEncoder().encode(parameters["progress"]!), as: UTF8.self)
        #expect(json.contains("\"slider\":{") && json.contains("\"name\":\"progress\""), "\(json)")
    }
}
