import Throbber

/// Reads a Lottie file (JSON text, docs/lottie.md) into a `LottieAnimation`, bounded as it goes:
/// the file's size before it is parsed, its nesting while it is parsed, then its layers, shape
/// items, keyframes and vertices as they are counted (`LottieLimits`). Precomposition cycles,
/// runaway nesting and parent cycles are refused here, before a frame is evaluated.
///
/// What Throbber does not draw (expressions, text and image layers, effects, blend modes other
/// than normal, merge paths and the other path modifiers, 3D layers, mask feather and
/// expansion) is refused with one line naming the layer, the property and the feature — or,
/// with `skipUnsupported`, left out and named once in `LottieAnimation.skipped`.
public struct LottieReader {
    let path: String
    let skipUnsupported: Bool
    /// Slot values given as parameters, by slot id.
    let slotValues: [String: LottieVector]
    /// The file's `slots`: property objects by slot id.
    var fileSlots: [String: JSONNode] = [:]
    var slots: [LottieSlot] = []
    var skipped: [String] = []
    var layerCount = 0
    var shapeCount = 0
    var keyframeCount = 0
    /// The image assets' ids, which an image layer's `refId` must name.
    var imageAssetIDs: Set<String> = []
    /// Where the reader is, for messages: `layer 'Spinner' (2): `.
    var context = ""

    /// The most slots a file may expose.
    static let mostSlots = 256

    /// Whether a parsed JSON document is a Lottie file: an object with `layers` and the clock
    /// (`fr`, `ip`, `op`) at its top, and no scene-file `format`.
    public static func isLottie(_ root: JSONNode) -> Bool {
        guard let object = LottieObject(root), object["format"] == nil, object["layers"]?.array != nil else { return false }
        return object["fr"]?.number != nil && object["ip"]?.number != nil && object["op"]?.number != nil
    }

    /// Whether a text looks like a Lottie file without parsing it all: a JSON object whose
    /// first kilobytes name `"layers"` and the clock, and no scene-file `"format"`. A cheap first
    /// look; `read` decides.
    public static func looksLikeLottie(_ text: Substring.UTF8View) -> Bool {
        guard let first = text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") else { return false }
        let head = String(decoding: text.prefix(65_536), as: UTF8.self)
        return head.contains("\"layers\"") && head.contains("\"fr\"") && head.contains("\"op\"") && !head.contains("\"format\"")
    }

    /// Reads `text`, named `path` in messages.
    ///
    /// - Parameters:
    ///   - slotValues: values for the file's slots, by id (`--set`).
    ///   - skipUnsupported: leave out what Throbber does not draw instead of refusing the file.
    /// - Throws: `.badData`, one line: `PATH: layer 'NAME' (IND): PROPERTY: what is wrong`.
    public static func read(_ text: String, path: String, slotValues: [String: LottieVector] = [:],
                            skipUnsupported: Bool = false) throws -> LottieAnimation {
        let root = try parse(text, path: path)
        return try read(root, path: path, slotValues: slotValues, skipUnsupported: skipUnsupported)
    }

