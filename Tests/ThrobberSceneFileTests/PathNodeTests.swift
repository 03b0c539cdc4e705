import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// Issue 48.2: the scene file's `path` node — its keys and defaults as read, its numbers as
/// expressions and tracks, every refusal at its place in the file, its items (fill, then stroke)
/// placed by groups and replicators, and its outline kept while it only moves.
struct PathNodeTests {
    static let path = "p.scene.json"

    /// A file whose content is `node`, alone on line 4 from column 1.
    static func text(_ node: String) -> String {
        """
        {"format": "throbber-scene/1", "id": "p", "canvas": {"width": 100, "height": 100},
         "clocks": [{"name": "spin", "duration": 2, "repeat": "forever"}],
         "content": [
        \(node)
        ]}
        """
    }

    static func scene(_ node: String) throws -> FileScene { try FileScene(text: text(node), path: path) }

    /// The path shapes of the frame at `t`, placed.
    static func shapes(_ scene: FileScene, at t: Double = 0) throws -> [PathNode.Shape] {
        try scene.evaluate(at: t).compactMap { $0.primitive as? PathNode.Shape }
    }

    static func items(_ scene: FileScene, at t: Double = 0, scale: Double = 1) -> [DrawItem] {
        scene.drawItems(for: scene.frameState(at: t), scale: scale, width: 100, height: 100)
    }

