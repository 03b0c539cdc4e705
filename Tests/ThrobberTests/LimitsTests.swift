import Foundation
import Testing
@testable import Throbber

/// Issue 14: bounds by design. Every parameter declares a finite range, derived counts go
/// through one checked conversion, and the core refuses what would trap, overflow or hang.
struct LimitsTests {
    @Test func everyNumericParameterHasABoundedRange() {
        func check<Model: BuiltInScene>(_ type: Model.Type) {
            for parameter in Model.parameters {
                switch parameter.kind {
                case .number(_, let range), .optionalNumber(_, let range, _), .pair(_, let range, _, _), .numberOrKeyword(_, let range, _, _):
                    #expect(range.isBounded, "\(Model.id) \(parameter.name) accepts \(range.text)")
                    #expect(!parameter.accepts(1e308) && !parameter.accepts(-1e308), "\(Model.id) \(parameter.name)")
                case .integer, .color, .optionalColor, .choice, .text:
                    break
                }
            }
        }
        // Every scene the tool knows, so a scene added later is checked too.
        for model in SceneRegistry.all { check(model) }
    }

    @Test func everySamplingRangeLiesWithinTheParseRange() {
        func check<Model: BuiltInScene>(_ type: Model.Type) {
            for parameter in Model.parameters {
                guard let range = parameter.samplingRange else { continue }
                #expect(parameter.accepts(range.low) && parameter.accepts(range.high), "\(Model.id) \(parameter.name): \(range)")
            }
        }
        // Every scene the tool knows, so a scene added later is checked too.
        for model in SceneRegistry.all { check(model) }
    }