    /// Parses a Lottie file's text, bounded by `LottieLimits.largestJSON` before a byte is parsed
    /// and by `Limits.jsonDepth` as it is.
    ///
    /// - Throws: `.badData`, `PATH:LINE:COLUMN: …` or the size refused.
    public static func parse(_ text: String, path: String) throws -> JSONNode {
        guard text.utf8.count <= LottieLimits.largestJSON else {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a Lottie file is at most \(LottieLimits.largestJSON >> 20) MiB; this one is \(text.utf8.count) bytes",
                                kind: .badData)
        }
        do {
            return try JSONNode.parse(text)
        } catch let error as JSONParseError {
            throw ThrobberError("\(ThrobberError.shownPath(path)):\(error.line):\(error.column): \(error.message)", kind: .badData)
        }
    }

    /// Reads a parsed document (see `read(_:path:slotValues:skipUnsupported:)`).
    public static func read(_ root: JSONNode, path: String, slotValues: [String: LottieVector] = [:],
                            skipUnsupported: Bool = false) throws -> LottieAnimation {
        var reader = LottieReader(path: path, skipUnsupported: skipUnsupported, slotValues: slotValues)
        return try reader.document(root)
    }

    /// One line of bad data at `what` in the current context.
    func failure(_ what: String, _ message: String) -> ThrobberError {
        ThrobberError("\(ThrobberError.shownPath(path)): \(context)\(what) \(message)", kind: .badData)
    }

    /// Refuses a feature Throbber does not draw, or notes it once and goes on without it.
    mutating func unsupported(_ what: String, _ feature: String) throws {
        let note = "\(context)\(what): \(feature)"
        guard skipUnsupported else { throw Self.refusal(path: path, note: note) }
        if !skipped.contains(note), skipped.count < 100 { skipped.append(note) }
    }

    /// The refusal of a feature Throbber does not draw, from its note (`layer 'T' (1): ty: text
    /// layers`): what a read that does not skip throws at the same place.
    public static func refusal(path: String, note: String) -> ThrobberError {
        ThrobberError("\(ThrobberError.shownPath(path)): \(note) are not supported (--skip-unsupported renders without them)", kind: .badData)
    }

    mutating func document(_ root: JSONNode) throws -> LottieAnimation {
        guard let top = LottieObject(root) else { throw failure("the document", "is \(root.typeName): a Lottie file is a JSON object") }
        let frameRate = try number(top["fr"], "fr")
        guard frameRate > 0, frameRate <= Limits.fps else { throw failure("fr", "is \(formatNumber(frameRate)): give a frame rate in (0, \(formatNumber(Limits.fps))]") }
        let inPoint = try number(top["ip"], "ip"), outPoint = try number(top["op"], "op")
        guard outPoint > inPoint else { throw failure("op", "is \(formatNumber(outPoint)), not after ip \(formatNumber(inPoint)): give op > ip") }
        let width = try number(top["w"], "w"), height = try number(top["h"], "h")
        for (name, side) in [("w", width), ("h", height)] where !(side >= 1 && side <= Limits.length) {
            throw failure(name, "is \(formatNumber(side)): give a canvas side in [1, \(formatNumber(Limits.length))] pt")
        }
        if (top["ddd"]?.number ?? 0) != 0 { try unsupported("ddd", "3D layers") }
        if let slotObject = top["slots"], case .object(let members) = slotObject.value {
            for member in members.prefix(Self.mostSlots) { fileSlots[member.key] = member.value }
        }
        var compositions: [String: [LottieLayer]] = [:]
        var assetNodes: [(String, JSONNode)] = []
        var images: [String: LottieImageAsset] = [:]
        for (k, asset) in (top["assets"]?.array ?? []).enumerated() {
            guard let object = LottieObject(asset) else { throw failure("assets[\(k)]", "is \(asset.typeName): give an asset object") }
            guard let id = object["id"]?.string else { throw failure("assets[\(k)].id", "is missing: give the asset's id") }
            if object["layers"] != nil {
                guard compositions[id] == nil, !assetNodes.contains(where: { $0.0 == id }) else {
                    throw failure("assets[\(k)].id", "'\(ThrobberError.echoed(id))' is used twice: give each asset its own id")
                }
                assetNodes.append((id, asset))
            } else if let name = object["p"]?.string {
                guard images[id] == nil else { throw failure("assets[\(k)].id", "'\(ThrobberError.echoed(id))' is used twice: give each asset its own id") }
                images[id] = LottieImageAsset(id: id, width: try number(object["w"], "assets[\(k)].w"), height: try number(object["h"], "assets[\(k)].h"),
                                              directory: object["u"]?.string ?? "", name: name)
            }
        }
        imageAssetIDs = Set(images.keys)
        for (id, node) in assetNodes {
            context = "asset '\(ThrobberError.echoed(id))': "
            compositions[id] = try layers(LottieObject(node)!["layers"], "layers")
        }
        context = ""
        let layers = try self.layers(top["layers"], "layers")
        try checkPrecompositions(layers, compositions)
        var markers: [LottieMarker] = []
        for (k, marker) in (top["markers"]?.array ?? []).prefix(1000).enumerated() {
            guard let object = LottieObject(marker) else { continue }
            let name = object["cm"]?.string ?? "marker \(k)"
            markers.append(LottieMarker(name: name, time: try number(object["tm"], "markers[\(k)].tm"),
                                        duration: try optionalNumber(object["dr"], "markers[\(k)].dr", default: 0)))
        }
        return LottieAnimation(version: top["v"]?.string ?? "", name: top["nm"]?.string ?? "", width: width, height: height,
                               frameRate: frameRate, inPoint: inPoint, outPoint: outPoint, layers: layers, compositions: compositions, imageAssets: images,
                               markers: markers, slots: slots, skipped: skipped)
    }

    /// Refuses a precomposition that reaches itself, one that names no asset, and nesting
    /// deeper than `LottieLimits.precompositionDepth`.
    func checkPrecompositions(_ top: [LottieLayer], _ compositions: [String: [LottieLayer]]) throws {
        var done: Set<String> = []
        func visit(_ layers: [LottieLayer], _ chain: [String]) throws {
            guard chain.count <= LottieLimits.precompositionDepth else {
                throw ThrobberError("\(ThrobberError.shownPath(path)): precompositions nest deeper than \(LottieLimits.precompositionDepth) (\(chain.suffix(3).joined(separator: " > ")))",
                                    kind: .badData)
            }
            for layer in layers {
                guard case .precomposition(let id, _, _, _) = layer.content else { continue }
                guard let inner = compositions[id] else {
                    throw ThrobberError("\(ThrobberError.shownPath(path)): layer '\(ThrobberError.echoed(layer.name))': refId '\(ThrobberError.echoed(id))' names no precomposition asset",
                                        kind: .badData)
                }
                guard !chain.contains(id) else {
                    throw ThrobberError("\(ThrobberError.shownPath(path)): precomposition '\(ThrobberError.echoed(id))' contains itself (\((chain + [id]).map { ThrobberError.echoed($0) }.joined(separator: " > "))): a cycle draws forever",
                                        kind: .badData)
                }
                if done.contains(id) { continue }
                try visit(inner, chain + [id])
                done.insert(id)
            }
        }
        try visit(top, [])
    }
}
