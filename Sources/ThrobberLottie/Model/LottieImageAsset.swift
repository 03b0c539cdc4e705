/// An image asset (`assets[]` with `p`): where its pixels are and the size it is drawn at.
public struct LottieImageAsset: Sendable, Equatable {
    public var id: String
    /// The size it is drawn at, in the layer's units (`w`, `h`).
    public var width: Double
    public var height: Double
    /// `u`: a directory beside the file (or in a dotLottie archive); `p`: a file name or a `data:` URI.
    public var directory: String
    public var name: String
}
