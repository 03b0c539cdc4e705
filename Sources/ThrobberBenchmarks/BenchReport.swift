import Foundation

/// Everything one `throbber bench` run measured, as written to `--json`.
public struct BenchReport: Codable {
    /// How the figures were taken.
    public struct Method: Codable {
        var commit: String
        var date: String
        var cpu: String
        /// The CPUs the run could use (`UsableCPUs`: affinity mask, cgroup quota), not the machine's.
        var cores: Int
        var glVendor: String?
        var glRenderer: String?
        var glVersion: String?
        var lpNumThreads: String
        var configuration: String
        var frames: Int
        var repeats: Int
        var warmup: Int
        var pngLevel: Int
        /// The PNG encoder (absent in reports from before there was a choice: libpng).
        var pngEncoder: String? = nil
    }

    /// One stage of one scene × size × backend.
    public struct Row: Codable {
        var scene: String
        var size: Int
        var width: Int
        var height: Int
        var megapixels: Double
        var backend: String
        var stage: String
        /// Milliseconds per frame.
        var ms: Summary
        var framesPerSecond: Double
        var megapixelsPerSecond: Double
        /// The ceiling this stage is compared with, if any.
        var ceiling: String?
        /// This stage's frames/s over the ceiling's.
        var ratioToCeiling: Double?
        /// CPU time of the whole process per frame while the stage ran (user + system, every
        /// thread), in ms.
        var cpuMs: Double?
        /// With the CPU renderer: the share of its row bands it painted; the others were kept
        /// from earlier frames, which drew them from the same things (`reusesUnchangedRows`).
        var paintedBands: Double?
        /// With a PNG encoder: the share of rows it compressed; the others were the same as in the
        /// frame it encoded before, whose compressed bytes it took (`PNGSequence`). Absent in
        /// reports written before it existed.
        var compressedRows: Double? = nil
        /// With a PNG encoder: the setting that wrote the files ("zlib 4 none"), and, when `auto`
        /// chose it, why (what it read from the frames). Absent in reports written before `auto`
        /// chose from frames.
        var pngSetting: String? = nil
        var pngReason: String? = nil
        /// Checksum of what the stage produced, so the work cannot be optimised away.
        var checksum: UInt64
        /// The median of each sample set (`--repeat`), in ms per frame: the run's own noise,
        /// which `--baseline` goes by. Absent in reports written before it existed.
        var repeatMedians: [Double]? = nil
    }

    /// A limit measured in the same run.
    public struct Ceiling: Codable {
        var name: String
        var size: Int
        var width: Int
        var height: Int
        var ms: Summary
        var framesPerSecond: Double
        /// CPU time per frame (user + system, every thread), in ms, where measured.
        var cpuMs: Double?
    }

    /// The pipeline's CPU budget per frame: what each part costs alone, the best ratio to the
    /// encode ceiling those costs allow, and the ratio measured.
    public struct Budget: Codable {
        var scene: String
        var size: Int
        var width: Int
        var height: Int
        var backend: String
        /// The ceiling's CPU time per frame (libpng on every core).
        var encodeCpuMs: Double
        /// The backend's frame stage (render + readback), with the CPU renderer on as many
        /// threads as the pipeline gives it.
        var renderCpuMs: Double
        /// SHA-256 of the PNG file, for the manifest.
        var hashCpuMs: Double
        /// Writing the PNG to a new file (unnamed, then linked).
        var writeCpuMs: Double
        /// encode / (encode + render + hash + write).
        var bound: Double
        var measured: Double
        /// The pipeline's own CPU time per frame.
        var pipelineCpuMs: Double
    }

    /// ms/frame = overhead + cost·Mpix for one backend and stage, over the sizes measured.
    public struct Fit: Codable {
        var backend: String
        var stage: String
        var overheadMs: Double
        var msPerMegapixel: Double
        var r2: Double
    }

    /// Start-up paid once: a whole job of F frames, context creation and shader compilation included.
    public struct Startup: Codable {
        var backend: String
        var scene: String
        var size: Int
        var framesPerJob: Int
        var totalMs: Double
        var msPerFrame: Double
    }

    /// What one case's scene did with its path outlines (`PathOutlineCache`), from reading the
    /// file (validation draws frame 0 once) to the last frame's draw list: outlines flattened
    /// (and stroked) from their curves, kept from an earlier frame as they were, or kept and moved
    /// (a path that only moves or changes colour is not flattened again), and what the draw lists
    /// cost, outlines included. Only for cases whose scene draws paths.
    public struct PathOutlines: Codable {
        var scene: String
        var size: Int
        var frames: Int
        var built: Int
        var kept: Int
        var moved: Int
        /// The first frame's draw list, ms: its outlines are built.
        var firstListMs: Double
        /// The median of the later frames' draw lists, ms; absent with one frame.
        var laterListMs: Double?
        /// Building all of frame 0's outlines from their curves (flattening, stroking, dashes and
        /// trims), ms, median of 5: what each frame would cost on top of its render without the cache.
        var frameOutlinesMs: Double
    }

