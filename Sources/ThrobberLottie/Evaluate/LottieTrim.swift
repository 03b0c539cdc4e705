import Throbber

/// Lottie's trim paths on the paths above it (docs/lottie.md "Trim paths"): start and end are
/// fractions (a start after the end is swapped), the offset is in turns and moves both; `m` = 1
/// ("simultaneously") cuts every path by the same fractions of its own length, `m` = 2
/// ("individually") cuts the paths one after another, as one path end to end in their order.
/// Each path's piece is cut by SPEC §9's trim.
enum LottieTrim {
    static func apply(to entries: inout [LottieShapeEvaluator.Entry], start: Double, end: Double, offset: Double, sequentially: Bool) {
        var s = min(max(min(start, end), 0), 1), e = min(max(max(start, end), 0), 1)
        if s == 0 && e == 1 { return }
        if !sequentially {
            for k in entries.indices { entries[k].geometry = PathTrimming.trimmed(entries[k].geometry, PathTrim(start: s, end: e, offset: offset)) }
            return
        }
        guard e > s else {
            for k in entries.indices { entries[k].geometry = PathGeometry() }
            return
        }
        // One after another: the kept span [a, a + (e − s)] of the whole length, wrapping past the end.
        let lengths = entries.map { entry in entry.geometry.subpaths.reduce(0.0) { $0 + PathMeasure.length(PathMeasure.curves($1)) } }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return }
        var a = (s + offset).truncatingRemainder(dividingBy: 1)
        if a < 0 { a += 1 }
        let kept = e - s
        s = a
        var before = 0.0
        for k in entries.indices {
            let length = lengths[k]
            defer { before += length }
            guard length > 0 else { continue }
            let from = before / total, to = (before + length) / total
            // The kept span as up to two intervals of the whole, [s, s + kept] and its part past 1.
            var pieces: [(Double, Double)] = []
            for (lo, hi) in [(s, min(s + kept, 1)), (0, max(s + kept - 1, 0))] where hi > lo {
                let x = max(lo, from), y = min(hi, to)
                if y > x { pieces.append(((x - from) / (to - from), (y - from) / (to - from))) }
            }
            switch pieces.count {
            case 0: entries[k].geometry = PathGeometry()
            case 1:
                entries[k].geometry = PathTrimming.trimmed(entries[k].geometry, PathTrim(start: pieces[0].0, end: pieces[0].1))
            default:
                // The piece that wraps: from the later start through the path's end to the earlier end.
                let (x, y) = pieces[0].0 > pieces[1].0 ? (pieces[0].0, pieces[1].1) : (pieces[1].0, pieces[0].1)
                entries[k].geometry = PathTrimming.trimmed(entries[k].geometry, PathTrim(start: 0, end: 1 - x + y, offset: x))
            }
        }
    }
}

/// A Lottie gradient's flat stops as SPEC §9 stops: colour stops (offset, r, g, b) × `count`,
/// then opacity stops (offset, alpha); each colour and alpha interpolated at every offset of
/// either list, so the straight colour and the alpha are both piecewise linear as the file says.
enum LottieGradientStops {
    static func stops(_ flat: LottieVector, count: Int) -> [GradientStop] {
        let v = flat.values
        var colors: [(Double, [Double])] = []
        for k in 0..<count where 4 * k + 3 < v.count {
            colors.append((v[4 * k], [v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]]))
        }
        guard !colors.isEmpty else { return [] }
        var alphas: [(Double, Double)] = []
        var k = 4 * count
        while k + 1 < v.count {
            alphas.append((v[k], v[k + 1]))
            k += 2
        }
        if alphas.isEmpty {
            // Colour stops alone, as given (two at one offset make a hard edge).
            return colors.map { t, c in
                GradientStop(offset: t, color: RGBA(min(max(c[0], 0), 1), min(max(c[1], 0), 1), min(max(c[2], 0), 1), 1))
            }
        }
        func sample<T>(_ list: [(Double, T)], _ t: Double, _ mix: (T, T, Double) -> T) -> T {
            if t <= list[0].0 { return list[0].1 }
            for j in 1..<list.count where t <= list[j].0 {
                let (t0, a) = list[j - 1], (t1, b) = list[j]
                return t1 > t0 ? mix(a, b, (t - t0) / (t1 - t0)) : b
            }
            return list[list.count - 1].1
        }
        let offsets = Array(Set(colors.map(\.0) + alphas.map(\.0))).sorted()
        return offsets.map { t in
            let c = sample(colors, t) { a, b, f in zip(a, b).map { $0 + ($1 - $0) * f } }
            let alpha = alphas.isEmpty ? 1 : sample(alphas, t) { a, b, f in a + (b - a) * f }
            func unit(_ x: Double) -> Double { min(max(x, 0), 1) }
            return GradientStop(offset: t, color: RGBA(unit(c[0]), unit(c[1]), unit(c[2]), unit(alpha)))
        }
    }
}
