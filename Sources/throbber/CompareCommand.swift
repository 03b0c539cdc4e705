import Foundation
import Throbber
import ThrobberPNG

/// `throbber compare`: two PNGs, decoded pixels (never bytes), under the parity rule of SPEC §0.
enum CompareCommand: Subcommand {
    static let help = """
        USAGE: throbber compare EXPECTED.png OBSERVED.png [options]

        Compares decoded pixels (never file bytes): every channel may differ by at most D, except
        that where either image's alpha is ≤ 1 only alpha is compared (such a pixel is invisible,
        and its colour bytes may differ by up to 255 between renderers). Prints the largest
        channel difference, the pixels that differ by more than 1 and by more than D, and the
        PSNR over the compared channels. Exit 0 when at most K pixels differ by more than D, 1
        when more do; images of different sizes are an error (65).

        OPTIONS:
          --max-diff D           allowed difference per channel in 8-bit steps (default 2)
          --max-pixels K         pixels allowed beyond D (default 0)
          --diff FILE.png        write a heat map of the differences
          --json                 print the figures as JSON
          -h, --help             show this help
        """

    struct Report: Codable {
        var expected: String
        var observed: String
        var width: Int
        var height: Int
        var figures: DiffFigures
        var firstFailures: [String]
    }

    static let options: [OptionSpec] = DiffOptions.specs + [
            OptionSpec("--diff"), OptionSpec("--json", value: false),
        ]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 2 else {
            throw ThrobberError("compare needs two PNG files, got \(arguments.positionals.count)", exitCode: .usage)
        }
        let (maxDiff, maxPixels) = try DiffOptions.bounds(arguments)
        let paths = arguments.positionals
        let images = try paths.map { path -> Image in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ThrobberError("cannot read \(path)", exitCode: .noInput)
            }
            do {
                return try PNGCodec.decode(data)
            } catch let error as ThrobberError {
                throw ThrobberError("\(path): \(error.message)", exitCode: error.exitCode)
            }
        }
        guard images[0].width == images[1].width, images[0].height == images[1].height else {
            throw ThrobberError("\(paths[0]) is \(images[0].width)×\(images[0].height) px but \(paths[1]) is "
                                + "\(images[1].width)×\(images[1].height) px; only images of the same size compare",
                                exitCode: .dataError)
        }
        let diff = ImageDiff(expected: images[0], observed: images[1], tolerance: maxDiff)
        let figures = DiffFigures(diff, maxPixels: maxPixels)
        if let heatMapPath = arguments.value("--diff") {
            let url = URL(fileURLWithPath: heatMapPath)
            try AtomicFile.prepareDirectory(url.deletingLastPathComponent())
            try AtomicFile.write(try PNGCodec.encode(ImageDiff.heatMap(expected: images[0], observed: images[1], tolerance: maxDiff)),
                                 to: url, overwrite: true)
        }
        if arguments.has("--json") {
            print(try DiffOptions.json(Report(expected: paths[0], observed: paths[1], width: images[0].width,
                                              height: images[0].height, figures: figures, firstFailures: diff.failureLines)))
        } else {
            print("\(figures.pass ? "PASS" : "FAIL") \(paths[0]) vs \(paths[1]) (\(images[0].width)×\(images[0].height)): \(figures.summary)")
            for line in diff.failureLines { print("  \(line)") }
        }
        if !figures.pass { exit(ExitCode.mismatch.rawValue) }
    }
}
