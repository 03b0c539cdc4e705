import Throbber

extension LottieReader {
    /// A composition's layers, top first as the file lists them, with parents checked.
    mutating func layers(_ node: JSONNode?, _ what: String) throws -> [LottieLayer] {
        guard let list = node?.array else { throw failure(what, "is \(node?.typeName ?? "missing"): give an array of layers") }
        let outer = context
        var result: [LottieLayer] = []
        for (k, item) in list.enumerated() {
            layerCount += 1
            guard layerCount <= LottieLimits.layers else {
                throw failure(what, "brings the file's layers to \(layerCount): at most \(LottieLimits.layers) are read")
            }
            context = outer
            guard let object = LottieObject(item) else { throw failure("\(what)[\(k)]", "is \(item.typeName): give a layer object") }
            let name = object["nm"]?.string ?? "\(what)[\(k)]"
            let index = try object["ind"].map { Int(try number($0, "\(what)[\(k)].ind")) }
            context = outer + "layer '\(ThrobberError.echoed(name))'\(index.map { " (\($0))" } ?? ""): "
            if let layer = try self.layer(object) { result.append(layer) }
        }
        context = outer
        try checkParents(result)
        return result
    }

    /// One layer, or nil for one that draws nothing by its kind (audio) or was skipped.
    mutating func layer(_ object: LottieObject) throws -> LottieLayer? {
        let type = Int(try optionalNumber(object["ty"], "ty", default: -1))
        if (object["ddd"]?.number ?? 0) != 0 { try unsupported("ddd", "3D layers"); return nil }
        if let blend = object["bm"]?.number, blend != 0 { try unsupported("bm", "blend modes other than normal") }
        if let effects = object["ef"]?.array, !effects.isEmpty { try unsupported("ef", "layer effects") }
        if let styles = object["sy"]?.array, !styles.isEmpty { try unsupported("sy", "layer styles") }
        let content: LottieLayer.Content
        switch type {
        case 0:
            guard let id = object["refId"]?.string else { throw failure("refId", "is missing: a precomposition layer names its asset") }
            let w = try optionalNumber(object["w"], "w", default: 0), h = try optionalNumber(object["h"], "h", default: 0)
            let remap = try object["tm"].map { try scalar($0, "tm", nil) }
            content = .precomposition(asset: id, width: w, height: h, timeRemap: remap)
        case 1:
            let color = try solidColor(object["sc"]?.string)
            content = .solid(color: color, width: try number(object["sw"], "sw"), height: try number(object["sh"], "sh"))
        case 3: content = .null
        case 4: content = .shapes(try shapes(object["shapes"], "shapes"))
        case 6: return nil
        case 2:
            guard let id = object["refId"]?.string, imageAssetIDs.contains(id) else {
                throw failure("refId", "'\(ThrobberError.echoed(object["refId"]?.string ?? ""))' names no image asset: an image layer names its asset")
            }
            content = .image(asset: id)
        case 5: try unsupported("ty", "text layers"); return nil
        case 13: try unsupported("ty", "cameras (3D)"); return nil
        default: try unsupported("ty", "layers of type \(type)"); return nil
        }
        let inPoint = try number(object["ip"], "ip"), outPoint = try number(object["op"], "op")
        let stretch = try optionalNumber(object["sr"], "sr", default: 1)
        guard stretch != 0 else { throw failure("sr", "is 0: give a time stretch other than 0") }
        var masks: [LottieLayer.Mask] = []
        for (k, mask) in (object["masksProperties"]?.array ?? []).enumerated() {
            let place = "masksProperties[\(k)]"
            guard let m = LottieObject(mask) else { throw failure(place, "is \(mask.typeName): give a mask object") }
            let modeText = m["mode"]?.string ?? "a"
            guard let mode = LottieLayer.Mask.Mode(rawValue: modeText) else {
                try unsupported("\(place).mode", "mask modes other than add, subtract, intersect, difference and none ('\(ThrobberError.echoed(modeText))')")
                continue
            }
            if let feather = LottieObject(m["f"]), try isNonZero(feather, "\(place).f") { try unsupported("\(place).f", "feathered masks") }
            if let expansion = LottieObject(m["x"]), try isNonZero(expansion, "\(place).x") { try unsupported("\(place).x", "expanded masks") }
            masks.append(LottieLayer.Mask(mode: mode, inverted: (m["inv"]?.number ?? 0) != 0, path: try bezier(m["pt"], "\(place).pt"),
                                          opacity: try scalar(m["o"], "\(place).o", 100)))
        }
        var matte: (mode: LottieLayer.MatteMode, source: Int?)?
        if let tt = object["tt"]?.number, tt != 0 {
            guard let mode = LottieLayer.MatteMode(rawValue: Int(tt)) else { throw failure("tt", "is \(formatNumber(tt)): give a matte mode 1-4") }
            matte = (mode, try object["tp"].map { Int(try number($0, "tp")) })
        }
        return LottieLayer(name: object["nm"]?.string ?? "", index: try object["ind"].map { Int(try number($0, "ind")) },
                           parent: try object["parent"].map { Int(try number($0, "parent")) }, content: content,
                           transform: try transform(object["ks"], "ks"), autoOrient: (object["ao"]?.number ?? 0) != 0,
                           hidden: (object["hd"]?.number ?? 0) != 0, inPoint: inPoint, outPoint: outPoint,
                           startTime: try optionalNumber(object["st"], "st", default: 0), stretch: stretch, masks: masks, matte: matte,
                           isMatteSource: (object["td"]?.number ?? 0) != 0)
    }

