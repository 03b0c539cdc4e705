import Foundation
import Testing
@testable import Throbber
@testable import ThrobberSceneFile

/// Compile errors, limits and budgets of the expression language (docs/scene-files.md §6).
extension SceneExpressionTests {
    // MARK: Compile errors

    @Test(arguments: [
        ("dotsize + 1", ExpressionError.Kind.unknownName, 0,
         "unknown name 'dotsize'; did you mean 'dotSize'? (known here: dotSize, gap, size, a, b, p, flag, leafColor, mode, caption, t, spin, i, tick)"),
        ("dotSize / ", .syntax, 10, "expression 'dotSize / ' ends where a number, a name or '(' was expected"),
        ("", .syntax, 0, "expression '' ends where a number, a name or '(' was expected"),
        ("(1 + 2", .syntax, 6, "ends where an operator or ')' was expected"),
        ("2 3", .syntax, 2, "expression '2 3' has '3' at offset 2 where an operator or the end was expected"),
        ("min(1 2)", .syntax, 6, "where an operator, ',' or ')' was expected"),
        ("flag ? 1 2", .syntax, 9, "where an operator or ':' was expected"),
        ("spin.", .syntax, 5, "ends where a field name was expected"),
        ("1 < 2 < 3", .syntax, 6, "chains comparisons with '<' at offset 6"),
        ("a # b", .syntax, 2, "'#' at offset 2, which is not part of the language"),
        ("a = b", .syntax, 2, "compare with '=='"),
        ("a & b", .syntax, 2, "'and' is '&&'"),
        ("1. + 2", .syntax, 0, "digits must follow '.'"),
        ("2 * 1e+", .syntax, 4, "digits must follow the exponent"),
        ("1e999", .syntax, 0, "too large for a number"),
        ("mode == 'abc", .syntax, 8, "has a string at offset 8 with no closing"),
        ("sinn(1)", .unknownFunction, 0, "unknown function 'sinn'; did you mean 'sin'? (functions: floor, ceil,"),
        ("clamp(1, 2)", .arity, 0, "'clamp' takes 3 arguments (x, lo, hi), not 2"),
        ("1 + floor()", .arity, 4, "'floor' takes 1 argument (x), not 0"),
        ("max(a)", .arity, 0, "'max' takes 2 or more arguments, not 1"),
        ("spin.tt", .unknownField, 5, "clock 'spin' has no field 'tt'; did you mean 't'? (fields: t, u, n, period)"),
        ("size.t", .unknownField, 5, "'size' is a number, not a clock, and has no fields"),
        ("spin + 1", .unknownField, 0, "'spin' is a clock: read one of its fields, 'spin.t', 'spin.u', 'spin.n' or 'spin.period'"),
        ("nope.t", .unknownName, 0, "unknown name 'nope'"),
        ("(1 < 2) + 1", .type, 0, "'(1 < 2)' is a boolean where a number is expected"),
        ("leafColor * 2", .type, 0, "'leafColor' is a colour where a number is expected"),
        ("flag ? 1 : leafColor", .type, 11, "'leafColor' is a colour where a number is expected (both branches of '?:' have one type)"),
        ("a ? 1 : 2", .type, 0, "'a' is a number where a boolean is expected (the condition of '?:')"),
        ("!a", .type, 1, "'a' is a number where a boolean is expected"),
        ("true && 1", .type, 8, "'1' is a number where a boolean is expected"),
        ("a == true", .type, 5, "'true' is a boolean where a number is expected"),
        ("a == 'x'", .type, 0, "'a' is a number where a string name is expected"),
        ("'x' == 'y'", .type, 0, "both string literals"),
        ("caption == caption", .type, 0, "'caption' is a string that is not compared with a string literal"),
        ("leafColor != leafColor", .type, 0, "'leafColor' is a colour"),
        ("'x'", .type, 0, "is a string literal, which can only be compared"),
        ("utf16Length('abc')", .type, 12, "is a string literal"),
        ("withAlpha(a, 1)", .type, 10, "'a' is a number where a colour is expected (argument c of 'withAlpha')"),
        ("sin + 1", .type, 0, "'sin' is a function: call it as 'sin(…)'"),
        ("a(1)", .type, 0, "'a' is a number, not a function"),
        ("mode == 'sprial'", .unknownChoice, 8, "'mode' is never 'sprial'; did you mean 'spiral'? (choices: spiral, dots)"),
    ])
    func compileErrorsSayWhatAndWhere(text: String, kind: ExpressionError.Kind, offset: Int, fragment: String) {
        let error = compileError(text)
        #expect(error?.kind == kind, "\(text): \(error?.message ?? "compiled")")
        #expect(error?.offset == offset, "\(text): \(error?.message ?? "compiled")")
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "compiled")")
    }

    @Test func theExpectedTypeIsChecked() throws {
        let error = compileError("size / 6", expecting: .color)
        #expect(error?.kind == .type && error?.message == "'size / 6' is a number where a colour is expected")
        #expect(try compile("size / 6", expecting: .number).type == .number)
        #expect(try compile("leafColor", expecting: .color).type == .color)
        // The typed convenience refuses another type.
        var budget = 100
        #expect(throws: ExpressionError.self) { try compile("size").color(in: Self.environment, budget: &budget) }
    }

    @Test func longTextIsEchoedShortened() {
        let text = "unknownName" + String(repeating: " + 1", count: 40)
        let message = compileError(text)?.message ?? ""
        #expect(message.contains("unknown name 'unknownName'"))
        let syntax = compileError(String(repeating: "1 + ", count: 40))?.message ?? ""
        #expect(syntax.contains("… (160 chars)") && syntax.count < 200, "\(syntax)")
    }

    // MARK: Limits

    @Test func lengthLimit() {
        let longest = "1" + String(repeating: " ", count: SceneExpression.maximumLength - 1)
        #expect(compileError(longest) == nil)
        let error = compileError(longest + " ")
        #expect(error?.kind == .limit && error?.offset == 1000, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("1001 characters long; at most 1000 are allowed") == true)
    }

    @Test func nodeLimit() {
        // a + a + … : one node per name and per operator.
        let allowed = "-a" + String(repeating: "+a", count: 127)
        #expect(compileError(allowed) == nil)
        let tooMany = "a" + String(repeating: "+a", count: 128)
        let error = compileError(tooMany)
        #expect(error?.kind == .limit && error?.offset == 256, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("more than 256 parts") == true)
    }

    @Test(arguments: [
        ("(", ")"),
        ("abs(", ")"),
        ("-", ""),
        ("flag ? ", " : 0"),
    ])
    func depthLimit(open: String, close: String) {
        func nested(_ levels: Int) -> String {
            String(repeating: open, count: levels) + "1" + String(repeating: close, count: levels)
        }
        #expect(compileError(nested(32)) == nil, "\(compileError(nested(32))?.message ?? "")")
        let error = compileError(nested(33))
        #expect(error?.kind == .limit, "\(error?.message ?? "compiled")")
        #expect(error?.message.contains("nests more than 32 levels") == true)
    }

    @Test func depthLimitPointsAtTheLevelTooMany() {
        let error = compileError(String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40))
        #expect(error?.offset == 32)
    }

    // MARK: Budget

    @Test func budgetCountsNodeEvaluations() throws {
        let expression = try compile("a + b * size")
        #expect(expression.nodeCount == 5)
        var budget = 5
        #expect(try expression.number(in: Self.environment, budget: &budget) == 147)
        #expect(budget == 0)
        // Shared over several evaluations: two fit in 12, the third runs out, at the same node each time.
        var offsets: [Int] = []
        for _ in 0..<2 {
            budget = 12
            var evaluations = 0
            do {
                while true {
                    _ = try expression.number(in: Self.environment, budget: &budget)
                    evaluations += 1
                }
            } catch {
                #expect(error.kind == .budget && evaluations == 2 && budget == 0)
                offsets.append(error.offset)
            }
        }
        #expect(offsets == [4, 4])
    }

    @Test func anExhaustedBudgetStopsAtOnce() throws {
        var budget = 0
        #expect(throws: ExpressionError.self) { try compile("1").number(in: Self.environment, budget: &budget) }
    }
}
