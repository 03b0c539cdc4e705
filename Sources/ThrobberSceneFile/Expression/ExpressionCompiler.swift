import Throbber

/// Turns a parsed expression into a compiled tree: resolves names to slots, checks types and
/// arity, and folds every sub-tree that reads no names into a literal (docs/scene-files.md §6).
///
/// Folding evaluates each constant sub-tree once, bottom-up, so a constant part that would
/// fail (`1/0`, `sqrt(-1)`) fails here, as a compile error, even in a branch that a condition
/// might never take: folding never hides an error, and never moves one to a later frame.
struct ExpressionCompiler {
    let scope: ExpressionScope
    let source: String

    /// Compiles `syntax`, parsed from `source`, in `scope`.
    func compile(_ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        let node = try build(syntax)
        return try fold(node)
    }

    // MARK: Messages

    private func text(_ syntax: ExpressionSyntax) -> String {
        ExpressionError.quoted(ExpressionError.excerpt(source, syntax.start, syntax.end))
    }

    private func error(_ kind: ExpressionError.Kind, _ message: String, at offset: Int) -> ExpressionError {
        ExpressionError(kind, message, offset: offset, source: source)
    }

    /// `'size / 6' is a number where a colour is expected`.
    private func mismatch(_ syntax: ExpressionSyntax, is type: ExpressionType, expected: String, why: String = "") -> ExpressionError {
        error(.type, "\(text(syntax)) is \(type) where \(expected) is expected\(why)", at: syntax.start)
    }

    /// Builds `syntax` and checks that it has `type`.
    private func build(_ syntax: ExpressionSyntax, as type: ExpressionType, why: String = "") throws(ExpressionError) -> ExpressionNode {
        let node = try build(syntax)
        guard node.type == type else { throw mismatch(syntax, is: node.type, expected: type.description, why: why) }
        return node
    }

    // MARK: Building

    private func node(_ operation: ExpressionNode.Operation, _ type: ExpressionType, _ syntax: ExpressionSyntax) -> ExpressionNode {
        ExpressionNode(operation: operation, type: type, start: syntax.start, end: syntax.end)
    }

    private func build(_ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        switch syntax.form {
        case .number(let value):
            return node(.literal(.number(value)), .number, syntax)
        case .string:
            throw error(.type, "\(text(syntax)) is a string literal, which can only be compared with '==' or '!=' to a string name",
                        at: syntax.start)
        case .name(let name):
            return try resolveName(name, syntax)
        case .field(let name, let field, let fieldOffset):
            return try resolveField(name, field, fieldOffset, syntax)
        case .call(let function, let arguments):
            return try resolveCall(function, arguments, syntax)
        case .negate(let x):
            return node(.negate(try build(x, as: .number)), .number, syntax)
        case .not(let x):
            return node(.not(try build(x, as: .boolean)), .boolean, syntax)
        case .binary(let op, let l, let r):
            switch op {
            case .add, .subtract, .multiply, .divide:
                return node(.numeric(op, try build(l, as: .number), try build(r, as: .number)), .number, syntax)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                return node(.numeric(op, try build(l, as: .number), try build(r, as: .number)), .boolean, syntax)
            case .and:
                return node(.and(try build(l, as: .boolean), try build(r, as: .boolean)), .boolean, syntax)
            case .or:
                return node(.or(try build(l, as: .boolean), try build(r, as: .boolean)), .boolean, syntax)
            case .equal, .notEqual:
                return try equality(l, r, negated: op == .notEqual, syntax)
            }
        case .conditional(let c, let a, let b):
            let condition = try build(c, as: .boolean, why: " (the condition of '?:')")
            let whenTrue = try build(a)
            let whenFalse = try build(b, as: whenTrue.type, why: " (both branches of '?:' have one type)")
            return node(.conditional(condition, whenTrue, whenFalse), whenTrue.type, syntax)
        }
    }

    private func knownNames() -> String {
        scope.names.isEmpty ? "no names are known here" : "known here: " + scope.names.joined(separator: ", ")
    }

