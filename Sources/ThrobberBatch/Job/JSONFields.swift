import Throbber

/// Reads the fields of a parsed JSON file (a job file, a manifest) with the file's name, line and
/// column in every message: the types a field must have, and the rules its value must meet
/// (``NumberRule``, ``IntegerRule``), refused as data errors `FILE:LINE:COLUMN: message`.
struct JSONFields {
    /// The file's name, as messages show it.
    let path: String

    /// A data error at `node`'s position.
    func fail(_ node: JSONNode, _ message: String) -> ThrobberError {
        ThrobberError("\(path):\(node.line):\(node.column): \(message)", kind: .badData)
    }

    /// A data error at `member`'s key.
    func fail(_ member: JSONNode.Member, _ message: String) -> ThrobberError {
        ThrobberError("\(path):\(member.keyLine):\(member.keyColumn): \(message)", kind: .badData)
    }

    /// `error` (a rule's, from a value read here or from an initialiser given it) as a data error
    /// at the value of the member it names (``ThrobberError/field``), or at `node` when it names
    /// none or none of `members`.
    /// A file the value names that is missing or unreadable stays a missing input (exit 66), at
    /// the same place.
    func fail(_ error: ThrobberError, in members: [String: JSONNode.Member] = [:], or node: JSONNode) -> ThrobberError {
        var failure = fail(error.field.flatMap { members[$0]?.value } ?? node, error.message)
        if error.kind == .missingInput {
            failure.kind = .missingInput
            failure.code = error.code
        }
        return failure
    }

    /// Runs `body`, refusing its error as ``fail(_:in:or:)`` does.
    func at<T>(_ members: [String: JSONNode.Member] = [:], or node: JSONNode, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ThrobberError {
            throw fail(error, in: members, or: node)
        }
    }

    /// The members of an object, after checking every key is known.
    func members(_ node: JSONNode, _ what: String, known: [String]) throws -> [String: JSONNode.Member] {
        guard case .object(let members) = node.value else { throw fail(node, "\(what) must be an object, not \(node.typeName)") }
        var result: [String: JSONNode.Member] = [:]
        for member in members {
            guard known.contains(member.key) else {
                var message = "unknown key \"\(ThrobberError.echoed(member.key))\" in \(what)"
                if let nearest = nearestName(to: member.key, in: known) { message += "; did you mean \"\(nearest)\"?" }
                throw fail(member, message + " (known: \(known.joined(separator: ", ")))")
            }
            result[member.key] = member
        }
        return result
    }

    /// A number the rule allows, named by its key.
    func number(_ member: JSONNode.Member?, _ rule: NumberRule) throws -> Double? {
        guard let member else { return nil }
        guard case .number(let value, let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be a number, not \(member.value.typeName)")
        }
        return try at(or: member.value) { try rule.check(value, shown: text) }
    }

    /// A number in `range`.
    func number(_ member: JSONNode.Member?, _ range: NumberRange) throws -> Double? {
        guard let member else { return nil }
        return try number(member, NumberRule(member.key, range))
    }

    /// An integer the rule allows.
    func integer(_ member: JSONNode.Member?, _ rule: IntegerRule) throws -> Int? {
        guard let member else { return nil }
        guard case .number(let value, let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be \(rule.allowed), not \(member.value.typeName)")
        }
        return try at(or: member.value) { try rule.check(value, shown: text) }
    }

    /// An integer in `range`.
    func integer(_ member: JSONNode.Member?, _ range: ClosedRange<Int>) throws -> Int? {
        guard let member else { return nil }
        return try integer(member, IntegerRule(member.key, range))
    }

    func string(_ member: JSONNode.Member?) throws -> String? {
        guard let member else { return nil }
        guard case .string(let text) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be a string, not \(member.value.typeName)")
        }
        return text
    }

    func bool(_ member: JSONNode.Member?) throws -> Bool? {
        guard let member else { return nil }
        guard case .bool(let value) = member.value.value else {
            throw fail(member.value, "\"\(member.key)\" must be true or false, not \(member.value.typeName)")
        }
        return value
    }
}
