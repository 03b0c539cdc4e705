public extension Glyphs {
    /// The glyphs' outlines on the canvas, as one path to fill by the nonzero rule.
    ///
    /// Each quad's outline (its atlas's `outline(atlasX:atlasY:)`) moved to the quad's pixel, in
    /// text order: a fill of it in the glyphs' colour is what the quads paint from the atlas's
    /// bytes, within rounding (SPEC §6 "Outlines"). For a writer of vector files (Lottie), whose
    /// players cannot draw an atlas.
    ///
    /// - Parameter resources: the draw list's resources, which hold the quads' atlas.
    /// - Returns: the outlines in canvas px, y down; nil when `resources` lacks the atlas at the
    ///   quads' revision, or the atlas lacks the outline of a quad (an atlas made without them).
    func outlines(in resources: DrawResources) -> PathGeometry? {
        guard let atlas = resources.atlases[atlas], atlas.revision == atlasRevision else { return nil }
        var placed = PathGeometry()
        for quad in quads {
            guard let outline = atlas.outline(atlasX: quad.atlasX, atlasY: quad.atlasY) else { return nil }
            placed.subpaths += outline.translated(x: Double(quad.x), y: Double(quad.y)).subpaths
        }
        return placed
    }
}