    private func resolveName(_ name: String, _ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        if let constant = ExpressionScope.constants[name] {
            return node(.literal(constant), constant.type, syntax)
        }
        switch scope.binding(for: name) {
        case .value(let type, let slot, _):
            return node(.read(slot: slot, name: name), type, syntax)
        case .clock:
            let fields = ExpressionClockSlots.fieldNames.map { "'\(name).\($0)'" }
            throw error(.unknownField, "'\(name)' is a clock: read one of its fields, "
                + fields.dropLast().joined(separator: ", ") + " or " + fields.last!, at: syntax.start)
        case .pair(let kind, let fields, _):
            throw error(.unknownField, "'\(name)' is a \(kind): read '\(name).\(fields[0])' or '\(name).\(fields[1])'", at: syntax.start)
        case nil:
            if ExpressionFunctions.Function(rawValue: name) != nil {
                throw error(.type, "'\(name)' is a function: call it as '\(name)(…)'", at: syntax.start)
            }
            var message = "unknown name \(ExpressionError.quoted(name))"
            if let nearest = nearestName(to: name, in: scope.names + ["pi", "true", "false"]) {
                message += "; did you mean '\(nearest)'?"
            }
            throw error(.unknownName, message + " (\(knownNames()))", at: syntax.start)
        }
    }

    private func resolveField(_ name: String, _ field: String, _ fieldOffset: Int, _ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        let type: ExpressionType
        switch scope.binding(for: name) {
        case .clock(let slots):
            guard let slot = slots.slot(forField: field) else {
                var message = "clock '\(name)' has no field \(ExpressionError.quoted(field))"
                if let nearest = nearestName(to: field, in: ExpressionClockSlots.fieldNames) {
                    message += "; did you mean '\(nearest)'?"
                }
                throw error(.unknownField, message + " (fields: \(ExpressionClockSlots.fieldNames.joined(separator: ", ")))",
                            at: fieldOffset)
            }
            return node(.read(slot: slot, name: "\(name).\(field)"), .number, syntax)
        case .pair(let kind, let fields, let slots):
            guard let index = fields.firstIndex(of: field) else {
                var message = "\(kind) '\(name)' has no field \(ExpressionError.quoted(field))"
                if let nearest = nearestName(to: field, in: fields) { message += "; did you mean '\(nearest)'?" }
                throw error(.unknownField, message + " (fields: \(fields.joined(separator: ", ")))", at: fieldOffset)
            }
            return node(.read(slot: slots[index], name: "\(name).\(field)"), .number, syntax)
        case .value(let valueType, _, _):
            type = valueType
        case nil:
            // Not a clock here: an unknown name is reported as such, a constant or a function below.
            let nameSyntax = ExpressionSyntax(form: .name(name), start: syntax.start, end: syntax.start + name.unicodeScalars.count)
            type = try resolveName(name, nameSyntax).type
        }
        throw error(.unknownField, "'\(name)' is \(type), not a clock, and has no fields; only a clock has fields "
            + "(\(ExpressionClockSlots.fieldNames.joined(separator: ", ")))", at: fieldOffset)
    }

    private func resolveCall(_ name: String, _ arguments: [ExpressionSyntax], _ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        guard let function = ExpressionFunctions.Function(rawValue: name) else {
            if let constant = ExpressionScope.constants[name] {
                throw error(.type, "'\(name)' is \(constant.type), not a function", at: syntax.start)
            }
            switch scope.binding(for: name) {
            case .value(let type, _, _):
                throw error(.type, "'\(name)' is \(type), not a function", at: syntax.start)
            case .clock:
                throw error(.type, "'\(name)' is a clock, not a function", at: syntax.start)
            case .pair(let kind, _, _):
                throw error(.type, "'\(name)' is a \(kind), not a function", at: syntax.start)
            case nil:
                let all = ExpressionFunctions.Function.allCases.map(\.rawValue)
                var message = "unknown function \(ExpressionError.quoted(name))"
                if let nearest = nearestName(to: name, in: all) {
                    message += "; did you mean '\(nearest)'?"
                }
                throw error(.unknownFunction, message + " (functions: \(all.joined(separator: ", ")))", at: syntax.start)
            }
        }
        let signature = ExpressionFunctions.signature(of: function)
        let count = arguments.count
        if signature.isVariadic {
            guard count >= 2 else {
                throw error(.arity, "'\(name)' takes 2 or more arguments, not \(count)", at: syntax.start)
            }
        } else if count != signature.parameters.count {
            let names = signature.parameters.map(\.name).joined(separator: ", ")
            let noun = signature.parameters.count == 1 ? "argument" : "arguments"
            throw error(.arity, "'\(name)' takes \(signature.parameters.count) \(noun) (\(names)), not \(count)", at: syntax.start)
        }
        var nodes: [ExpressionNode] = []
        for (index, argument) in arguments.enumerated() {
            let parameter = signature.isVariadic ? signature.parameters[0] : signature.parameters[index]
            nodes.append(try build(argument, as: parameter.type, why: " (argument \(parameter.name) of '\(name)')"))
        }
        return node(.call(function, nodes), signature.result, syntax)
    }

