import Foundation
import Throbber

/// A file scene's parameters: each one's value through a key path (what `SceneParameter` sets
/// and reads), and what the static expressions give at those values (`Statics`).
extension FileScene {
    /// The static expressions' values at one set of parameters: the parameter environment every
    /// frame starts from, the clocks, the canvas and the loop's numbers.
    struct Statics: Sendable {
        var environment: ExpressionEnvironment
        var clocks: Result<[SceneClock], ThrobberError>
        var canvas: (width: Double, height: Double)
        var loopSeconds: Double?
        var loopFrom: Double?
        var loopPreview: Double?

        static let unset = Statics(environment: ExpressionEnvironment(), clocks: .success([]), canvas: (0, 0))

        init(environment: ExpressionEnvironment, clocks: Result<[SceneClock], ThrobberError>, canvas: (width: Double, height: Double)) {
            self.environment = environment
            self.clocks = clocks
            self.canvas = canvas
        }

        init(_ scene: FileScene) {
            let env = scene.environment()
            let definition = scene.definition
            func number(_ expression: SceneExpression?) -> Double? { (try? scene.staticNumber(expression, in: env)) ?? nil }
            environment = env
            do { clocks = .success(try scene.clocks(in: env)) } catch let error as ThrobberError { clocks = .failure(error) } catch {
                clocks = .failure(ThrobberError("\(ThrobberError.shownPath(definition.path)): \(error)", kind: .badData))
            }
            canvas = (number(definition.canvasWidth) ?? 0, number(definition.canvasHeight) ?? 0)
            loopSeconds = number(definition.loopSeconds)
            loopFrom = number(definition.loopFrom)
            loopPreview = number(definition.loopPreview)
        }
    }

    /// Reads a scene file's text at its defaults.
    ///
    /// - Throws: a `badData` error `FILE:LINE:COLUMN: …` (exit 65 on the command line).
    public init(text: String, path: String) throws {
        self.init(try SceneFileReader.read(text, path: path))
        try checkDefaults()
    }

    public var id: String { definition.id }
    public var summary: String { definition.summary }
    public var relations: [String] { definition.relations.map(\.text) }

    // MARK: - Parameters as key paths

    public subscript(number index: Int) -> Double {
        get { settings[index]?.number ?? 0 }
        set { settings[index] = .number(newValue) }
    }

    public subscript(optionalNumber index: Int) -> Double? {
        get { settings[index]?.number }
        set { settings[index] = newValue.map { .number($0) } }
    }

    public subscript(integer index: Int) -> Int {
        get { Int(settings[index]?.number ?? 0) }
        set { settings[index] = .number(Double(newValue)) }
    }

    public subscript(color index: Int) -> RGBA {
        get { settings[index]?.color ?? .clear }
        set { settings[index] = .color(newValue) }
    }

    public subscript(optionalColor index: Int) -> RGBA? {
        get { settings[index]?.color }
        set { settings[index] = newValue.map { .color($0) } }
    }

    /// A size or vector parameter, kept as its text (`390x844`, `0,-40`).
    public subscript(pair index: Int) -> NumberPair? {
        get {
            guard case .string(let text)? = settings[index] else { return nil }
            return NumberPair.parse(text, in: .any)
        }
        set {
            guard let style = definition.parameters[index].type.pair?.style else { return }
            settings[index] = newValue.map { .string($0.text(style)) }
        }
    }

    public subscript(choice index: Int) -> String {
        get { settings[index]?.string ?? "" }
        set { settings[index] = .string(newValue) }
    }

    public var parameters: [SceneParameter<FileScene>] {
        definition.parameters.enumerated().map { index, p in
            let kind: SceneParameter<FileScene>.Kind
            switch (p.type, p.unsetMeaning) {
            case (.number, nil): kind = .number(\FileScene[number: index], p.range)
            case (.number, let unset?): kind = .optionalNumber(\FileScene[optionalNumber: index], p.range, unsetMeaning: unset)
            case (.integer, _): kind = .integer(\FileScene[integer: index], p.integerRange)
            case (.color, nil): kind = .color(\FileScene[color: index])
            case (.color, let unset?): kind = .optionalColor(\FileScene[optionalColor: index], unsetMeaning: unset)
            case (.choice, _): kind = .choice(\FileScene[choice: index], p.choices)
            case (.string, _): kind = .text(\FileScene[choice: index], .lines)
            case (.size, _), (.vector, _): kind = .pair(\FileScene[pair: index], p.range, p.type.pair!.style, unsetMeaning: nil)
            }
            let within: ((FileScene) -> ClosedRange<Double>)? = p.withinMin == nil && p.withinMax == nil ? nil : { model in
                let env = model.parameterEnvironment()
                var budget = FileScene.budget
                let low = (try? p.withinMin?.number(in: env, budget: &budget)) ?? -Double.infinity
                let high = (try? p.withinMax?.number(in: env, budget: &budget)) ?? Double.infinity
                return low <= high ? low...high : low...low
            }
            return SceneParameter(p.name, kind, unit: p.unit, p.summary, sampling: p.sample, within: within)
        }
    }
}
