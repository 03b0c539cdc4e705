import Foundation
import Throbber

/// What `auto` writes a clip's frames with: a rule that reads what the frames are
/// (``FrameTraits``: their longer side; how many rows changed from the frame before, how flat,
/// how transparent) and names a short chain of candidate settings, fastest first; then a trial
/// that keeps the first candidate whose bytes on rows sampled from the frame are within
/// ``sampleMargin`` of what libpng writes for them at its own defaults (zlib 6, adaptive row
/// filters), and libpng's defaults themselves when none is.
///
/// The rule is derived, not written by hand: `throbber bench --png-sweep --derive` renders
/// frames of every built-in scene at its defaults and in parameter sets the sampler draws,
/// random paths and every example scene file, at every size; times every candidate setting on
/// them in sequences as clips encode, and on each frame alone as a sheet or a preview is
/// written; and measures their traits. Per range of sides it keeps the chain of settings that
/// would have written those frames fastest, each frame by the first setting in the chain no
/// larger than libpng's defaults for it, split by the trait and threshold that save the most
/// time. It prints the rule as the ``current`` literal; docs/png-encoders.md has the run. No
/// scene's name takes part: a scene file, a Lottie file and a built-in that draw the same frames
/// get the same writer.
public struct AutomaticRule: Sendable, Equatable {
    /// An encoder at a level with a row filter.
    public struct Setting: Sendable, Hashable, CustomStringConvertible {
        public var encoder: String
        public var level: Int
        public var filter: PNGRowFilter

        public init(_ encoder: String, _ level: Int, _ filter: PNGRowFilter = .unfiltered) {
            self.encoder = encoder
            self.level = level
            self.filter = filter
        }

        /// "zlib 4 none", as the sweep prints a setting.
        public var description: String { "\(encoder) \(level) \(filter.rawValue)" }
    }

    /// A trait a step may split on (``FrameTraits/value(of:)``).
    public enum Trait: String, Sendable, CaseIterable {
        /// The fraction of rows that changed from the frame before (1 with no frame before: a
        /// clip's first frame, a sheet page, a preview).
        case changed
        /// The fraction of pixels equal to the one on their left.
        case flat
        /// The fraction of pixels whose alpha is 0.
        case transparent

        /// How a reason names it.
        var phrase: String {
            switch self {
            case .changed: "rows changed"
            case .flat: "flat"
            case .transparent: "transparent"
            }
        }
    }

    /// Frames whose longer side is at most `side` (and above the step before's) are written by
    /// what `node` decides for them.
    public struct Step: Sendable, Equatable {
        public var side: Int
        public var node: Node

        public init(_ side: Int, _ node: Node) {
            self.side = side
            self.node = node
        }
    }

    /// A decision within a step: a chain of candidates, fastest first, or a trait against a
    /// threshold that sends the frame one way below it and the other at or above it.
    public indirect enum Node: Sendable, Equatable {
        case chain([Setting])
        case split(Trait, Double, below: Node, atOrAbove: Node)

        /// The chain for `traits`, and the conditions that led to it, in words.
        func decide(_ traits: FrameTraits, _ conditions: [String] = []) -> ([Setting], [String]) {
            switch self {
            case .chain(let settings):
                return (settings, conditions)
            case .split(let trait, let threshold, let below, let above):
                let value = traits.value(of: trait)
                let high = value >= threshold
                var words = "\(AutomaticRule.percent(value)) \(trait.phrase), \(high ? "at least" : "under") \(AutomaticRule.percent(threshold))"
                if trait == .changed && traits.changed == nil { words += " (no frame before)" }
                return (high ? above : below).decide(traits, conditions + [words])
            }
        }

        /// Every setting the node can name.
        public var settings: [Setting] {
            switch self {
            case .chain(let settings): settings
            case .split(_, _, let below, let above): below.settings + above.settings
            }
        }
    }

    /// The steps, by increasing side; the last covers every larger side too.
    public var steps: [Step]

    public init(steps: [Step]) {
        precondition(!steps.isEmpty, "a rule has at least one step")
        self.steps = steps
    }

    /// libpng at its own defaults (zlib 6, adaptive row filters): the yardstick for file size,
    /// and what `auto` writes with when no candidate is within ``sampleMargin`` of it.
    public static let yardstick = Setting("libpng", 6, .adaptive)

    /// A candidate is kept when its bytes on the sampled rows are at most this share of the
    /// yardstick's, and at least ``sampleMarginBytes`` fewer a frame tried: a margin for the rows
    /// the sample leaves out and the frames after the first.
    public static let sampleMargin = 0.98, sampleMarginBytes = 32

    /// The candidates for frames with `traits`, fastest first, and why, in words: the side, and
    /// each trait the step read against its threshold.
    public func candidates(for traits: FrameTraits) -> (settings: [Setting], conditions: [String]) {
        let step = steps.first { traits.side <= $0.side } ?? steps[steps.count - 1]
        let (settings, conditions) = step.node.decide(traits)
        return (settings, ["\(traits.side) px"] + conditions)
    }