    /// `==` and `!=`: two numbers, two booleans, or a string name and a string literal in
    /// either order; a choice name is checked against its choices.
    private func equality(_ l: ExpressionSyntax, _ r: ExpressionSyntax, negated: Bool,
                          _ syntax: ExpressionSyntax) throws(ExpressionError) -> ExpressionNode {
        let rule = " ('==' and '!=' take two numbers, two booleans, or a string name and a string literal)"
        var literalSide: (syntax: ExpressionSyntax, text: String)?
        var otherSide = l
        if case .string(let value) = r.form {
            literalSide = (r, value)
        }
        if case .string(let value) = l.form {
            if literalSide != nil {
                throw error(.type, "\(text(l)) and \(text(r)) are both string literals\(rule)", at: l.start)
            }
            literalSide = (l, value)
            otherSide = r
        }
        if let (literalSyntax, literal) = literalSide {
            guard case .name(let name) = otherSide.form, case .value(.string, let slot, let choices) = scope.binding(for: name) else {
                let other = try build(otherSide)
                throw error(.type, "\(text(otherSide)) is \(other.type) where a string name is expected\(rule)", at: otherSide.start)
            }
            if let choices, !choices.contains(literal) {
                var message = "'\(name)' is never \(ExpressionError.quoted(literal))"
                if let nearest = nearestName(to: literal, in: choices) {
                    message += "; did you mean '\(nearest)'?"
                }
                throw error(.unknownChoice, message + " (choices: \(choices.joined(separator: ", ")))", at: literalSyntax.start)
            }
            let read = node(.read(slot: slot, name: name), .string, otherSide)
            let constant = node(.literal(.string(literal)), .string, literalSyntax)
            let operands = literalSyntax.start < otherSide.start ? (constant, read) : (read, constant)
            return node(.equal(operands.0, operands.1, negated: negated), .boolean, syntax)
        }
        let left = try build(l)
        switch left.type {
        case .number, .boolean:
            let right = try build(r, as: left.type, why: rule)
            return node(.equal(left, right, negated: negated), .boolean, syntax)
        case .color, .string:
            let what = left.type == .color ? "a colour" : "a string that is not compared with a string literal"
            throw error(.type, "\(text(l)) is \(what)\(rule)", at: l.start)
        }
    }

    // MARK: Folding

    /// `node` with every sub-tree that reads no names replaced by its value.
    private func fold(_ node: ExpressionNode) throws(ExpressionError) -> ExpressionNode {
        var folded = node
        switch node.operation {
        case .literal, .read:
            return node
        case .negate(let x):
            folded.operation = .negate(try fold(x))
        case .not(let x):
            folded.operation = .not(try fold(x))
        case .numeric(let op, let a, let b):
            folded.operation = .numeric(op, try fold(a), try fold(b))
        case .equal(let a, let b, let negated):
            folded.operation = .equal(try fold(a), try fold(b), negated: negated)
        case .and(let a, let b):
            folded.operation = .and(try fold(a), try fold(b))
        case .or(let a, let b):
            folded.operation = .or(try fold(a), try fold(b))
        case .conditional(let c, let a, let b):
            folded.operation = .conditional(try fold(c), try fold(a), try fold(b))
        case .call(let function, let arguments):
            var nodes: [ExpressionNode] = []
            for argument in arguments { nodes.append(try fold(argument)) }
            folded.operation = .call(function, nodes)
        }
        guard folded.children.allSatisfy({ $0.literal != nil }) else { return folded }
        // Every operand is known: evaluate once, with no slots, and keep the value. The
        // budget only has to cover one node; the operands are literals.
        var evaluator = ExpressionEvaluator(values: [], source: source, budget: SceneExpression.maximumNodes)
        folded.operation = .literal(try evaluator.value(folded))
        return folded
    }
}
