import Throbber

extension LottieReader {
    /// A list of shape items (a layer's `shapes`, a group's `it`), in file order; a group's
    /// transform (`tr`) is taken out of its items.
    mutating func shapes(_ node: JSONNode?, _ what: String) throws -> [LottieShape] {
        guard let node else { return [] }
        guard let list = node.array else { throw failure(what, "is \(node.typeName): give an array of shape items") }
        var result: [LottieShape] = []
        result.reserveCapacity(list.count)
        for (k, item) in list.enumerated() {
            shapeCount += 1
            guard shapeCount <= LottieLimits.shapes else {
                throw failure(what, "brings the file's shape items to \(shapeCount): at most \(LottieLimits.shapes) are read")
            }
            guard let object = LottieObject(item) else { throw failure("\(what)[\(k)]", "is \(item.typeName): give a shape object") }
            let type = object["ty"]?.string ?? ""
            let place = "\(what)[\(k)] '\(ThrobberError.echoed(object["nm"]?.string ?? type))'"
            if (object["hd"]?.number ?? 0) != 0 { result.append(.nothing); continue }
            if let blend = object["bm"]?.number, blend != 0 { try unsupported(place, "blend modes other than normal") }
            result.append(try shape(type, object, place))
        }
        return result
    }

    mutating func shape(_ type: String, _ o: LottieObject, _ place: String) throws -> LottieShape {
        let reversed = (o["d"]?.number ?? 1) == 3
        switch type {
        case "gr":
            let items = try shapes(o["it"], "\(place).it")
            var transform = LottieTransform()
            if let list = o["it"]?.array, let index = list.lastIndex(where: { LottieObject($0)?["ty"]?.string == "tr" }) {
                transform = try self.transform(list[index], "\(place).it[\(index)]")
            }
            return .group(items, transform)
        case "tr": return .nothing
        case "rc":
            return .rectangle(position: try vector(o["p"], "\(place).p", [0, 0]), size: try vector(o["s"], "\(place).s", nil),
                              roundness: try scalar(o["r"], "\(place).r", 0), reversed: reversed)
        case "el":
            return .ellipse(position: try vector(o["p"], "\(place).p", [0, 0]), size: try vector(o["s"], "\(place).s", nil), reversed: reversed)
        case "sh":
            return .path(try bezier(o["ks"], "\(place).ks"), reversed: reversed)
        case "sr":
            let kind = try optionalNumber(o["sy"], "\(place).sy", default: 1)
            guard kind == 1 || kind == 2 else { throw failure("\(place).sy", "is \(formatNumber(kind)): give 1 (star) or 2 (polygon)") }
            return .polystar(LottiePolystar(star: kind == 1, position: try vector(o["p"], "\(place).p", [0, 0]),
                                            points: try scalar(o["pt"], "\(place).pt", nil), rotation: try scalar(o["r"], "\(place).r", 0),
                                            outerRadius: try scalar(o["or"], "\(place).or", nil),
                                            innerRadius: try scalar(o["ir"], "\(place).ir", kind == 1 ? nil : 0),
                                            outerRoundness: try scalar(o["os"], "\(place).os", 0),
                                            innerRoundness: try scalar(o["is"], "\(place).is", 0), reversed: reversed))
        case "fl":
            return .fill(color: try color(o["c"], "\(place).c"), opacity: try scalar(o["o"], "\(place).o", 100),
                         evenOdd: try fillRule(o, place))
        case "st":
            return .stroke(color: try color(o["c"], "\(place).c"), opacity: try scalar(o["o"], "\(place).o", 100), try strokeStyle(o, place))
        case "gf":
            return .gradientFill(try gradient(o, place), opacity: try scalar(o["o"], "\(place).o", 100), evenOdd: try fillRule(o, place))
        case "gs":
            return .gradientStroke(try gradient(o, place), opacity: try scalar(o["o"], "\(place).o", 100), try strokeStyle(o, place))
        case "tm":
            let mode = try optionalNumber(o["m"], "\(place).m", default: 1)
            guard mode == 1 || mode == 2 else { throw failure("\(place).m", "is \(formatNumber(mode)): give 1 (simultaneously) or 2 (individually)") }
            return .trim(start: try scalar(o["s"], "\(place).s", 0), end: try scalar(o["e"], "\(place).e", 100),
                         offset: try scalar(o["o"], "\(place).o", 0), sequentially: mode == 2)
        case "rp":
            let composite = try optionalNumber(o["m"], "\(place).m", default: 1)
            return .repeater(copies: try scalar(o["c"], "\(place).c", nil), offset: try scalar(o["o"], "\(place).o", 0),
                             belowFirst: composite == 2, try transform(o["tr"], "\(place).tr"))
        case "rd":
            return .roundedCorners(try scalar(o["r"], "\(place).r", 0))
        case "mm": try unsupported(place, "merge paths"); return .nothing
        case "tw": try unsupported(place, "twist modifiers"); return .nothing
        case "op": try unsupported(place, "offset paths"); return .nothing
        case "pb": try unsupported(place, "pucker-and-bloat modifiers"); return .nothing
        case "zz": try unsupported(place, "zig-zag modifiers"); return .nothing
        default: try unsupported(place, "shape items of type '\(ThrobberError.echoed(type))'"); return .nothing
        }
    }

