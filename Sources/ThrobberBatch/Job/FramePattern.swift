import Foundation
import Throbber

/// An output file name pattern: `{name}`, `{scene}` and `{scale}` placeholders and, for frame
/// sequences, one printf integer directive for the frame number (`%05d`, `%d`), as ffmpeg's
/// image2 muxer reads them. `%%` is a literal percent sign.
public struct FramePattern: Sendable, Equatable, CustomStringConvertible {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case placeholder(String)
        case frame(width: Int, zeroPad: Bool)
    }

    /// The placeholders a pattern may use.
    public static let placeholders = ["name", "scene", "scale"]
    /// The placeholder a sheet's page paths may use besides those: the page's number, from 0.
    /// `path(name:scene:scale:frame:)` leaves it as it is, for `SpriteSheet.pageFiles`.
    public static let pagePlaceholder = "page"

    let pieces: [Piece]
    /// The pattern as written.
    public let description: String

    /// A frame sequence whose every other character is literal: `prefix`, the frame number
    /// zero-padded to `width` digits, `suffix` (`throbber render`'s `DIR/SCENE_00000.png`). No
    /// character of a directory name is read as a directive or placeholder.
    public init(literalPrefix prefix: String, width: Int, suffix: String) {
        pieces = [.literal(prefix), .frame(width: width, zeroPad: true), .literal(suffix)].filter { $0 != .literal("") }
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "%", with: "%%") }
        description = escaped(prefix) + "%0\(width)d" + escaped(suffix)
    }

    /// Parses a pattern.
    ///
    /// - Parameter frameDirective: whether a `%d` directive is required (frame sequences) or
    ///   forbidden (single files).
    /// - Throws: a message (without position) saying what is wrong.
    /// - Parameter pages: whether `{page}` is allowed (a sheet's paths).
    public init(_ text: String, frameDirective required: Bool, pages: Bool = false) throws {
        var pieces: [Piece] = []
        var literal = ""
        var frames = 0
        var index = text.startIndex
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
        }
        while index < text.endIndex {
            let c = text[index]
            if c == "%" {
                let next = text.index(after: index)
                guard next < text.endIndex else { throw PatternError("a lone '%' at the end; write %% for a percent sign") }
                if text[next] == "%" {
                    literal.append("%")
                    index = text.index(after: next)
                    continue
                }
                var cursor = next
                var digits = ""
                while cursor < text.endIndex, text[cursor].isASCII, text[cursor].isNumber {
                    digits.append(text[cursor])
                    cursor = text.index(after: cursor)
                }
                guard cursor < text.endIndex, text[cursor] == "d" else {
                    throw PatternError("'%\(ThrobberError.echoed(digits))' is not a frame number directive; use %d or %05d (or %% for a percent sign)")
                }
                flush()
                // Digits too many for an Int are a width far above 12, not "no width".
                guard let width = digits.isEmpty ? 0 : Int(digits), width <= 12 else {
                    throw PatternError("frame number width \(ThrobberError.echoed(digits)) is above 12")
                }
                pieces.append(.frame(width: width, zeroPad: digits.hasPrefix("0")))
                frames += 1
                index = text.index(after: cursor)
            } else if c == "{" {
                guard let close = text[index...].firstIndex(of: "}") else { throw PatternError("'{' without '}'") }
                let name = String(text[text.index(after: index)..<close])
                let known = FramePattern.placeholders + (pages ? [FramePattern.pagePlaceholder] : [])
                guard known.contains(name) else {
                    var message = "unknown placeholder {\(ThrobberError.echoed(name))}"
                    if let nearest = nearestName(to: name, in: known) { message += "; did you mean {\(nearest)}?" }
                    throw PatternError(message + " (known: \(known.map { "{\($0)}" }.joined(separator: ", ")))")
                }
                flush()
                pieces.append(.placeholder(name))
                index = text.index(after: close)
            } else {
                literal.append(c)
                index = text.index(after: index)
            }
        }
        flush()
        if required && frames != 1 {
            throw PatternError(frames == 0 ? "a frame sequence needs one frame number directive such as %05d"
                                           : "only one frame number directive is allowed, found \(frames)")
        }
        if !required && frames > 0 {
            throw PatternError("a single file takes no frame number directive; remove %d")
        }
        self.pieces = pieces
        description = text
    }

    /// The file name for frame `frame` of a clip.
    public func path(name: String, scene: String, scale: Double, frame: Int = 0) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): result += text
            case .placeholder("name"): result += name
            case .placeholder("scene"): result += scene
            case .placeholder("page"): result += "{page}"
            case .placeholder(_): result += formatNumber(scale)
            case .frame(let width, let zeroPad):
                let digits = String(frame)
                if digits.count < width { result += String(repeating: zeroPad ? "0" : " ", count: width - digits.count) }
                result += digits
            }
        }
        return result
    }
}

/// A malformed pattern; the caller adds where it was.
public struct PatternError: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
