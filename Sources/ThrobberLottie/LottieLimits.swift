import Throbber
/// The bounds a Lottie file or a dotLottie archive is held to before anything it describes is
/// allocated (docs/limits.md "Lottie"): a hostile file of a few kilobytes must not make a run
/// allocate gigabytes, nest without end or loop for hours.
public enum LottieLimits {
    /// The largest Lottie JSON file, and the largest animation inside a dotLottie archive once inflated.
    public static let largestJSON = 8 << 20
    /// The deepest nesting of JSON arrays and objects.
    public static let depth = 64
    /// The most layers in the file, precompositions' layers included.
    public static let layers = 10_000
    /// The most shape items in the file, groups' items included.
    public static let shapes = 100_000
    /// The most keyframes in the file, all properties together.
    public static let keyframes = 200_000
    /// The most vertices one path may have (one keyframe of it).
    public static let vertices = 100_000
    /// The deepest nesting of precomposition layers (a cycle is refused before this is reached).
    public static let precompositionDepth = 16
    /// The deepest chain of parents of one layer.
    public static let parentDepth = 256
    /// The largest image asset once decoded, in pixels (4096 × 4096).
    public static let imagePixels = 1 << 24
    /// The largest dotLottie archive.
    public static let largestArchive = 32 << 20
    /// The most entries a dotLottie archive may list.
    public static let archiveEntries = 4096
    /// The largest ratio of an entry's inflated size to its stored size.
    public static let inflationRatio = 200
    /// The largest image file inside a dotLottie archive (`images/`, `i/`), before it is decoded.
    public static let largestArchiveImage = 16 << 20
    /// The most bytes the entries read from one dotLottie archive may inflate to, all together.
    public static let largestInflatedArchive = 64 << 20
}
