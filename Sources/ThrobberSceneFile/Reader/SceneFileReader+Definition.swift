import Foundation
import Throbber

extension SceneFileReader {
    /// The whole file: format, id, summary, parameters, relations, clocks, values, canvas, loop, content.
    mutating func definition(_ root: JSONNode) throws -> SceneDefinition {
        let m = try members(root, "the scene file", known: ["$schema", "format", "id", "summary", "note", "parameters", "relations",
                                                             "clocks", "values", "canvas", "loop", "content"],
                            required: ["format", "id", "canvas", "content"])
        let format = try string(m["format"], "format")!
        guard format == Self.format else {
            throw fail(m["format"]!.value, "unknown format '\(ThrobberError.echoed(format))': this throbber reads \(Self.format)")
        }
        let id = try string(m["id"], "id")!
        guard !id.isEmpty, id.count <= 64, id.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw fail(m["id"]!.value, "invalid id '\(ThrobberError.echoed(id))': 1 to 64 letters, digits, '-', '_' or '.'")
        }
        let summary = try string(m["summary"], "summary") ?? id

        // Parameters: declared first (each a slot), then their derive and within expressions,
        // which may read any parameter.
        let parameterNodes = try m["parameters"].map { try array($0.value, "parameters") } ?? []
        guard parameterNodes.count <= Self.mostParameters else {
            throw fail(m["parameters"]!.value, "\(parameterNodes.count) parameters: at most \(Self.mostParameters)")
        }
        var parameters: [SceneDefinition.Parameter] = []
        for (k, node) in parameterNodes.enumerated() { parameters.append(try parameter(node, index: k)) }
        parameterScope = scope
        parameterSlots = slotCount
        for (k, node) in parameterNodes.enumerated() { try finishParameter(&parameters[k], node, index: k) }

        var relations: [SceneDefinition.Relation] = []
        let relationNodes = try m["relations"].map { try array($0.value, "relations") } ?? []
        guard relationNodes.count <= Self.mostRelations else {
            throw fail(m["relations"]!.value, "\(relationNodes.count) relations: at most \(Self.mostRelations)")
        }
        for (k, node) in relationNodes.enumerated() {
            let r = try members(node, "relations[\(k)]", known: ["require", "field", "text", "note"], required: ["require", "text"])
            guard case .string(let source) = r["require"]!.value.value else {
                throw fail(r["require"]!.value, "relations[\(k)].require must be an expression of parameters")
            }
            let require = try compile(source, at: r["require"]!.value, in: parameterScope, field: "relations[\(k)].require", expecting: .boolean)
            let field = try string(r["field"], "relations[\(k)].field") ?? require.namesRead.first ?? "parameters"
            if r["field"] != nil, !parameterNames.contains(field) {
                var message = "unknown parameter '\(ThrobberError.echoed(field))' in relations[\(k)].field"
                if let nearest = nearestName(to: field, in: parameterNames) { message += "; did you mean '\(nearest)'?" }
                throw fail(r["field"]!.value, message)
            }
            relations.append(.init(require: require, field: field, text: try string(r["text"], "relations[\(k)].text")!))
        }

        // Canvas and loop: static.
        let canvas = try members(m["canvas"]!.value, "canvas", known: ["width", "height", "background", "note"], required: ["width", "height"])
        let canvasWidth = try staticNumber(canvas["width"]!.value, field: "canvas.width")
        let canvasHeight = try staticNumber(canvas["height"]!.value, field: "canvas.height")
        var background = RGBA.clear
        if let node = canvas["background"]?.value {
            if case .string("none") = node.value {
                background = .clear
            } else {
                let source = try source(node, field: "canvas.background", type: .color, in: ExpressionScope())
                guard case .expression(let e) = source, case .color(let color)? = e.constantValue else {
                    throw fail(node, "canvas.background must be \"none\" or a constant colour")
                }
                background = color
            }
        }
        var loopSeconds: SceneExpression?, loopFrom: SceneExpression?, loopPreview: SceneExpression?
        if let loop = m["loop"]?.value {
            let l = try members(loop, "loop", known: ["seconds", "from", "preview", "note"])
            loopSeconds = try l["seconds"].map { try staticNumber($0.value, field: "loop.seconds") }
            loopFrom = try l["from"].map { try staticNumber($0.value, field: "loop.from") }
            loopPreview = try l["preview"].map { try staticNumber($0.value, field: "loop.preview") }
            // A constant out of range is refused here, where the file can be pointed at; an
            // expression is checked for each parameter set (FileScene.validateRelations).
            for (key, range) in [("seconds", Limits.periodRange), ("from", Limits.timeRange), ("preview", Limits.spanRange)] {
                guard let member = l[key], case .number(let value, _) = member.value.value else { continue }
                guard range.contains(value) else { throw fail(member.value, "invalid loop.\(key) \(formatNumber(value)): \(range.text) s") }
            }
        }

