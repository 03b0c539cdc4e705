import Foundation
import Throbber
import ThrobberPNG
import ThrobberBatch
import ThrobberRender

/// `throbber compare`: two PNGs, decoded pixels (never bytes), under the parity rule of SPEC §0.
enum CompareCommand: Subcommand {
    static var help: String { """
        USAGE: throbber compare EXPECTED.png OBSERVED.png [options]

        Compares decoded pixels (never file bytes): every channel may differ by at most D, except
        that where either image's alpha is ≤ 1 only alpha is compared (such a pixel is invisible,
        and its colour bytes may differ by up to 255 between renderers). Prints the largest
        channel difference, the pixels that differ by more than 1 and by more than D, and the
        PSNR. Exit 0 when at most K pixels differ by more than D, 1
        when more do; images of different sizes are an error (65), and so is a PNG that declares
        more than 33,554,432 pixels (refused from its header) or one that is truncated or corrupt.
        Any PNG decodes to its stored samples (16-bit as round(v / 257), no gamma), band by band.

        PSNR = 10·log10(255² / MSE), MSE the mean squared difference in 8-bit steps over the
        channels compared: R, G, B and alpha of each pixel, or alpha alone where either alpha
        is ≤ 1. Alpha is included; --psnr rgb leaves it out, averaging over R, G and B of the
        pixels whose colour is compared. Identical images have an infinite PSNR ("inf"; null
        in JSON). --json gives both, as psnr and psnrRGB.

        OPTIONS:
        \(OptionSpec.helpTable(DiffOptions.all + [diff, overwrite, psnr, json, OptionSpec.helpFlag]))
        """ }

    struct Report: Codable {
        var expected: String
        var observed: String
        var width: Int
        var height: Int
        var figures: DiffFigures
        var firstFailures: [String]
    }

    static let diff = OptionSpec("--diff", value: "FILE.png", help: "write a heat map of the differences")
    static let overwrite = OptionSpec("--overwrite", help: "replace an existing --diff file (default: refuse, exit 73)")
    /// rgba or rgb, checked as it is read (its message says "rgba or rgb").
    static let psnr = OptionSpec("--psnr", value: "rgba|rgb", default: "rgba", help: """
        which PSNR the line prints: over every compared channel,
        alpha included ({default}, the default), or colour only (rgb)
        """)
    static let json = OptionSpec("--json", help: "print the figures as JSON")

    static let options: [OptionSpec] = DiffOptions.all + [diff, psnr, json, overwrite]

    static func execute(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 2 else {
            throw ThrobberError("compare needs two PNG files, got \(arguments.positionals.count)", kind: .usage)
        }
        let (maxDiff, maxPixels) = try DiffOptions.bounds(arguments)
        let rgbOnly: Bool
        switch arguments.text(Self.psnr) {
        case "rgba": rgbOnly = false
        case "rgb": rgbOnly = true
        case let other: throw ThrobberError.invalid(psnr.canonical, other, allowed: "rgba or rgb")
        }
        let paths = arguments.positionals
        // The heat map must not land on either image it was computed from, nor on a file that
        // exists (without --overwrite): checked before a pixel is decoded.
        var claims = OutputClaims()
        try claims.claimInput(paths[0], role: "the expected image", source: .commandLine)
        try claims.claimInput(paths[1], role: "the observed image", source: .commandLine)
        let heatMapFile = try arguments.value(Self.diff).map {
            try ReportFile($0, role: "the --diff heat map", overwrite: arguments.has(Self.overwrite), claims: &claims)
        }
        // Both headers first: a PNG over the budget (a "PNG bomb") or a size mismatch is refused
        // before a pixel of either file is decoded. Each read is bounded (InputFile.readPNG).
        let readers = try paths.map { path -> PNGCodec.RowReader in
            let data = try InputFile.readPNG(path)
            return try ThrobberError.naming(ThrobberError.shownPath(path)) { try PNGCodec.RowReader(data) }
        }
        let (width, height) = (readers[0].width, readers[0].height)
        guard readers[1].width == width, readers[1].height == height else {
            throw ThrobberError("\(paths[0]) is \(width)×\(height) px but \(paths[1]) is "
                                + "\(readers[1].width)×\(readers[1].height) px; only images of the same size compare",
                                kind: .badData)
        }
        let (diff, heatMap) = try PNGCodec.RowReader.diff(readers[0], readers[1], names: (paths[0], paths[1]), tolerance: maxDiff,
                                                          heatMap: heatMapFile != nil)
        let figures = DiffFigures(diff, maxPixels: maxPixels)
        if let heatMapFile, let heatMap { try heatMapFile.write(try PNGCodec.encode(heatMap)) }
        if arguments.has(Self.json) {
            print(try JSONOutput.text(Report(expected: paths[0], observed: paths[1], width: width,
                                              height: height, figures: figures, firstFailures: diff.failureLines)))
        } else {
            print("\(figures.pass ? "PASS" : "FAIL") \(paths[0]) vs \(paths[1]) (\(width)×\(height)): \(figures.summary(rgbOnly: rgbOnly))")
            for line in diff.failureLines { print("  \(line)") }
        }
        if !figures.pass { exit(ExitCode.mismatch.rawValue) }
    }
}