    public var method: Method
    public var rows: [Row] = []
    public var ceilings: [Ceiling] = []
    public var fits: [Fit] = []
    public var startup: [Startup] = []
    public var budgets: [Budget] = []
    /// Absent when no scene measured draws paths (and in reports from before paths).
    public var pathOutlines: [PathOutlines]? = nil

    /// The report as Markdown tables.
    public var markdown: String {
        var lines: [String] = []
        lines.append("## throbber bench")
        lines.append("")
        lines.append("commit \(method.commit), \(method.configuration) build, \(method.cpu) (\(method.cores) cores), "
            + "GL_RENDERER \(method.glRenderer ?? "n/a"), GL_VERSION \(method.glVersion ?? "n/a"), "
            + "LP_NUM_THREADS \(method.lpNumThreads), \(method.frames) frames × \(method.repeats) repeats after \(method.warmup) warm-up, "
            + "PNG \(method.pngEncoder ?? "libpng") level \(method.pngLevel), \(method.date)")
        lines.append("")
        func cpu(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "" }
        lines.append("| scene | px | backend | stage | min ms | median ms | max ms | frames/s | Mpix/s | ns/px | CPU ms | vs ceiling |")
        lines.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in rows {
            let notes = [r.ratioToCeiling.map { String(format: "%.2f× of %@", $0, r.ceiling!) },
                         r.paintedBands.map { String(format: "%.0f %% of row bands painted", $0 * 100) },
                         r.compressedRows.map { String(format: "%.0f %% of rows compressed", $0 * 100) },
                         r.pngSetting.map { setting in "PNG " + (r.pngReason.map { "auto: \(setting) (\($0))" } ?? setting) }]
            let ratio = notes.compactMap { $0 }.joined(separator: "; ")
            lines.append(String(format: "| %@ | %d×%d | %@ | %@ | %.3f | %.3f | %.3f | %.1f | %.1f | %.2f | %@ | %@ |", r.scene, r.width, r.height,
                                r.backend, r.stage, r.ms.min, r.ms.median, r.ms.max, r.framesPerSecond, r.megapixelsPerSecond,
                                Self.nanosecondsPerPixel(r.ms.median, r.width, r.height), cpu(r.cpuMs), ratio))
        }
        if !ceilings.isEmpty {
            lines.append("")
            lines.append("| ceiling | px | min ms | median ms | max ms | frames/s | ns/px | CPU ms |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
            for c in ceilings {
                lines.append(String(format: "| %@ | %d×%d | %.3f | %.3f | %.3f | %.1f | %.2f | %@ |", c.name, c.width, c.height,
                                    c.ms.min, c.ms.median, c.ms.max, c.framesPerSecond, Self.nanosecondsPerPixel(c.ms.median, c.width, c.height),
                                    cpu(c.cpuMs)))
            }
        }
        if !budgets.isEmpty {
            lines.append("")
            lines.append("Pipeline budget, CPU ms per frame (CPU ms: user + system time of every thread per frame). "
                + "bound = encode / (encode + frame + SHA-256 + write): the best ratio to the ceiling these costs allow. "
                + "The CPU renderer's frame is timed on the threads the pipeline gives it (one per eight encoders, at least one).")
            lines.append("")
            lines.append("| scene | px | backend | encode (ceiling) | frame | SHA-256 | write | bound | measured | pipeline CPU ms |")
            lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
            for b in budgets {
                lines.append(String(format: "| %@ | %d×%d | %@ | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.3f |", b.scene, b.width, b.height,
                                    b.backend, b.encodeCpuMs, b.renderCpuMs, b.hashCpuMs, b.writeCpuMs, b.bound, b.measured, b.pipelineCpuMs))
            }
        }
        if !fits.isEmpty {
            lines.append("")
            lines.append("| backend | stage | overhead ms/frame | ms per Mpix | R² |")
            lines.append("|---|---|---:|---:|---:|")
            for f in fits {
                lines.append(String(format: "| %@ | %@ | %.4f | %.3f | %.4f |", f.backend, f.stage, f.overheadMs, f.msPerMegapixel, f.r2))
            }
        }
        if let pathOutlines, !pathOutlines.isEmpty {
            lines.append("")
            lines.append("Path outlines, from reading the scene (validation draws frame 0) to the last draw list (not timed above): "
                + "built = flattened (and stroked) from the curves; kept = an earlier frame's, unchanged; moved = an earlier "
                + "frame's, moved (the path only moved or changed colour).")
            lines.append("")
            lines.append("| scene | px | frames | built | kept | moved | first list ms | later lists ms (median) | a frame's outlines built, ms |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            for p in pathOutlines {
                lines.append(String(format: "| %@ | %d | %d | %d | %d | %d | %.3f | %@ | %.3f |", p.scene, p.size, p.frames, p.built, p.kept, p.moved,
                                    p.firstListMs, p.laterListMs.map { String(format: "%.3f", $0) } ?? "", p.frameOutlinesMs))
            }
        }
        if !startup.isEmpty {
            lines.append("")
            lines.append("| backend | scene | px | frames per job | total ms | ms/frame |")
            lines.append("|---|---|---:|---:|---:|---:|")
            for s in startup {
                lines.append(String(format: "| %@ | %@ | %d | %d | %.2f | %.3f |", s.backend, s.scene, s.size, s.framesPerJob, s.totalMs, s.msPerFrame))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Per-pixel cost: nanoseconds of wall time per pixel of a frame, from ms per frame.
    static func nanosecondsPerPixel(_ ms: Double, _ width: Int, _ height: Int) -> Double {
        ms * 1e6 / Double(max(1, width * height))
    }

    /// An SVG plot of per-pixel cost (ns per pixel of a frame) against pixels per frame, log–log:
    /// one solid line per backend and stage, one dashed per ceiling. A flat line scales with the
    /// pixels; one that climbs loses speed as frames grow.
    public var svg: String {
        struct Point { var pixels: Int; var cost: Double }
        let scenes = Set(rows.map(\.scene)).count > 1
        var series: [(name: String, dashed: Bool, points: [Point])] = []
        for (name, group) in Dictionary(grouping: rows, by: { "\($0.backend) \($0.stage)" + (scenes ? " \($0.scene)" : "") }) {
            series.append((name, false, group.map { Point(pixels: $0.width * $0.height, cost: Self.nanosecondsPerPixel($0.ms.median, $0.width, $0.height)) }))
        }
        for (name, group) in Dictionary(grouping: ceilings.filter { $0.name != "memcpy" && !$0.name.hasPrefix("gl clear") }, by: \.name) {
            // A ceiling per case: with several scenes, the mean cost at each size.
            let bySize = Dictionary(grouping: group) { $0.width * $0.height }
            series.append(("ceiling: " + name, true, bySize.map { pixels, entries in
                Point(pixels: pixels, cost: entries.map { Self.nanosecondsPerPixel($0.ms.median, $0.width, $0.height) }.reduce(0, +) / Double(entries.count))
            }))
        }
        series.sort { ($0.dashed ? 1 : 0, $0.name) < ($1.dashed ? 1 : 0, $1.name) }
        let all = series.flatMap(\.points)
        guard let minX = all.map({ log10(Double($0.pixels)) }).min(), let maxX = all.map({ log10(Double($0.pixels)) }).max(),
              let minY0 = all.map({ log10(max($0.cost, 1e-3)) }).min(), let maxY0 = all.map({ log10(max($0.cost, 1e-3)) }).max()
        else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let minY = floor(minY0), maxY = ceil(max(maxY0, minY0 + 1))
        let (width, height, left, right, top, bottom) = (860.0, 500.0, 70.0, 330.0, 40.0, 50.0)
        let spanX = max(maxX - minX, 0.1)
        func px(_ pixels: Int) -> Double { left + (log10(Double(pixels)) - minX) / spanX * (width - left - right) }
        func py(_ cost: Double) -> Double { height - bottom - (log10(max(cost, 1e-3)) - minY) / (maxY - minY) * (height - top - bottom) }
        let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
        var svg = [String(format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">", width, height)]
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
        svg.append(String(format: "<text x=\"%.0f\" y=\"22\" font-size=\"14\">throbber bench: ns per pixel against pixels per frame (log–log; dashed: ceilings), %@</text>",
                          left, escape(method.glRenderer ?? "cpu")))
        var decade = minY
        while decade <= maxY {
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, width - right, py(pow(10, decade)), py(pow(10, decade))))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%@</text>", left - 6, py(pow(10, decade)) + 4, formatCount(pow(10, decade))))
            decade += 1
        }
        for pixels in Set(all.map(\.pixels)).sorted() {
            let x = px(pixels)
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", x, x, top, height - bottom))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>", x, height - bottom + 16, formatCount(Double(pixels))))
        }
        svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">pixels per frame</text>", (left + width - right) / 2, height - 12))
        svg.append(String(format: "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">ns per pixel</text>", (top + height - bottom) / 2, (top + height - bottom) / 2))
        for (index, line) in series.enumerated() {
            let color = palette[index % palette.count]
            let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
            let path = line.points.sorted { $0.pixels < $1.pixels }.map { String(format: "%.1f,%.1f", px($0.pixels), py($0.cost)) }
            svg.append("<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash) points=\"\(path.joined(separator: " "))\"/>")
            for point in path {
                let xy = point.split(separator: ",")
                svg.append("<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" fill=\"\(color)\"/>")
            }
            let legendY = top + 10 + Double(index) * 18
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"2\"%@/>", width - right + 12, width - right + 36, legendY, legendY, color, dash))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\">%@</text>", width - right + 42, legendY + 4, escape(line.name)))
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private func formatCount(_ value: Double) -> String {
        if value >= 1e6 { return String(format: "%.3gM", value / 1e6) }
        if value >= 1e3 { return String(format: "%.3gk", value / 1e3) }
        return String(format: "%.3g", value)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
