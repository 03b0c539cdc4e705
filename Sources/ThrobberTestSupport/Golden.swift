import Foundation
import Testing
import Throbber
import ThrobberPNG

/// Compares `image` with the golden PNG `directory/NAME.png`: every channel within `tolerance`
/// 8-bit steps, at most `maxPixels` pixels beyond it (decoded pixels, never PNG bytes).
///
/// In record mode (``RecordMode``) the golden is written at zlib level 9 and the test fails.
///
/// - Parameters:
///   - image: the rendered frame.
///   - name: the golden's file name without `.png`.
///   - directory: the folder of goldens, beside the test file (found through `#filePath`).
public func assertGolden(_ image: Image, named name: String, in directory: URL, tolerance: Int = 1, maxPixels: Int = 0,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = directory.appendingPathComponent("\(name).png")
    if RecordMode.isOn {
        try PNGCodec.encode(image, settings: .init(level: 9)).write(to: url)
        Issue.record(Comment(rawValue: RecordMode.rerecorded(url)), sourceLocation: sourceLocation)
        return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record(Comment(rawValue: RecordMode.missing(url)), sourceLocation: sourceLocation)
        return
    }
    let golden = try PNGCodec.decode(data)
    guard golden.width == image.width, golden.height == image.height else {
        Issue.record("golden \(name) is \(golden.width)×\(golden.height), image is \(image.width)×\(image.height)",
                     sourceLocation: sourceLocation)
        return
    }
    let diff = ImageDiff(expected: golden, observed: image, tolerance: tolerance)
    #expect(diff.pixelsOverTolerance <= maxPixels,
            "golden \(name): \(diff.pixelsOverTolerance) pixels differ by more than \(tolerance); max \(diff.maxChannelDifference)\n\(diff.failureLines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
}
