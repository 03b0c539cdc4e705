import Foundation

/// SPEC §9 "Lengths, dashes and trims": the part of a path a trim keeps.
///
/// With a = start + offset and b = end + offset taken modulo 1, the part between lengths L·a and
/// L·b of the whole path (all subpaths in order, L their total length on the §9 flattening),
/// wrapping through the end back to the start when b < a. end − start ≥ 1 keeps the path as it
/// is; end ≤ start keeps nothing. Kept parts are open subpaths cut exactly at the curve
/// parameters of their lengths; an empty part is dropped, a zero-length subpath inside the kept
/// range stays (a dot), a closed subpath kept whole stays closed, and where the kept part of a
/// closed subpath runs through its start point it stays one open piece, joined there.
public enum PathTrimming {
    /// The part of `path` (px) that `trim` keeps.
    public static func trimmed(_ path: PathGeometry, _ trim: PathTrim) -> PathGeometry {
        guard trim.start.isFinite, trim.end.isFinite, trim.offset.isFinite else { return path }
        if trim.keepsEverything { return path }
        guard trim.end > trim.start else { return PathGeometry() }
        func wrapped(_ x: Double) -> Double {
            let r = x - x.rounded(.down)
            return r >= 1 ? 0 : r
        }
        let a = wrapped(trim.start + trim.offset), b = wrapped(trim.end + trim.offset)
        let curves = path.subpaths.map(PathMeasure.curves)
        let lengths = curves.map(PathMeasure.length)
        let total = lengths.reduce(0, +)
        // The kept ranges of the whole length, in order.
        let ranges: [(Double, Double)] = b < a ? [(0, b * total), (a * total, total)] : [(a * total, b * total)]
        var result = PathGeometry()
        var before = 0.0
        for (k, subpath) in path.subpaths.enumerated() {
            let length = lengths[k]
            defer { before += length }
            guard !curves[k].isEmpty else {
                // A zero-length subpath stays where the kept range holds its position; a lone
                // move draws nothing anyway.
                let dot = subpath.closed || !subpath.segments.isEmpty
                if dot && ranges.contains(where: { $0.0 <= before && before <= $0.1 }) { result.subpaths.append(subpath) }
                continue
            }
            // The kept ranges in this subpath's own lengths, in order, empty ones dropped.
            let local = ranges.compactMap { range -> (Double, Double)? in
                let from = max(range.0 - before, 0), to = min(range.1 - before, length)
                return to > from ? (from, to) : nil
            }
            if local.count == 1 && local[0].0 <= 0 && local[0].1 >= length {
                result.subpaths.append(subpath)
                continue
            }
            var pieces = local.map { range in piece(curves[k], from: range.0, to: range.1) }
            // A closed subpath kept through its start point: the part up to its end, then on
            // from its start, one piece.
            if subpath.closed, local.count == 2, local[0].0 <= 0, local[1].1 >= length {
                pieces = [pieces[1] + pieces[0]]
            }
            for piece in pieces where !piece.isEmpty {
                result.subpaths.append(PathMeasure.subpath(piece))
            }
        }
        return result
    }

    /// The curves between lengths `from` and `to` of `curves`.
    static func piece(_ curves: [PathCurve], from: Double, to: Double) -> [PathCurve] {
        let locations = PathMeasure.locate([from, to], in: curves)
        return PathMeasure.piece(curves, from: locations[0], to: locations[1])
    }
}
