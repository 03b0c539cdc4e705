import Throbber

/// A layer of a composition: what it draws, when, where, and through which masks and matte.
public struct LottieLayer: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case shapes([LottieShape])
        /// A rectangle of one colour, `width` × `height` from the layer's origin.
        case solid(color: RGBA, width: Double, height: Double)
        /// Nothing of its own: a parent for others.
        case null
        /// Another composition's layers (an asset's), `width` × `height`, its clock remapped by
        /// `timeRemap` (seconds) when given.
        case precomposition(asset: String, width: Double, height: Double, timeRemap: LottieAnimated<Double>?)
        /// An image asset drawn from the layer's origin at the asset's `w` × `h`.
        case image(asset: String)
    }

    /// How a track matte reads its source.
    public enum MatteMode: Int, Sendable, Equatable {
        case alpha = 1, alphaInverted = 2, luma = 3, lumaInverted = 4
    }

    /// A mask: a path in the layer's space combined by its mode.
    public struct Mask: Sendable, Equatable {
        public enum Mode: String, Sendable, Equatable { case add = "a", subtract = "s", intersect = "i", difference = "f", none = "n" }
        public var mode: Mode
        public var inverted: Bool
        public var path: LottieAnimated<LottieBezier>
        public var opacity: LottieAnimated<Double>
    }

    public var name: String
    /// `ind`: what parents and mattes refer to; nil when the file gives none.
    public var index: Int?
    public var parent: Int?
    public var content: Content
    public var transform: LottieTransform
    public var autoOrient: Bool
    public var hidden: Bool
    public var inPoint: Double
    public var outPoint: Double
    public var startTime: Double
    /// Time stretch (`sr`): the layer's clock runs 1/stretch as fast.
    public var stretch: Double
    public var masks: [Mask]
    /// The matte this layer is drawn through, and the index of its source layer (`tp`, or the
    /// layer just above when only `tt` is given).
    public var matte: (mode: MatteMode, source: Int?)?
    /// Whether this layer is a matte source (`td`): never drawn itself.
    public var isMatteSource: Bool

    public static func == (a: LottieLayer, b: LottieLayer) -> Bool {
        a.name == b.name && a.index == b.index && a.parent == b.parent && a.content == b.content && a.transform == b.transform
            && a.autoOrient == b.autoOrient && a.hidden == b.hidden && a.inPoint == b.inPoint && a.outPoint == b.outPoint
            && a.startTime == b.startTime && a.stretch == b.stretch && a.masks == b.masks && a.matte?.mode == b.matte?.mode
            && a.matte?.source == b.matte?.source && a.isMatteSource == b.isMatteSource
    }
}

/// A named segment of the timeline (`markers`): from frame `time` for `duration` frames.
public struct LottieMarker: Sendable, Equatable, Codable {
    public var name: String
    public var time: Double
    public var duration: Double
}

/// A property a file exposes by slot id (`sid`), which Throbber offers as a parameter.
public struct LottieSlot: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case color, number, vector }
    public var id: String
    public var kind: Kind
    /// The file's value, as a vector (a colour's r, g, b, a in 0…1; a number alone).
    public var value: LottieVector
}

/// A whole Lottie file: its canvas, clock, layers and assets.
public struct LottieAnimation: Sendable, Equatable {
    public var version: String
    public var name: String
    public var width: Double
    public var height: Double
    /// Frames per second.
    public var frameRate: Double
    public var inPoint: Double
    public var outPoint: Double
    public var layers: [LottieLayer]
    /// Precompositions by asset id.
    public var compositions: [String: [LottieLayer]]
    /// Image assets by id.
    public var imageAssets: [String: LottieImageAsset]
    public var markers: [LottieMarker]
    public var slots: [LottieSlot]
    /// The features left out under `--skip-unsupported`, each named once (`layer 'Title': text layer`).
    public var skipped: [String]
}