    /// The message reading `node` fails with.
    static func failure(_ node: String) -> String {
        do {
            _ = try scene(node)
            return "read"
        } catch let error as ThrobberError {
            return error.kind == .badData ? error.message : "not bad data: \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    /// `p.scene.json:4:C:` with C the column of `mark`'s first character in `node`.
    static func at(_ node: String, _ mark: String) -> String {
        let column = node.unicodeScalars.count - node[node.range(of: mark)!.lowerBound...].unicodeScalars.count + 1
        return "\(path):4:\(column):"
    }

    static let square = #""d": "M 10 10 H 30 V 30 H 10 Z""#

    @Test func defaultsAreSVGs() throws {
        let shape = try #require(try Self.shapes(try Self.scene(##"{"type": "path", \##(Self.square)}"##)).first)
        #expect(shape.fill == .solid(RGBA(0, 0, 0, 1)))
        #expect(shape.stroke == nil && shape.trim == nil && shape.opacity == 1 && shape.rule == .nonzero)
        #expect(shape.curves.segments == 3 && shape.curves.subpaths == 1 && shape.curves.geometry.subpaths[0].closed)
    }

    @Test func everyFieldIsRead() throws {
        let node = ##"""
            {"type": "path", "id": "leaf", "d": "M 0 0 C 10 0 10 10 0 10 Z", "fillRule": "evenodd",
             "fill": {"radial": {"center": [5, 5], "radius": 8, "highlight": 0.5, "angle": 90, "stops": [[0, "#ff0000"], [1, [0, 0, 1, 0.5]]]}},
             "stroke": {"paint": {"linear": {"from": [0, 0], "to": [10, 0], "stops": [[0.25, "#00ff00"]]}}, "width": 2, "join": "round",
                        "miterLimit": 6, "cap": "square", "dash": [3, 1, 2], "dashOffset": 1.5},
             "trim": {"start": 0.25, "end": 0.75, "offset": 0.1}, "opacity": 0.5}
            """##.replacingOccurrences(of: "\n", with: " ")
        let shape = try #require(try Self.shapes(try Self.scene(node)).first)
        #expect(shape.rule == .evenodd && shape.opacity == 0.5)
        #expect(shape.fill == .radial(center: PathPoint(5, 5), radius: 8, highlight: 0.5, angle: 90,
                                      stops: [.init(offset: 0, color: RGBA(1, 0, 0, 1)), .init(offset: 1, color: RGBA(0, 0, 1, 0.5))]))
        #expect(shape.stroke == PathNode.Shape.Stroke(paint: .linear(from: PathPoint(0, 0), to: PathPoint(10, 0), stops: [.init(offset: 0.25, color: RGBA(0, 1, 0, 1))]),
                                                      width: 2, join: .round, miterLimit: 6, cap: .square, dash: [3, 1, 2], dashOffset: 1.5))
        #expect(shape.trim == PathTrim(start: 0.25, end: 0.75, offset: 0.1))
        // "none" paints nothing: a node with neither paint draws no shape.
        #expect(try Self.shapes(try Self.scene(##"{"type": "path", \##(Self.square), "fill": "none"}"##)).isEmpty)
        let stroked = try #require(try Self.shapes(try Self.scene(##"{"type": "path", \##(Self.square), "fill": "none", "stroke": {}}"##)).first)
        #expect(stroked.fill == nil && stroked.stroke == PathNode.Shape.Stroke(paint: .solid(RGBA(0, 0, 0, 1)), width: 1, join: .miter, miterLimit: 4,
                                                                               cap: .butt, dash: [], dashOffset: 0))
    }

    /// Numbers and colours are expressions and tracks: a trim and a dash offset that spin.
    @Test func numbersAnimate() throws {
        let node = ##"""
            {"type": "path", \##(Self.square), "fill": "rgba(spin.u, spin.u, spin.u, 1)",
             "stroke": {"width": "1 + spin.u", "dash": [2, "2 * spin.u + 1"], "dashOffset": {"clock": "spin", "keyTimes": [0, 1], "values": [0, -8]}},
             "trim": {"start": 0, "end": {"clock": "spin", "keyTimes": [0, 0.5, 1], "values": [0.1, 0.9, 0.1]}, "offset": "spin.u"}}
            """##.replacingOccurrences(of: "\n", with: " ")
        let scene = try Self.scene(node)
        let frame = try #require(try Self.shapes(scene, at: 0.5).first)
        #expect(frame.fill == .solid(RGBA(0.25, 0.25, 0.25, 1)))
        #expect(frame.stroke?.width == 1.25 && frame.stroke?.dash == [2, 1.5] && frame.stroke?.dashOffset == -2)
        #expect(frame.trim == PathTrim(start: 0, end: 0.5, offset: 0.25))
        let later = try #require(try Self.shapes(scene, at: 1).first)
        #expect(later.trim == PathTrim(start: 0, end: 0.9, offset: 0.5) && later.stroke?.dashOffset == -4)
        // A trim that keeps nothing draws nothing; one that keeps everything is no trim.
        #expect(try Self.shapes(try Self.scene(##"{"type": "path", \##(Self.square), "trim": {"start": 0.5, "end": 0.5}}"##)).isEmpty)
        #expect(try Self.shapes(try Self.scene(##"{"type": "path", \##(Self.square), "trim": {"start": -1, "end": 2}}"##)).first?.trim == nil)
    }

    /// Bad path data names the character inside the string, escapes counted as written.
    @Test func badPathDataIsPlacedAtItsCharacter() {
        let plain = ##"{"type": "path", "d": "M 10 10 L 20 20 X 5"}"##
        #expect(Self.failure(plain) == "\(Self.at(plain, "X 5")) invalid content[0].d: unknown path command at 'X'")
        let escaped = ##"{"type": "path", "d": "M\u0020 10 \"10 L 20"}"##
        #expect(Self.failure(escaped) == "\(Self.at(escaped, "\\\"10")) invalid content[0].d: a number is expected at '\"'")
        let short = ##"{"type": "path", "d": "M 10 10 L 20"}"##
        #expect(Self.failure(short) == "\(Self.at(short, "\"}")) invalid content[0].d: a number is expected at the end")
        let first = ##"{"type": "path", "d": "L 1 1"}"##
        #expect(Self.failure(first) == "\(Self.at(first, "L 1")) invalid content[0].d: path data starts with M or m at 'L'")
        let number = ##"{"type": "path", "d": 12}"##
        #expect(Self.failure(number) == "\(Self.at(number, "12")) content[0].d must be a string, not a number")
    }

    /// Each refusal as the file is read: one line at the value, saying what is allowed.
    @Test(arguments: [
        (##"{"type": "path", "d": "M 0 0 L 1e7 0"}"##, "\"M 0", "content[0].d reaches 10000000 pt from the origin: a path's points are at most 1000000 pt from it"),
        (##"{"type": "path", "d": "M 0 0", "fillRule": "winding"}"##, "\"winding", "invalid content[0].fillRule 'winding' (known: nonzero, evenodd)"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"join": "mitre"}}"##, "\"mitre", "invalid content[0].stroke.join 'mitre' (known: miter, round, bevel)"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"cap": "flat"}}"##, "\"flat", "invalid content[0].stroke.cap 'flat' (known: butt, round, square)"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"width": -1}}"##, "-1", "invalid content[0].stroke.width -1: a width is at least 0"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"miterLimit": 0.5}}"##, "0.5", "invalid content[0].stroke.miterLimit 0.5: a miter limit is at least 1"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"dash": [2, -1]}}"##, "-1", "invalid content[0].stroke.dash[1] -1: a dash length is at least 0"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"dash": [0, 0]}}"##, "[0, 0]",
         "invalid content[0].stroke.dash: its lengths add up to 0; a dash pattern needs a length above 0 (or give [] for none)"),
        (##"{"type": "path", "d": "M 0 0", "stroke": {"width": 1, "wdith": 2}}"##, "\"wdith",
         "unknown key 'wdith' in content[0].stroke; did you mean 'width'? (known: paint, width, join, miterLimit, cap, dash, dashOffset)"),
        (##"{"type": "path", "d": "M 0 0", "trim": {"end": 1, "length": 2}}"##, "\"length",
         "unknown key 'length' in content[0].trim (known: start, end, offset)"),
        (##"{"type": "path", "d": "M 0 0", "opacity": 1.5}"##, "1.5", "invalid content[0].opacity 1.5: an opacity is in [0, 1]"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"linear": {"from": [0, 0], "to": [1, 0], "stops": []}}}"##, "[]}",
         "content[0].fill.linear.stops is empty: a gradient needs at least 1 stop [offset, colour]"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"linear": {"from": [0, 0], "to": [1, 0], "stops": [[1.5, "#ffffff"]]}}}"##, "1.5",
         "invalid content[0].fill.linear.stops[0][0] 1.5: a stop's offset is in [0, 1]"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"radial": {"center": [0, 0], "radius": 1, "stops": [[0]]}}}"##, "[0]]",
         "content[0].fill.radial.stops[0] has 1 items: a stop is [offset, colour]"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"radial": {"center": [0, 0], "radius": -2, "stops": [[0, "#000000"]]}}}"##, "-2",
         "invalid content[0].fill.radial.radius -2: a radius is at least 0"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"linear": {"from": [0, 0], "to": [1, 0], "stops": [[0, "#000000"]]}, "radial": {}}}"##, "{\"linear",
         "content[0].fill is one gradient: \"linear\" or \"radial\", not both"),
        (##"{"type": "path", "d": "M 0 0", "fill": {"linear": {"from": [0, 0], "stops": [[0, "#000000"]]}}}"##, "{\"from",
         "content[0].fill.linear needs \"to\""),
    ])
    func readingRefuses(node: String, mark: String, message: String) {
        #expect(Self.failure(node) == "\(Self.at(node, mark)) \(message)")
    }

    /// What only a frame knows is refused as the frame is evaluated, naming the node and the time.
    @Test(arguments: [
        (##""stroke": {"width": "1 - 4 * spin.u"}"##, "stroke.width = -1: a length is at least 0"),
        (##""stroke": {"miterLimit": "1 - spin.u"}"##, "stroke.miterLimit = 0.5: a miter limit is at least 1"),
        (##""stroke": {"dash": ["1 - 4 * spin.u", 1]}"##, "stroke.dash[0] = -1: a length is at least 0"),
        (##""stroke": {"dash": ["1 - 2 * spin.u", "1 - 2 * spin.u"]}"##, "stroke.dash adds up to 0: a dash pattern needs a length above 0"),
        (##""opacity": "1 + 2 * spin.u""##, "opacity = 2: an opacity is in [0, 1]"),
        (##""fill": {"linear": {"from": [0, 0], "to": [1, 0], "stops": [["4 * spin.u", "#000000"]]}}"##,
         "fill.linear.stops[0][0] = 2: a stop's offset is in [0, 1]"),
    ])
    func framesRefuse(fields: String, message: String) throws {
        let node = ##"{"type": "path", \##(Self.square), \##(fields)}"##
        let scene = try Self.scene(node)
        let failure = try #require(scene.frameState(at: 1).failure)
        #expect(failure.message == "\(Self.path):4:1: \(message) at t = 1 s with the defaults")
    }

    /// A hostile file — curves or dashes that would flatten to billions of points — is refused
    /// before any outline is built.
    @Test func outlinePointsAreBounded() throws {
        let node = ##"{"type": "path", \##(Self.square), "fill": "none", "stroke": {"dash": [1e-6, 1e-6]}}"##
        #expect(Self.failure(node).contains("the frame's paths flatten to more than 16777216 points (copies counted) at scales up to 64 at t = 0 s"))
        // Two cubics of 500,000 pt, about 186,000 chords at scale 64: 100 copies are too many, 10 are not.
        let cubics = " c 500000 0 500000 500000 0 500000 c -500000 0 -500000 -500000 0 -500000"
        let big = ##"{"type": "replicator", "count": 100, "content": [{"type": "path", "d": "M 0 0\##(cubics)"}]}"##
        #expect(Self.failure(big).hasPrefix("\(Self.at(big, "{\"type\": \"path")) the frame's paths flatten to more than 16777216 points"))
        _ = try Self.scene(big.replacingOccurrences(of: "100", with: "10"))
        // A loader's path is far within it.
        let spinner = try #require(try Self.shapes(try Self.scene(##"{"type": "path", "d": "M 20 4 A 16 16 0 1 1 19.99 4", "fill": "none", "stroke": {"width": 4, "cap": "round", "dash": [6, 4]}}"##)).first)
        #expect(spinner.outlinePoints < 1e5)
    }

    /// The fill is one item, then the stroke: placed by the group's similarity times the scale.
    @Test func fillsLowerToPathItemsPlacedByGroupsAndCopies() throws {
        let node = ##"""
            {"type": "group", "transform": {"translate": [50, 50], "rotate": 90, "scale": 2}, "content": [
              {"type": "replicator", "count": 2, "instance": {"translate": [5, 0]}, "content": [
                {"type": "path", "id": "p", \##(Self.square), "fill": "#ff000080", "opacity": 0.5}]}]}
            """##.replacingOccurrences(of: "\n", with: " ")
        let items = Self.items(try Self.scene(node), scale: 2)
        #expect(items.map(\.id.name) == ["p#0.fill", "p#1.fill"])
        let second = try #require(items[1].primitive as? Path)
        // Copy 1 is 5 pt to the right, turned 90° and scaled 2 by the group, then 2 px a point.
        let t = second.transform
        #expect(abs(t.a) < 1e-12 && abs(t.b - 4) < 1e-12 && abs(t.c + 4) < 1e-12 && abs(t.d) < 1e-12)
        #expect(abs(t.tx - 100) < 1e-9 && abs(t.ty - 120) < 1e-9)
        #expect(second.role == .fill(.nonzero) && second.opacity == 0.5 && second.paint == .solid(PaintColor(RGBA(1, 0, 0, 128.0 / 255))))
        // Its outline: the square 20 pt wide is 80 px wide, at px (100 − 4·30, 120 + 4·10) …
        let e = try #require(second.outline.extent)
        #expect(abs(e.minX + 20) < 1e-9 && abs(e.maxX - 60) < 1e-9 && abs(e.minY - 160) < 1e-9 && abs(e.maxY - 240) < 1e-9)
    }

    /// The fill, then the stroke, whose width and dashes are points times the scale and the
    /// transform's √|det| (SPEC §9 "Strokes"); a trim cuts both.
    @Test func strokesFollowTheFillScaledWithThePath() throws {
        let node = ##"""
            {"type": "group", "transform": {"scale": 2, "rotate": 30}, "content": [
              {"type": "path", "id": "p", \##(Self.square), "fill": "#00ff00",
               "stroke": {"paint": "#0000ff", "width": 2, "join": "bevel", "cap": "round", "dash": [3, 1], "dashOffset": 1},
               "trim": {"start": 0.25, "end": 1}}]}
            """##.replacingOccurrences(of: "\n", with: " ")
        let items = Self.items(try Self.scene(node), scale: 3)
        #expect(items.map(\.id.name) == ["p.fill", "p.stroke"])
        let fill = try #require(items[0].primitive as? Path), stroke = try #require(items[1].primitive as? Path)
        #expect(fill.role == .fill(.nonzero) && fill.trim == PathTrim(start: 0.25, end: 1))
        guard case .stroke(let style) = stroke.role else { Issue.record("not a stroke"); return }
        #expect(abs(style.width - 12) < 1e-12 && style.join == .bevel && style.cap == .round && style.miterLimit == 4)
        #expect(style.dash.count == 2 && abs(style.dash[0] - 18) < 1e-12 && abs(style.dash[1] - 6) < 1e-12 && abs(style.dashOffset - 6) < 1e-12)
        #expect(stroke.trim == fill.trim && stroke.paint == .solid(PaintColor(RGBA(0, 0, 1, 1))) && stroke.outline.chordCount > 0)
        // The fill keeps three quarters of the square: its outline stays inside the square's.
        let e = try #require(fill.outline.extent)
        #expect(e.maxX - e.minX > 0 && fill.outline.chordCount > 0)
    }

    /// The estimate a frame is held to bounds what the outlines really hold at the largest scale.
    @Test(arguments: [
        ##""stroke": {"width": 3, "join": "round", "cap": "round"}"##,
        ##""stroke": {"width": 40, "join": "miter", "cap": "square", "dash": [0.5, 0.25]}"##,
        ##""stroke": {"width": 0.1, "join": "round", "cap": "round", "dash": [0, 2]}"##,
        ##""stroke": {"width": 2, "dash": [1, 1]}, "trim": {"start": 0.1, "end": 0.8, "offset": 0.5}"##,
        ##""stroke": {"width": 25, "join": "bevel"}"##,
        ##""fillRule": "evenodd""##,
    ])
    func theEstimateBoundsTheOutline(fields: String) throws {
        let d = "M 5 50 C 5 0 95 0 95 50 S 5 100 5 50 Z M 30 50 Q 50 20 70 50 T 90 60 A 10 20 30 1 0 40 70 M 10 90 C 90 60 10 60 90 90 M 50 5 Z"
        let node = ##"{"type": "path", "d": "\##(d)", \##(fields)}"##
        let scene = try Self.scene(node)
        let shape = try #require(try Self.shapes(scene).first)
        let points = Self.items(scene, scale: Limits.scale).reduce(0) { $0 + (($1.primitive as? Path)?.outline.chordCount ?? 0) }
        #expect(points > 0 && Double(points) <= shape.outlinePoints, "\(points) points, \(shape.outlinePoints) estimated")
    }

    /// A path that only moves between frames keeps its outline: flattened once, then moved.
    @Test func aMovingPathIsNotFlattenedAgain() throws {
        let node = ##"""
            {"type": "group", "transform": {"translate": ["20 * spin.u", 0]}, "content": [
              {"type": "path", "id": "p", "d": "M 10 10 C 40 10 40 40 10 40 Z", "fill": "rgba(spin.u, 0, 0, 1)"}]}
            """##.replacingOccurrences(of: "\n", with: " ")
        let scene = try Self.scene(node)
        let first = try #require(Self.items(scene, at: 0).first?.primitive as? Path)
        let second = try #require(Self.items(scene, at: 1).first?.primitive as? Path)
        _ = Self.items(scene, at: 0)
        #expect(scene.pathOutlines.statistics == PathOutlineStatistics(built: 1, kept: 1, moved: 1))
        #expect(second.outline.chordCount == first.outline.chordCount)
        #expect(abs(second.outline.polygons[0][0].x - first.outline.polygons[0][0].x - 10) < 1e-12)
        // A preflight counts the chords it built or moved as work.
        #expect(try scene.preflightItems(at: 0, scale: 1, width: 100, height: 100).work >= 2 + first.outline.chordCount)
    }
}