    /// Whether an animated property is anything but a constant 0 (a mask's feather or expansion).
    func isNonZero(_ property: LottieObject, _ what: String) throws -> Bool {
        guard let k = property["k"] else { return false }
        if let x = k.number { return x != 0 }
        if let items = k.array { return items.contains { item in item.number.map { $0 != 0 } ?? true } }
        return true
    }

    /// A solid's colour, `#rrggbb`.
    func solidColor(_ text: String?) throws -> RGBA {
        guard let text, text.hasPrefix("#"), text.utf8.count == 7, let value = UInt32(text.dropFirst(), radix: 16) else {
            throw failure("sc", "is '\(ThrobberError.echoed(text ?? ""))': give a colour #rrggbb")
        }
        return RGBA(Double((value >> 16) & 0xFF) / 255, Double((value >> 8) & 0xFF) / 255, Double(value & 0xFF) / 255, 1)
    }

    /// A transform (`ks`, `tr`): every part optional, position whole or separated.
    mutating func transform(_ node: JSONNode?, _ what: String) throws -> LottieTransform {
        var t = LottieTransform()
        guard let object = LottieObject(node) else { return t }
        for key in ["rx", "ry", "or"] where object[key] != nil {
            if let property = LottieObject(object[key]), try isNonZero(property, "\(what).\(key)") { try unsupported("\(what).\(key)", "3D rotations") }
        }
        t.anchor = try vector(object["a"], "\(what).a", [0, 0])
        if let p = LottieObject(object["p"]), (p["s"]?.number ?? 0) != 0 {
            t.position = nil
            t.positionX = try scalar(p["x"], "\(what).p.x", 0)
            t.positionY = try scalar(p["y"], "\(what).p.y", 0)
        } else {
            t.position = try vector(object["p"], "\(what).p", [0, 0])
        }
        t.scale = try vector(object["s"], "\(what).s", [100, 100])
        t.rotation = try scalar(object["r"] ?? object["rz"], "\(what).r", 0)
        t.opacity = try scalar(object["o"], "\(what).o", 100)
        t.skew = try scalar(object["sk"], "\(what).sk", 0)
        t.skewAxis = try scalar(object["sa"], "\(what).sa", 0)
        t.startOpacity = try scalar(object["so"], "\(what).so", 100)
        t.endOpacity = try scalar(object["eo"], "\(what).eo", 100)
        return t
    }

    /// Refuses a parent that names no layer of the composition, and a chain of parents that
    /// returns to where it began or runs deeper than `LottieLimits.parentDepth`.
    func checkParents(_ layers: [LottieLayer]) throws {
        var byIndex: [Int: LottieLayer] = [:]
        for layer in layers { if let index = layer.index { byIndex[index] = layer } }
        for layer in layers {
            var seen: Set<Int> = layer.index.map { [$0] } ?? []
            var next = layer.parent
            while let index = next {
                guard let parent = byIndex[index] else {
                    throw ThrobberError("\(ThrobberError.shownPath(path)): \(context)layer '\(ThrobberError.echoed(layer.name))': parent \(index) names no layer of its composition",
                                        kind: .badData)
                }
                guard seen.insert(index).inserted, seen.count <= LottieLimits.parentDepth else {
                    throw ThrobberError("\(ThrobberError.shownPath(path)): \(context)layer '\(ThrobberError.echoed(layer.name))': its parents form a cycle through layer \(index)",
                                        kind: .badData)
                }
                next = parent.parent
            }
        }
    }
}