        // Clocks: four slots each.
        var clocks: [SceneDefinition.Clock] = []
        let clockNodes = try m["clocks"].map { try array($0.value, "clocks") } ?? []
        guard clockNodes.count <= Self.mostClocks else { throw fail(m["clocks"]!.value, "\(clockNodes.count) clocks: at most \(Self.mostClocks)") }
        for (k, node) in clockNodes.enumerated() {
            let c = try members(node, "clocks[\(k)]", known: ["name", "duration", "repeat", "autoreverses", "begin", "enabled", "note"],
                                required: ["name", "duration"])
            let name = try string(c["name"], "clocks[\(k)].name")!
            try declareName(name, at: c["name"]!.value, "clock")
            var repeats = SceneClock.Repeat.forever
            if let r = c["repeat"] {
                if case .string("forever") = r.value.value {
                    repeats = .forever
                } else if case .number(let n, _) = r.value.value, n > 0, n <= 1_000_000 {
                    repeats = .count(n)
                } else {
                    throw fail(r.value, "invalid clocks[\(k)].repeat: \"forever\" or a number of passes in (0, 1000000]")
                }
            }
            let slots = ExpressionClockSlots(t: newSlot(), u: newSlot(), n: newSlot(), period: newSlot())
            let clock = SceneDefinition.Clock(
                name: name, duration: try staticNumber(c["duration"]!.value, field: "clocks[\(k)].duration"), repeats: repeats,
                autoreverses: try bool(c["autoreverses"], "clocks[\(k)].autoreverses") ?? false,
                begin: try c["begin"].map { try staticNumber($0.value, field: "clocks[\(k)].begin") },
                enabled: try c["enabled"].map { try staticBoolean($0.value, field: "clocks[\(k)].enabled") }, slots: slots)
            do { try scope.declareClock(name, slots: slots) } catch { throw fail(c["name"]!.value, error.message) }
            clockNames.append(name)
            clocks.append(clock)
        }
        tSlot = newSlot()
        do { try scope.declare("t", .number, slot: tSlot) } catch { throw fail(root, error.message) }

        // Values, in order: each may read parameters, clocks, t and earlier values.
        var values: [SceneDefinition.Value] = []
        let valueNodes = try m["values"].map { try array($0.value, "values") } ?? []
        guard valueNodes.count <= Self.mostValues else { throw fail(m["values"]!.value, "\(valueNodes.count) values: at most \(Self.mostValues)") }
        for (k, node) in valueNodes.enumerated() {
            let v = try members(node, "values[\(k)]", known: ["name", "value", "note"], required: ["name", "value"])
            let name = try string(v["name"], "values[\(k)].name")!
            try declareName(name, at: v["name"]!.value, "value")
            let type = try inferredType(v["value"]!.value, field: "values[\(k)] '\(name)'")
            let source = try source(v["value"]!.value, field: "values[\(k)] '\(name)'", type: type, in: scope)
            let slot = newSlot()
            do { try scope.declare(name, type, slot: slot) } catch { throw fail(v["name"]!.value, error.message) }
            values.append(.init(name: name, source: source, slot: slot))
        }
        for _ in 0..<Self.mostReplicatorDepth {
            indexSlots.append(newSlot())
            countSlots.append(newSlot())
        }

        let content = try nodes(m["content"]!.value, field: "content", groupDepth: 0, aliases: [])
        // Each replicator's copies were checked against a frame's budget as it was read; the
        // whole tree is checked here (many replicators side by side).
        let shapes = NodeWork.leastShapes(content)
        guard shapes <= Limits.shapesPerFrame else {
            throw fail(m["content"]!.value, "content draws at least \(shapes) shapes a frame (copies counted); a frame may draw at most "
                       + "\(Limits.shapesPerFrame) (each costs \(Limits.pixelsPerShape) px of the \(Limits.pixelsPerFrame) px a frame may cost)")
        }
        let work = NodeWork.leastWork(content)
        guard work <= FileScene.budget else {
            throw fail(m["content"]!.value, "content is at least \(work > FileScene.budget ? "more than \(FileScene.budget)" : "\(work)") node "
                       + "evaluations a frame (copies counted); a frame may spend at most \(FileScene.budget) (fewer copies, or fewer nodes)")
        }