    func fillRule(_ o: LottieObject, _ place: String) throws -> Bool {
        let rule = try optionalNumber(o["r"], "\(place).r", default: 1)
        guard rule == 1 || rule == 2 else { throw failure("\(place).r", "is \(formatNumber(rule)): give 1 (nonzero) or 2 (even-odd)") }
        return rule == 2
    }

    mutating func strokeStyle(_ o: LottieObject, _ place: String) throws -> LottieStrokeStyle {
        let caps: [Double: StrokeCap] = [1: .butt, 2: .round, 3: .square]
        let joins: [Double: StrokeJoin] = [1: .miter, 2: .round, 3: .bevel]
        let capNumber = try optionalNumber(o["lc"], "\(place).lc", default: 2)
        let joinNumber = try optionalNumber(o["lj"], "\(place).lj", default: 2)
        guard let cap = caps[capNumber] else { throw failure("\(place).lc", "is \(formatNumber(capNumber)): give 1 (butt), 2 (round) or 3 (square)") }
        guard let join = joins[joinNumber] else { throw failure("\(place).lj", "is \(formatNumber(joinNumber)): give 1 (miter), 2 (round) or 3 (bevel)") }
        var miter = try optionalNumber(o["ml"], "\(place).ml", default: 4)
        if let limit = LottieObject(o["ml2"]), let k = limit["k"]?.number { miter = k }
        var dashes: [LottieAnimated<Double>] = []
        var offset: LottieAnimated<Double> = .fixed(0)
        for (k, item) in (o["d"]?.array ?? []).prefix(64).enumerated() {
            guard let dash = LottieObject(item) else { continue }
            let value = try scalar(dash["v"], "\(place).d[\(k)].v", 0)
            if dash["n"]?.string == "o" { offset = value } else { dashes.append(value) }
        }
        return LottieStrokeStyle(width: try scalar(o["w"], "\(place).w", nil), cap: cap, join: join, miterLimit: max(1, miter),
                                 dashes: dashes, dashOffset: offset)
    }

    mutating func gradient(_ o: LottieObject, _ place: String) throws -> LottieGradient {
        let type = try optionalNumber(o["t"], "\(place).t", default: 1)
        guard type == 1 || type == 2 else { throw failure("\(place).t", "is \(formatNumber(type)): give 1 (linear) or 2 (radial)") }
        guard let g = LottieObject(o["g"]) else { throw failure("\(place).g", "is missing: give the gradient's stops") }
        let count = Int(try number(g["p"], "\(place).g.p"))
        guard count >= 1, count <= 1000 else { throw failure("\(place).g.p", "is \(count): give 1 to 1000 colour stops") }
        return LottieGradient(kind: type == 1 ? .linear : .radial, count: count, stops: try vector(g["k"], "\(place).g.k", nil),
                              start: try vector(o["s"], "\(place).s", [0, 0]), end: try vector(o["e"], "\(place).e", [0, 0]),
                              highlightLength: try scalar(o["h"], "\(place).h", 0), highlightAngle: try scalar(o["a"], "\(place).a", 0))
    }
}
