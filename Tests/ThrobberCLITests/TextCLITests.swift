import Foundation
import Testing
import ThrobberPNG
import ThrobberTestSupport

/// Issue 30: text through the command, in child processes: the environment FreeType reads
/// changes nothing, and a machine without HarfBuzz or FreeType loses text only.
struct TextCLITests {
    func pixels(_ directory: URL) throws -> [UInt8] {
        try PNGCodec.decode(Data(contentsOf: directory.appendingPathComponent("wave-ball_00000.png"))).pixels
    }

    @Test func freetypePropertiesInTheEnvironmentChangeNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["render", "wave-ball", "--set", "label=on", "--scale", "2", "--backend", "cpu", "-o"]
        let plain = try runThrobber(arguments + [directory.appendingPathComponent("plain").path])
        #expect(plain.status == 0, "\(plain.stderr)")
        // Stem darkening on for every module that has it, and a lighter darkening curve.
        let darkened = try runThrobber(arguments + [directory.appendingPathComponent("env").path], environment: [
            "FREETYPE_PROPERTIES": "cff:no-stem-darkening=0 type1:no-stem-darkening=0 t1cid:no-stem-darkening=0 "
                + "autofitter:no-stem-darkening=0 cff:darkening-parameters=500,0,1000,500,1500,300,2000,0",
        ])
        #expect(darkened.status == 0, "\(darkened.stderr)")
        let same = try pixels(directory.appendingPathComponent("plain")) == pixels(directory.appendingPathComponent("env"))
        #expect(same, "FREETYPE_PROPERTIES changed the label's pixels")
    }

    @Test func withoutHarfBuzzOrFreeTypeOnlyTextIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for variable in ["THROBBER_HARFBUZZ_LIBRARY", "THROBBER_FREETYPE_LIBRARY"] {
            let environment = [variable: "/nonexistent/libmissing.so.0"]
            let withText = try runThrobber(["render", "wave-ball", "--set", "label=on", "-o", directory.appendingPathComponent("text").path],
                                           environment: environment)
            #expect(withText.status == 69, "\(variable): \(withText.status) \(withText.stderr)")
            #expect(withText.stderr.contains("install the Debian package") && withText.stderr.contains("to draw text"), "\(withText.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("text/wave-ball_00000.png").path))
            let without = try runThrobber(["render", "wave-ball", "-o", directory.appendingPathComponent("plain-\(variable)").path],
                                          environment: environment)
            #expect(without.status == 0, "\(variable): \(without.stderr)")
        }
    }
}