    @Test(arguments: [1e300, .infinity, .nan, 10_000_000.6])
    func checkedCountNamesTheFieldTheValueAndTheLimit(value: Double) {
        #expect {
            try Limits.count(value, "duration × fps", limit: Limits.frames)
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains("duration × fps") && error.message.contains("at most 10000000")
        }
    }

    @Test func checkedCountRoundsWhatFits() throws {
        #expect(try Limits.count(2.4, "x", limit: 3) == 2)
        #expect(try Limits.count(2.6, "x", limit: 3) == 3)
        #expect(try Limits.count(-0.4, "x", limit: 3) == 0)
    }

    @Test func loopPlansRefuseCountsBeyondTheirLimits() throws {
        // One frame at 1e-300 fps lasts 1e300 s: the cycles of a 1 s part would not fit an Int.
        #expect(throws: ThrobberError.self) { try LoopPlan(parts: [PeriodicPart("turn", period: 1)], seconds: 1, fps: 1e-300) }
        #expect(throws: ThrobberError.self) { try LoopPlan(parts: [], seconds: 1e20, fps: 60) }
        // A part far faster than the loop is frames: its cycles are checked too.
        #expect(throws: ThrobberError.self) { try LoopPlan(parts: [PeriodicPart("fast", period: 1e-300)], seconds: 1, fps: 60) }
        let plan = try LoopPlan(parts: [PeriodicPart("turn", period: 1)], seconds: 2, fps: 30)
        #expect(plan.frames == 60 && plan.changes.first?.cycles == 2)
    }

    @Test func previewSheetSizesAreChecked() throws {
        try ContactSheet.checkSize(frames: 8, frameWidth: 300, frameHeight: 300, columns: 4)
        // 400 frames of a 16384 px canvas would hold 400 GiB of frames.
        #expect {
            try ContactSheet.checkSize(frames: 400, frameWidth: 16384, frameHeight: 16384, columns: 20)
        } throws: { error in
            let error = error as! ThrobberError
            return error.kind == .usage && error.message.contains("400 frames of 16384×16384 px") && error.message.contains("65535 px a side")
        }
    }

    @Test func jsonNestingIsLimited() throws {
        _ = try JSONNode.parse(String(repeating: "[", count: Limits.jsonDepth) + String(repeating: "]", count: Limits.jsonDepth))
        let deep = String(repeating: "{\"a\":", count: Limits.jsonDepth + 1) + "1" + String(repeating: "}", count: Limits.jsonDepth + 1)
        #expect {
            try JSONNode.parse(deep)
        } throws: { error in
            let error = error as! JSONParseError
            return error.line == 1 && error.column == 5 * Limits.jsonDepth + 1 && error.message.contains("deeper than \(Limits.jsonDepth)")
        }
    }

    /// Issue 46: a character outside the BMP escaped as a surrogate pair is that character; a
    /// surrogate alone is refused at its place, never drawn as U+FFFD.
    @Test(arguments: [0x10000, 0x1F600, 0x10FFFF, 0xE9, 0xFFFD, 0xD7FF, 0xE000])
    func jsonEscapesMakeCharacters(code: Int) throws {
        let escaped = code < 0x10000 ? String(format: "\\u%04X", code)
            : String(format: "\\u%04X\\u%04X", 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF))
        let node = try JSONNode.parse("[\"\(escaped)\"]")
        guard case .array(let items) = node.value, case .string(let text) = items.first?.value else { Issue.record("\(node)"); return }
        #expect(text.unicodeScalars.map(\.value) == [UInt32(code)])
    }

    @Test(arguments: ["\\uD800", "\\uDBFFx", "\\uD83D\\u0041", "\\uDC00", "\\uDE00\\uD83D", "\\uD83D\\n"])
    func loneSurrogatesAreRefused(escaped: String) {
        #expect {
            try JSONNode.parse("[\"ab\(escaped)\"]")
        } throws: { error in
            let error = error as! JSONParseError
            return error.line == 1 && error.message.contains("surrogate")
        }
    }

    @Test func echoedValuesAreShortAndOneLine() {
        #expect(ThrobberError.echoed("short") == "short")
        let long = String(repeating: "x", count: 1000)
        #expect(ThrobberError.echoed(long) == String(repeating: "x", count: 60) + "… (1000 chars)")
        #expect(ThrobberError.echoed("a\nb") == "a\\nb")
        // Line breaks a terminal or a splitlines() honours: NEL, LINE and PARAGRAPH SEPARATOR.
        for separator in ["\u{85}", "\u{2028}", "\u{2029}"] { #expect(!ThrobberError.echoed("a\(separator)b").contains(separator)) }
        #expect(ThrobberError.invalid(long, long, allowed: "y").message.count < 200)
        // A huge unknown name gets no suggestion (its edit distance alone would take minutes).
        #expect(nearestName(to: String(repeating: "r", count: 1_000_000), in: ["ring"]) == nil)
    }

    @Test func sceneScaleIsBounded() throws {
        #expect(throws: ThrobberError.self) { try Scene().setting("scale", to: "1e300") }
        #expect(throws: ThrobberError.self) { try Scene(WaveBall(), scale: 1e300).validate() }
        _ = try Scene().setting("scale", to: "64")
    }

    @Test func boxWorkPerFrameIsBounded() throws {
        var model = WaveBall()
        model.tickCount = 10_000
        model.tickWidth = 100_000
        #expect {
            try Scene(model).validate()
        } throws: { error in
            let message = (error as! ThrobberError).message
            return message.contains("tickCount 10000") && message.contains("tickWidth 100000") && message.contains("\(Limits.boxPixelsPerFrame)")
        }
        // The defaults at the largest ordinary tick count stay far inside.
        model.tickWidth = 2
        try Scene(model, scale: 3).validate()
    }

    @Test func sceneTimeMathsCannotTrapOnModelsBuiltInCode() {
        // Models built in code skip parsing; their state must still be computable.
        var pull = PullWave()
        pull.pull = 1e308
        #expect(pull.times == 7)
        var activity = Activity()
        activity.secondsPerLoop = .leastNonzeroMagnitude
        // t · 12 / secondsPerLoop overflows to infinity: no step, and no trap.
        #expect(activity.tick(at: 1e6) == 0)
        var wave = DoubleWave()
        wave.amplitudeRate = 1e300
        wave.speeds.factors["amplitude"] = 1e300
        #expect(wave.frameState(at: 1e6).amplitude.isFinite)
    }

    /// Found by scripts/fuzz: job sites that quoted a value without `echoed` (an output type of
    /// 100,000 characters, a pattern holding a newline) made a message of 100 KB or two lines.
    @Test(arguments: [ThrobberError.Kind.usage, .badData, .missingInput, .cannotCreate, .io])
    func aMessageAboutInputIsOneBoundedLine(kind: ThrobberError.Kind) {
        let error = ThrobberError("invalid pattern \"a\nb\" and \(String(repeating: "y", count: 100_000))", kind: kind)
        #expect(!error.message.contains("\n"))
        #expect(error.message.hasPrefix("invalid pattern \"a\\nb\""))
        #expect(error.message.count <= ThrobberError.longestMessage + 40, "\(error.message.count) characters")
        // A driver's compile log (70) keeps its lines.
        #expect(ThrobberError("log:\nline 2", kind: .backendFailure).message == "log:\nline 2")
    }
}
