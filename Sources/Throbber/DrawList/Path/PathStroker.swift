// SCAFFOLD (replaced by the stroker's branch): the API the outline builds on.

/// SPEC §9 "Strokes": the pieces of a stroke, as closed polygons turning the same way.
public enum PathStroker {
    public static func polygons(_ path: PathGeometry, style: StrokeStyle) -> [[PathPoint]] {
        preconditionFailure("stroker not merged yet")
    }
}

/// SPEC §9 "Lengths, dashes and trims": the part of a path a trim keeps.
public enum PathTrimming {
    public static func trimmed(_ path: PathGeometry, _ trim: PathTrim) -> PathGeometry {
        preconditionFailure("trimming not merged yet")
    }
}
