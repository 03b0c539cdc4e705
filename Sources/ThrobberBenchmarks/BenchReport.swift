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

    public var method: Method
    public var rows: [Row] = []
    public var ceilings: [Ceiling] = []
    public var fits: [Fit] = []
    public var startup: [Startup] = []
    public var budgets: [Budget] = []

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
        lines.append("| scene | px | backend | stage | min ms | median ms | max ms | frames/s | Mpix/s | CPU ms | vs ceiling |")
        lines.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|")
        for r in rows {
            let notes = [r.ratioToCeiling.map { String(format: "%.2f× of %@", $0, r.ceiling!) },
                         r.paintedBands.map { String(format: "%.0f %% of row bands painted", $0 * 100) },
                         r.compressedRows.map { String(format: "%.0f %% of rows compressed", $0 * 100) }]
            let ratio = notes.compactMap { $0 }.joined(separator: "; ")
            lines.append(String(format: "| %@ | %d×%d | %@ | %@ | %.3f | %.3f | %.3f | %.1f | %.1f | %@ | %@ |", r.scene, r.width, r.height,
                                r.backend, r.stage, r.ms.min, r.ms.median, r.ms.max, r.framesPerSecond, r.megapixelsPerSecond,
                                cpu(r.cpuMs), ratio))
        }
        if !ceilings.isEmpty {
            lines.append("")
            lines.append("| ceiling | px | min ms | median ms | max ms | frames/s | CPU ms |")
            lines.append("|---|---|---:|---:|---:|---:|---:|")
            for c in ceilings {
                lines.append(String(format: "| %@ | %d×%d | %.3f | %.3f | %.3f | %.1f | %@ |", c.name, c.width, c.height,
                                    c.ms.min, c.ms.median, c.ms.max, c.framesPerSecond, cpu(c.cpuMs)))
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

    /// An SVG plot of frames/s against pixel count, log–log, one line per backend and stage.
    public var svg: String {
        let series = Dictionary(grouping: rows) { "\($0.backend) \($0.stage)" + (Set(rows.map(\.scene)).count > 1 ? " \($0.scene)" : "") }
        let points = rows.map { (x: log10(Double($0.width * $0.height)), y: log10(max($0.framesPerSecond, 1e-3))) }
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY0 = points.map(\.y).min(), let maxY0 = points.map(\.y).max() else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let minY = floor(minY0), maxY = ceil(max(maxY0, minY0 + 1))
        let (width, height, left, right, top, bottom) = (760.0, 460.0, 70.0, 230.0, 40.0, 50.0)
        let spanX = max(maxX - minX, 0.1)
        func px(_ x: Double) -> Double { left + (x - minX) / spanX * (width - left - right) }
        func py(_ y: Double) -> Double { height - bottom - (y - minY) / (maxY - minY) * (height - top - bottom) }
        let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
        var svg = [String(format: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">", width, height)]
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
        svg.append(String(format: "<text x=\"%.0f\" y=\"22\" font-size=\"14\">throbber bench: frames/s against pixels per frame (log–log), %@</text>", left, escape(method.glRenderer ?? "cpu")))
        var decade = minY
        while decade <= maxY {
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, width - right, py(decade), py(decade)))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%@</text>", left - 6, py(decade) + 4, formatCount(pow(10, decade))))
            decade += 1
        }
        for pixels in Set(rows.map { $0.width * $0.height }).sorted() {
            let x = px(log10(Double(pixels)))
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", x, x, top, height - bottom))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>", x, height - bottom + 16, formatCount(Double(pixels))))
        }
        svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">pixels per frame</text>", (left + width - right) / 2, height - 12))
        svg.append(String(format: "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">frames/s</text>", (top + height - bottom) / 2, (top + height - bottom) / 2))
        for (index, name) in series.keys.sorted().enumerated() {
            let color = palette[index % palette.count]
            let line = series[name]!.sorted { $0.width * $0.height < $1.width * $1.height }
            let path = line.map { String(format: "%.1f,%.1f", px(log10(Double($0.width * $0.height))), py(log10(max($0.framesPerSecond, 1e-3)))) }
            svg.append("<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path.joined(separator: " "))\"/>")
            for point in path {
                let xy = point.split(separator: ",")
                svg.append("<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" fill=\"\(color)\"/>")
            }
            let legendY = top + 10 + Double(index) * 18
            svg.append(String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%@\" stroke-width=\"2\"/>", width - right + 12, width - right + 36, legendY, legendY, color))
            svg.append(String(format: "<text x=\"%.1f\" y=\"%.1f\">%@</text>", width - right + 42, legendY + 4, escape(name)))
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