        var definition = SceneDefinition(id: id, summary: summary, path: path, text: text, parameters: parameters, relations: relations,
                               clocks: clocks, values: values, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                               background: background, loopSeconds: loopSeconds, loopFrom: loopFrom, loopPreview: loopPreview,
                               content: content, tSlot: tSlot, indexSlots: indexSlots, countSlots: countSlots,
                               slotCount: slotCount, firstReadOfT: firstReadOfT)
        NodeWork.primitiveReads(content, into: &definition.primitiveReads)
        definition.parameterSlots = parameterSlots
        definition.paintsText = NodeWork.hasText(content)
        return definition
    }

    /// The type a value's source has: a colour for arrays and `#` strings (and tracks or
    /// switches of them), else what its expression says.
    func inferredType(_ node: JSONNode, field: String) throws -> ExpressionType {
        switch node.value {
        case .number: return .number
        case .bool: return .boolean
        case .array: return .color
        case .string(let text):
            if text.hasPrefix("#") { return .color }
            // Compiled once here for its type only; unknown names are reported by the real compile.
            return (try? SceneExpression(text, in: scope, expecting: nil).type) ?? .number
        case .object(let list):
            if let values = list.first(where: { $0.key == "values" }), case .array(let items) = values.value.value, let first = items.first {
                return try inferredType(first, field: field)
            }
            if let cases = list.first(where: { $0.key == "cases" }), case .object(let options) = cases.value.value, let first = options.first {
                return try inferredType(first.value, field: field)
            }
            return .number
        case .null: throw fail(node, "\(field) is null")
        }
    }

    // MARK: - Parameters

    /// The bounds of a number by its unit (docs/scene-files.md §3).
    static func unitLimit(_ unit: String) -> (Double, Double) {
        switch unit {
        case "pt": return (-Limits.length, Limits.length)
        case "s": return (-Limits.time, Limits.time)
        case "pt/s": return (-Limits.rate, Limits.rate)
        default: return (-1_000_000, 1_000_000)
        }
    }

    /// A parameter's declaration, its name declared in the scope.
    mutating func parameter(_ node: JSONNode, index k: Int) throws -> SceneDefinition.Parameter {
        let field = "parameters[\(k)]"
        let m = try members(node, field, known: ["name", "type", "unit", "summary", "default", "optional", "unset", "derive",
                                                 "range", "sample", "within", "choices", "note"], required: ["name", "type"])
        let name = try string(m["name"], "\(field).name")!
        try declareName(name, at: m["name"]!.value, "parameter")
        let typeName = try string(m["type"], "\(field).type")!
        guard let type = SceneDefinition.ParameterType(rawValue: typeName) else {
            var message = "unknown \(field).type '\(ThrobberError.echoed(typeName))'"
            let known = SceneDefinition.ParameterType.allCases.map(\.rawValue)
            if let nearest = nearestName(to: typeName, in: known) { message += "; did you mean '\(nearest)'?" }
            throw fail(m["type"]!.value, message + " (known: \(known.joined(separator: ", ")))")
        }
        let unit = try string(m["unit"], "\(field).unit") ?? ""
        let optional = try bool(m["optional"], "\(field).optional") ?? false
        let shown = "\(field) '\(name)'"
        if optional {
            guard m["derive"] != nil, m["unset"] != nil else { throw fail(node, "\(shown) is optional: give \"unset\" (its words when unset) and \"derive\"") }
            guard m["default"] == nil else { throw fail(m["default"]!, "\(shown) is optional: its value when unset comes from \"derive\", not \"default\"") }
        } else {
            guard m["default"] != nil else { throw fail(node, "\(shown) needs \"default\" (or \"optional\": true with \"derive\")") }
            for key in ["derive", "unset"] where m[key] != nil { throw fail(m[key]!, "\(shown) has \"\(key)\" but is not optional") }
        }
        if type.pair != nil, optional {
            throw fail(m["optional"]!, "\(shown) is a \(type.rawValue): it always holds a value, so it is not optional")
        }
        let (lowest, highest) = Self.unitLimit(type == .integer ? "integer" : type == .size ? "pt" : unit)
        var range = NumberRange.atLeastAtMost(lowest, highest)
        var integerRange = Int(lowest)...Int(highest)
        var choices: [String] = []
        if let rangeNode = m["range"]?.value {
            guard type == .number || type == .integer || type.pair != nil else {
                throw fail(rangeNode, "\(shown) is \(type.rawValue): only numbers, integers, sizes and vectors have a range")
            }
            let r = try members(rangeNode, "\(field).range", known: ["min", "minInclusive", "max", "maxInclusive"], required: ["min", "max"])
            let low = try number(r["min"], "\(field).range.min")!, high = try number(r["max"], "\(field).range.max")!
            let lowIn = try bool(r["minInclusive"], "\(field).range.minInclusive") ?? true
            let highIn = try bool(r["maxInclusive"], "\(field).range.maxInclusive") ?? true
            guard low >= lowest, high <= highest, low <= high else {
                throw fail(rangeNode, "invalid \(field).range [\(formatNumber(low)), \(formatNumber(high))]: a range within "
                           + "[\(formatNumber(lowest)), \(formatNumber(highest))] for unit '\(unit)', its min at most its max")
            }
            // An open end is the next double inside it, so the range stays exact.
            let top = highIn ? high : high.nextDown
            range = !lowIn && highIn ? .aboveAtMost(low, high) : .atLeastAtMost(lowIn ? low : low.nextUp, top)
            if type == .integer {
                let lo = Int((lowIn ? low : low + 1).rounded(.up)), hi = Int((highIn ? high : high - 1).rounded(.down))
                guard lo <= hi else { throw fail(rangeNode, "invalid \(field).range: it holds no integer") }
                integerRange = lo...hi
            }
        }
        if let choiceNode = m["choices"]?.value {
            guard type == .choice else { throw fail(choiceNode, "\(shown) is \(type.rawValue): only a choice has choices") }
            choices = try array(choiceNode, "\(field).choices").map { item -> String in
                guard case .string(let s) = item.value, ExpressionParserNames.isChoice(s) else {
                    throw fail(item, "\(field).choices holds \(item.typeName == "a string" ? "an invalid name" : item.typeName): give names of letters, digits, '-' or '_'")
                }
                return s
            }
            guard !choices.isEmpty, Set(choices).count == choices.count else { throw fail(choiceNode, "\(field).choices must list distinct names") }
        } else if type == .choice {
            throw fail(node, "\(shown) is a choice: give \"choices\"")
        }
        var sample: SamplingRange?
        if let sampleNode = m["sample"]?.value {
            guard type == .number || type == .integer || type.pair != nil else {
                throw fail(sampleNode, "\(shown) is \(type.rawValue): only numbers, integers, sizes and vectors have a sample range")
            }
            let s = try members(sampleNode, "\(field).sample", known: ["min", "max", "logFrom"], required: ["min", "max"])
            let low = try number(s["min"], "\(field).sample.min")!, high = try number(s["max"], "\(field).sample.max")!
            let logFrom = try number(s["logFrom"], "\(field).sample.logFrom")
            let drawn = logFrom.map { SamplingRange.logarithmic(low, high, from: $0) } ?? .linear(low, high)
            guard drawn.isFinite, range.contains(low) || (type == .integer && integerRange.contains(Int(low))),
                  range.contains(high) || (type == .integer && integerRange.contains(Int(high))) else {
                throw fail(sampleNode, "invalid \(field).sample [\(formatNumber(low)), \(formatNumber(high))]: it must lie inside the range, \(range.text)")
            }
            if let logFrom, !(logFrom > 0) { throw fail(s["logFrom"]!.value, "invalid \(field).sample.logFrom: a number > 0") }
            sample = drawn
        }
        // Declared now so later parameters' expressions can read it.
        let slot = newSlot()
        var secondSlot: Int?
        let expressionType: ExpressionType = type == .color ? .color : type == .choice || type == .string ? .string : .number
        do {
            if let pair = type.pair {
                let second = newSlot()
                secondSlot = second
                try scope.declarePair(name, kind: type.rawValue, fields: pair.fields, slots: [slot, second])
            } else {
                try scope.declare(name, expressionType, slot: slot, choices: type == .choice ? choices : nil)
            }
        } catch {
            throw fail(m["name"]!.value, error.message)
        }
        parameterNames.append(name)
        var parameter = SceneDefinition.Parameter(
            name: name, type: type, unit: unit, summary: try string(m["summary"], "\(field).summary") ?? "",
            defaultValue: nil, unsetMeaning: try string(m["unset"], "\(field).unset"), derive: nil, range: range,
            integerRange: integerRange, choices: choices, sample: sample, withinMin: nil, withinMax: nil, slot: slot,
            secondSlot: secondSlot)
        if let node = m["default"]?.value { parameter.defaultValue = try defaultValue(node, of: parameter, field: "\(field).default") }
        return parameter
    }

    /// A parameter's default: a constant of its type, in its range.
    mutating func defaultValue(_ node: JSONNode, of parameter: SceneDefinition.Parameter, field: String) throws -> ExpressionValue {
        let place = "\(ThrobberError.shownPath(path)):\(node.line):\(node.column)"
        let invalid = { (shown: String, allowed: String) in
            ThrobberError("\(place): invalid \(field) \(shown): \(parameter.name) is \(allowed)", kind: .badData)
        }
        switch parameter.type {
        case .number, .integer:
            guard case .number(let v, _) = node.value else { throw invalid(node.typeName, "a number") }
            if parameter.type == .integer {
                guard v == v.rounded(), parameter.integerRange.contains(Int(exactly: v) ?? Int.min) else {
                    throw invalid(formatNumber(v), "an integer in [\(parameter.integerRange.lowerBound), \(parameter.integerRange.upperBound)]")
                }
            } else if !parameter.range.contains(v) {
                throw invalid(formatNumber(v), parameter.range.text)
            }
            return .number(v)
        case .color:
            let source = try source(node, field: field, type: .color, in: ExpressionScope())
            guard case .expression(let e) = source, case .color(let color)? = e.constantValue else {
                // Components written as constant expressions (`"170 / 255"`) fold to a constant.
                var budget = 1000
                if case .components(let parts) = source {
                    let value = try? SceneSource.components(parts).evaluate(ExpressionEnvironment(), budget: &budget)
                    if case .color(let color)? = value { return .color(color) }
                }
                throw invalid(node.typeName, "a constant colour")
            }
            return .color(color)
        case .choice:
            guard case .string(let s) = node.value, parameter.choices.contains(s) else {
                throw invalid(node.typeName, "one of \(parameter.choices.joined(separator: ", "))")
            }
            return .string(s)
        case .size, .vector:
            let style = parameter.type.pair!.style
            let pair: NumberPair?
            switch node.value {
            case .string(let text): pair = NumberPair.parse(text, in: parameter.range)
            case .array(let items) where items.count == 2:
                if case .number(let a, _) = items[0].value, case .number(let b, _) = items[1].value,
                   parameter.range.contains(a), parameter.range.contains(b) { pair = NumberPair(a, b) } else { pair = nil }
            default: pair = nil
            }
            let shown: String
            if case .string(let text) = node.value { shown = "'\(ThrobberError.echoed(text))'" } else { shown = node.typeName }
            guard let pair else { throw invalid(shown, "\(style == .size ? "W×H, e.g. \"390x844\"" : "X,Y, e.g. \"0,-40\"") or [a, b], each \(parameter.range.text)") }
            return .string(pair.text(style))
        case .string:
            guard case .string(let s) = node.value else { throw invalid(node.typeName, "text: \(TextRule.lines.allowed)") }
            do { try TextRule.lines.check(s, field: parameter.name) } catch let error as ThrobberError {
                throw ThrobberError("\(place): invalid \(field): \(error.message)", kind: .badData)
            }
            return .string(s)
        }
    }

    /// `derive` and `within`, compiled once every parameter is declared.
    mutating func finishParameter(_ parameter: inout SceneDefinition.Parameter, _ node: JSONNode, index k: Int) throws {
        let field = "parameters[\(k)]"
        guard case .object(let list) = node.value else { return }
        for member in list {
            switch member.key {
            case "derive":
                let type: ExpressionType = parameter.type == .color ? .color : parameter.type == .choice || parameter.type == .string ? .string : .number
                parameter.derive = try source(member.value, field: "\(field).derive", type: type, in: parameterScope)
            case "within":
                guard parameter.type == .number || parameter.type == .integer else {
                    throw fail(member.value, "\(field) is \(parameter.type.rawValue): only numbers and integers take \"within\"")
                }
                let w = try members(member.value, "\(field).within", known: ["min", "max"])
                parameter.withinMin = try w["min"].map { try staticNumber($0.value, field: "\(field).within.min") }
                parameter.withinMax = try w["max"].map { try staticNumber($0.value, field: "\(field).within.max") }
            default: break
            }
        }
    }
}

/// What a choice may be called: it is compared with `'…'` literals in expressions.
enum ExpressionParserNames {
    static func isChoice(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && !text.contains("'")
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }
}