    /// What `auto` chose for a frame, and why, in words for a report line.
    public struct Choice: Sendable, Equatable, CustomStringConvertible {
        public var setting: Setting
        public var reason: String

        /// "zlib 4 none (1024 px; 13 % rows changed, under 40 %; 0.93 of libpng's bytes on 64 sampled rows)".
        public var description: String { "\(setting) (\(reason))" }
    }

    /// The setting for `image` (with `previous`, the frame before it, when there is one): the
    /// first candidate of the rule's chain whose bytes on the image's sampled rows
    /// (``sampledRows(of:)``) are within ``sampleMargin`` of the yardstick's, else the yardstick.
    /// The frame before, when given, is tried too (the bytes of both, summed). A frame at least
    /// ``wholeFrameFlatness`` flat is tried whole: nearly one colour, it compresses to so few
    /// bytes that 64 rows do not tell (drawn sets of one colour, or a thin ring on one, came out
    /// 0.4–5.5 % over libpng's defaults when judged by their rows), and quickly.
    public func choice(for image: Image, previous: Image? = nil) throws -> Choice {
        let traits = FrameTraits(image, previous: previous)
        let (settings, conditions) = candidates(for: traits)
        let whole = traits.flat >= Self.wholeFrameFlatness
        let sample = whole ? image : Self.sampledRows(of: image)
        // The frame before too, where there is one: a clip's frames differ, and a setting that
        // only just fits one of them may not fit the next.
        let samples = [sample] + (previous.map { [whole ? $0 : Self.sampledRows(of: $0)] } ?? [])
        func bytes(_ setting: Setting) throws -> Double {
            Double(try samples.reduce(0) { $0 + (try PNGEncoder(setting).encode($1).count) })
        }
        let limit = try bytes(Self.yardstick)
        // Small files swing by tens of bytes from frame to frame: the margin is at least
        // ``sampleMarginBytes`` a frame tried.
        let fitting = min(limit * Self.sampleMargin, limit - Double(Self.sampleMarginBytes * samples.count))
        var tried: [String] = []
        for setting in settings {
            let size = try bytes(setting)
            let ratio = size / limit
            if size <= fitting {
                let words = String(format: "%.2f of libpng's bytes on %@", ratio, Self.sampleWords(sample, of: image))
                return Choice(setting: setting, reason: (conditions + tried + [words]).joined(separator: "; "))
            }
            tried.append(String(format: "%@ %.2f", setting.description, ratio))
        }
        let words = "no candidate within \(Int((Self.sampleMargin * 100).rounded())) % (and \(Self.sampleMarginBytes) bytes a frame) of libpng's bytes on \(Self.sampleWords(sample, of: image))"
        return Choice(setting: Self.yardstick, reason: (conditions + tried + [words]).joined(separator: "; "))
    }

    /// Rows the trial encodes: the whole image up to ``sampleBlocks`` × ``sampleBlockRows``
    /// rows, else that many blocks of that many consecutive rows, evenly spaced (consecutive, so
    /// a filter that reads the row above and a match into it count as they do in the frame).
    public static func sampledRows(of image: Image) -> Image {
        let rows = sampleBlocks * sampleBlockRows
        guard image.height > rows else { return image }
        let rowBytes = image.width * 4
        var pixels = [UInt8]()
        pixels.reserveCapacity(rows * rowBytes)
        for block in 0..<sampleBlocks {
            let first = (2 * block + 1) * image.height / (2 * sampleBlocks) - sampleBlockRows / 2
            let start = min(max(0, first), image.height - sampleBlockRows) * rowBytes
            pixels += image.pixels[start..<(start + sampleBlockRows * rowBytes)]
        }
        return Image(width: image.width, height: rows, pixels: pixels)
    }

    /// How the reason names what was tried: "64 sampled rows", or "the whole frame".
    static func sampleWords(_ sample: Image, of image: Image) -> String {
        sample.height == image.height && image.height > sampleBlocks * sampleBlockRows ? "the whole frame" : "\(sample.height) sampled rows"
    }


    /// How flat a frame is for the trial to take it whole (``choice(for:previous:)``).
    public static let wholeFrameFlatness = 0.999

    /// The trial's blocks of rows, and the rows in each.
    public static let sampleBlocks = 8, sampleBlockRows = 8

    /// A share as a reason says it: whole percents where that is exact to a tenth, else a decimal
    /// more (99.9 %, not 100 %; 0.25 % below 1 %).
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        if abs(value - value.rounded()) < 0.05 { return "\(Int(value.rounded())) %" }
        return String(format: value >= 1 ? "%.1f %%" : "%.2f %%", value)
    }
}

extension FrameTraits {
    /// The trait's value: ``changed`` is 1 for a frame with no frame before.
    public func value(of trait: AutomaticRule.Trait) -> Double {
        switch trait {
        case .changed: changed ?? 1
        case .flat: flat
        case .transparent: transparent
        }
    }
}
