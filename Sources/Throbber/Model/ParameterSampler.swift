import Foundation

/// Draws random, valid parity cases: every parameter of a scene from its sampling range, a
/// scale, a background and a time, deterministically for a seed.
///
/// Each number comes from its parameter's `samplingRange`: one of the two end points (zero where
/// allowed, the smallest and largest sampled values), the default, a whole number, or a value
/// spread over the range (log-uniform where the range says so), rounded to four significant
/// digits so that the reproducing command stays readable. Colours get components at 0, at 1 or
/// in between, and alpha 0, 1 or translucent; backgrounds are the scene's own, transparent,
/// opaque or translucent; scales are whole (1, 2, 3) or fractional in [0.3, 3.3]; times are 0,
/// within the first loops, on a frame of a 60 fps clip, or far from 0 (up to 1e5 s).
///
/// Relations between parameters (`SceneModel.validateRelations`) are respected in two steps:
/// a parameter with `samplingBounds` is redrawn within the bounds the others put on it, and a
/// case that still fails `Scene.validate` (or whose canvas is over `maximumPixelSide`) is drawn
/// again, at most `maximumAttempts` times. The scale is redrawn smaller when the canvas would be
/// over `maximumPixelSide`, so random cases render in reasonable time.
///
/// Case `index` of scene `id` depends only on the seed, the id and the index — not on which
/// other scenes or how many cases a run draws — so a failure names its case for good.
public struct ParameterSampler: Sendable {
    /// The seed every case derives from.
    public var seed: UInt64
    /// The largest canvas side, in pixels, of a drawn case.
    public var maximumPixelSide: Int
    /// How many times a case is drawn again before the sampler gives up.
    public static let maximumAttempts = 1000
    /// The scales drawn when the canvas allows: whole scales and fractions in between.
    public static let scaleRange = 0.3...3.3
    /// The latest time drawn, in seconds (a day is 86 400 s).
    public static let latestTime = 1e5
    /// Names that `Scene.setting` takes for the scene itself rather than for its model: a model
    /// parameter of the same name (`background` of the wave strips) is the canvas colour too,
    /// and is drawn as the scene's background.
    public static let sceneSettingNames: Set<String> = ["scale", "background"]

    /// Creates a sampler.
    ///
    /// - Parameters:
    ///   - seed: every case derives from it.
    ///   - maximumPixelSide: the largest canvas side, in pixels, of a drawn case.
    public init(seed: UInt64, maximumPixelSide: Int = 640) {
        self.seed = seed
        self.maximumPixelSide = maximumPixelSide
    }

    /// Draws case `index` of scene `id`.
    ///
    /// - Parameters:
    ///   - id: the scene id.
    ///   - index: the case's number; case `index` is the same whatever else is drawn.
    ///   - fixed: settings applied to every case and never drawn (`--set`), by the names
    ///     `Scene.setting(_:to:)` accepts.
    ///   - times: when given (and not empty), the time is drawn from these instead.
    ///   - scales: when given (and not empty), the scale is drawn from these instead; the
    ///     canvas must then fit `maximumPixelSide` at the scale drawn.
    ///   - prepare: what readies a drawn scene to render (the text module's `layingOutText`),
    ///     kept as the case's `laidOut`: a scene whose layout comes from its text (the HUD's
    ///     status) is only known valid, and its canvas only known, once prepared; a draw it
    ///     rejects is drawn again.
    /// - Returns: a case whose scene is valid (and prepared) and whose canvas is at most `maximumPixelSide` px.
    /// - Throws: a usage error for an unknown scene, an unknown or invalid fixed setting, or
    ///   fixed settings no draw can satisfy within `maximumAttempts`.
    public func draw(_ id: String, index: Int, fixed: [SampledCase.Setting] = [], times: [Double]? = nil,
                     scales: [Double]? = nil, prepare: ((Scene) throws -> LaidOutScene)? = nil) throws -> SampledCase {
        try draw(try SceneRegistry.model(id), index: index, fixed: fixed, times: times, scales: scales, prepare: prepare)
    }

    /// Draws case `index` of the scene `defaults` describes, at its defaults: a built-in or a
    /// scene read from a file, drawn alike (its parameters' sampling ranges, its relations).
    ///
    /// The parameters are those of `draw(_:index:fixed:times:scales:prepare:)`; the case's
    /// seed comes from the scene's id, so case `index` of a scene is the same in every run.
    public func draw(_ defaults: any SceneModel, index: Int, fixed: [SampledCase.Setting] = [], times: [Double]? = nil,
                     scales: [Double]? = nil, prepare: ((Scene) throws -> LaidOutScene)? = nil) throws -> SampledCase {
        let id = defaults.id
        // Checked once, before any draw, so a typo is reported as such, not as failed attempts.
        var check = Scene(defaults)
        for setting in fixed { check = try check.setting(setting.name, to: setting.value) }
        var random = SplitMix64(seed: SplitMix64.mix(SplitMix64.mix(seed &+ ParameterSampler.fnv1a(id)) &+ UInt64(index)))
        var lastError = ThrobberError("no attempt", kind: .usage)
        for _ in 0..<ParameterSampler.maximumAttempts {
            do {
                let (settings, time) = try drawSettings(defaults, random: &random, fixed: fixed, times: times, scales: scales)
                // The scene is rebuilt from the text of its settings, as `render` builds it from
                // the command line, so the case and its reproducing command cannot disagree.
                var scene = Scene(defaults)
                for setting in settings { scene = try scene.setting(setting.name, to: setting.value) }
                scene = try scene.validated()
                let laidOut = try prepare?(scene)
                if let laidOut { scene = laidOut.scene }
                let (width, height) = scene.pixelSize
                guard max(width, height) <= maximumPixelSide else {
                    throw ThrobberError.invalid("canvas", "\(width)×\(height) px",
                                                allowed: "each side at most \(maximumPixelSide) px in a random case")
                }
                return SampledCase(sceneID: id, index: index, scene: scene, laidOut: laidOut, time: time, settings: settings)
            } catch let error as ThrobberError {
                lastError = error
            }
        }
        let pinned = fixed.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        throw ThrobberError("cannot draw a valid \(id) case in \(ParameterSampler.maximumAttempts) attempts"
                            + (pinned.isEmpty ? "" : " with \(pinned)") + "; the last one failed with: \(lastError.message)",
                            kind: .usage)
    }

    /// One attempt: every setting of a case (`scale`, `background`, the parameters that differ
    /// from the defaults) and its time.
    func drawSettings<Model: SceneModel>(_ defaults: Model, random: inout SplitMix64, fixed: [SampledCase.Setting],
                                         times: [Double]?, scales: [Double]?) throws -> ([SampledCase.Setting], Double) {
        let fixedNames = Set(fixed.map(\.name))
        let drawn = defaults.parameters.filter {
            !fixedNames.contains($0.name) && !ParameterSampler.sceneSettingNames.contains($0.name) && !$0.drawnLast
        }
        var model = defaults
        for parameter in drawn { drawValue(of: parameter, into: &model, defaults: defaults, random: &random) }
        model = model.reconciledForSampling()
        for setting in fixed {
            if let parameter = defaults.parameters.first(where: { $0.name == setting.name }),
               !ParameterSampler.sceneSettingNames.contains(setting.name) {
                try parameter.set(setting.value, in: &model)
            }
        }
        // Relations: a drawn value outside the bounds the others put on it is drawn again
        // inside them, now that every other value is known.
        for parameter in drawn {
            guard let bounds = parameter.samplingBounds?(model), let range = parameter.samplingRange,
                  let value = number(of: parameter, in: model), !bounds.contains(value) else { continue }
            let within = SamplingRange(low: max(range.low, bounds.lowerBound), high: min(range.high, bounds.upperBound),
                                       logarithmicFrom: range.logarithmicFrom)
            if within.isFinite {
                setNumber(drawNumber(within, default: nil, whole: isInteger(parameter), random: &random), of: parameter, in: &model)
            } else {
                // The bounds lie outside the sampling range (a fixed value far out): the nearest
                // allowed value; Scene.validate has the last word.
                setNumber(min(max(value, bounds.lowerBound), bounds.upperBound), of: parameter, in: &model)
            }
        }

        var settings: [SampledCase.Setting] = []
        let size = model.canvasSize
        let side = max(size.width, size.height)
        if let scale = fixed.last(where: { $0.name == "scale" }) {
            settings.append(scale)
        } else if let scales, !scales.isEmpty {
            settings.append(.init("scale", formatNumber(scales[random.next(below: scales.count)])))
        } else {
            settings.append(.init("scale", formatNumber(drawScale(side: side, random: &random))))
        }
        if let background = fixed.last(where: { $0.name == "background" }) {
            settings.append(background)
        } else if let background = drawBackground(random: &random) {
            settings.append(.init("background", background == .clear ? "none" : background.description))
        }
        for parameter in defaults.parameters where !ParameterSampler.sceneSettingNames.contains(parameter.name) && !parameter.drawnLast {
            let value = parameter.value(in: model)
            if value != parameter.value(in: defaults) { settings.append(.init(parameter.name, value)) }
        }
        let time = times.flatMap { $0.isEmpty ? nil : $0[random.next(below: $0.count)] } ?? drawTime(preview: model.previewDuration, random: &random)
        // Drawn after the time: the draws before are those of a case drawn before it existed.
        for parameter in defaults.parameters where parameter.drawnLast {
            if let setting = fixed.last(where: { $0.name == parameter.name }) {
                settings.append(setting)
                continue
            }
            drawValue(of: parameter, into: &model, defaults: defaults, random: &random)
            let value = parameter.value(in: model)
            if value != parameter.value(in: defaults) { settings.append(.init(parameter.name, value)) }
        }
        return (settings, time)
    }

    // MARK: - Values

    /// Draws one parameter's value into `model`.
    func drawValue<Model>(of parameter: SceneParameter<Model>, into model: inout Model, defaults: Model,
                          random: inout SplitMix64) {
        switch parameter.kind {
        case .number(let path, _):
            guard let range = parameter.samplingRange else { return }
            model[keyPath: path] = drawNumber(range, default: defaults[keyPath: path], whole: false, random: &random)
        case .optionalNumber(let path, _, _):
            guard let range = parameter.samplingRange else { return }
            // Unset is the default of every optional number; a third of the cases keep it.
            model[keyPath: path] = random.chance(1.0 / 3) ? nil
                : drawNumber(range, default: defaults[keyPath: path], whole: false, random: &random)
        case .integer(let path, _):
            guard let range = parameter.samplingRange else { return }
            model[keyPath: path] = Int(drawNumber(range, default: Double(defaults[keyPath: path]), whole: true, random: &random))
        case .color(let path):
            model[keyPath: path] = drawColor(default: defaults[keyPath: path], random: &random)
        case .optionalColor(let path, _):
            model[keyPath: path] = random.chance(1.0 / 3) ? nil : drawColor(default: nil, random: &random)
        case .choice(let path, let options):
            model[keyPath: path] = options[random.next(below: options.count)]
        case .text(let path, .lines):
            model[keyPath: path] = drawText(random: &random)
        case .text(let path, .optionalLines):
            // None in a quarter of the cases.
            model[keyPath: path] = random.chance(0.25) ? "" : drawText(random: &random)
        case .text(_, .fontFile):
            // The default fonts: a file chosen at random may not exist on the machine.
            break
        case .pair(let path, _, _, let unset):
            guard let range = parameter.samplingRange else { return }
            // An optional pair is left unset in a third of the cases, as optional numbers are.
            if unset != nil, random.chance(1.0 / 3) {
                model[keyPath: path] = nil
            } else {
                let fallback = defaults[keyPath: path]
                model[keyPath: path] = NumberPair(drawNumber(range, default: fallback?.first, whole: false, random: &random),
                                                  drawNumber(range, default: fallback?.second, whole: false, random: &random))
            }
        case .numberOrKeyword(let path, _, let keywords, _):
            guard let range = parameter.samplingRange else { return }
            // Unset, a keyword or a number, a third each.
            switch random.next(below: 3) {
            case 0: model[keyPath: path] = nil
            case 1: model[keyPath: path] = keywords[random.next(below: keywords.count)]
            default: model[keyPath: path] = formatNumber(drawNumber(range, default: nil, whole: false, random: &random))
            }
        }
    }

    /// The value of a numeric parameter, `nil` when it is unset or not a number.
    func number<Model>(of parameter: SceneParameter<Model>, in model: Model) -> Double? {
        switch parameter.kind {
        case .number(let path, _): return model[keyPath: path]
        case .optionalNumber(let path, _, _): return model[keyPath: path]
        case .integer(let path, _): return Double(model[keyPath: path])
        case .numberOrKeyword(let path, _, _, _): return model[keyPath: path].flatMap { Double($0) }
        case .color, .optionalColor, .choice, .text, .pair: return nil
        }
    }

    /// Stores a drawn number into a numeric parameter.
    func setNumber<Model>(_ value: Double, of parameter: SceneParameter<Model>, in model: inout Model) {
        switch parameter.kind {
        case .number(let path, _): model[keyPath: path] = value
        case .optionalNumber(let path, _, _): model[keyPath: path] = value
        case .integer(let path, _): model[keyPath: path] = Int(value)
        case .numberOrKeyword(let path, _, _, _): model[keyPath: path] = formatNumber(value)
        case .color, .optionalColor, .choice, .text, .pair: break
        }
    }

    /// Whether the parameter holds an integer, so its draws are whole.
    func isInteger<Model>(_ parameter: SceneParameter<Model>) -> Bool {
        if case .integer = parameter.kind { return true }
        return false
    }

    /// A number from `range`: an end point (17 %), the default when inside (13 %), or a value
    /// spread over the range, sometimes whole.
    func drawNumber(_ range: SamplingRange, default fallback: Double?, whole: Bool, random: inout SplitMix64) -> Double {
        let u = random.nextUnit()
        if u < 0.10 { return range.low }
        if u < 0.17 { return range.high }
        if u < 0.30, let fallback, fallback >= range.low, fallback <= range.high { return fallback }
        var value = spread(range, random: &random)
        if whole || (range.high - range.low >= 1 && random.chance(0.1)) {
            value = value.rounded()
        } else {
            value = ParameterSampler.rounded(value, significantDigits: 4)
        }
        return min(max(value, range.low), range.high)
    }

    /// A value between the end points: uniform, or log-uniform in magnitude from
    /// `logarithmicFrom` up (either sign when the range holds both).
    func spread(_ range: SamplingRange, random: inout SplitMix64) -> Double {
        guard let smallest = range.logarithmicFrom, smallest > 0 else {
            return range.low + (range.high - range.low) * random.nextUnit()
        }
        let negative = range.low < 0 && (range.high <= 0 || random.chance(0.5))
        let lower = max(smallest, negative ? max(-range.high, 0) : max(range.low, 0))
        let upper = negative ? -range.low : range.high
        guard upper > lower else { return negative ? -upper : upper }
        let magnitude = lower * pow(upper / lower, random.nextUnit())
        return negative ? -magnitude : magnitude
    }

    /// Pieces random text is made of (SPEC §6's cases): Latin words with kerning pairs, CJK that
    /// needs the fallback font, digits and punctuation, a word longer than most lines, spaces
    /// inside and at the ends.
    static let textCorpus = [
        "Loading", "Doing Stuff", "Great Success!", "Failed with Error", "Useful Information.", "AVAWAY To",
        "汽车当前电量", "加载中…", "成功", "0123456789%", "(ÆØÅ) é ü ß", "Supercalifragilisticexpialidocious",
        " leading", "trailing ", "a  b", "x", "日本語とLatin混合",
    ]

    /// Text of one to three pieces of `textCorpus`, joined by a space or a newline.
    func drawText(random: inout SplitMix64) -> String {
        let count = 1 + random.next(below: 3)
        var text = ""
        for index in 0..<count {
            if index > 0 { text += random.chance(0.3) ? "\n" : " " }
            text += ParameterSampler.textCorpus[random.next(below: ParameterSampler.textCorpus.count)]
        }
        return text
    }

    /// A colour: the default (15 %), else components at 0, at 1 or in between, alpha 0 (20 %),
    /// 1 (35 %) or translucent.
    func drawColor(default fallback: RGBA?, random: inout SplitMix64) -> RGBA {
        if let fallback, random.chance(0.15) { return fallback }
        func component() -> Double {
            let u = random.nextUnit()
            return u < 0.15 ? 0 : u < 0.3 ? 1 : (random.nextUnit() * 1000).rounded() / 1000
        }
        let r = component(), g = component(), b = component()
        let u = random.nextUnit()
        return RGBA(r, g, b, u < 0.2 ? 0 : u < 0.55 ? 1 : translucentAlpha(random: &random))
    }

    /// An alpha strictly between 0 and 1, in thousandths.
    func translucentAlpha(random: inout SplitMix64) -> Double {
        Double(1 + random.next(below: 999)) / 1000
    }

    /// The scene's own background (`nil`), transparent, opaque or translucent, a quarter each.
    func drawBackground(random: inout SplitMix64) -> RGBA? {
        switch random.next(below: 4) {
        case 0: return nil
        case 1: return .clear
        case 2: return drawColor(default: nil, random: &random).withAlpha(1)
        default: return drawColor(default: nil, random: &random).withAlpha(translucentAlpha(random: &random))
        }
    }

    /// A scale: whole (30 %) or three significant digits in `scaleRange`; redrawn smaller when the
    /// canvas side (`side` pt) would be over `maximumPixelSide`.
    func drawScale(side: Double, random: inout SplitMix64) -> Double {
        let range = ParameterSampler.scaleRange
        var scale = random.chance(0.3) ? Double(1 + random.next(below: 3))
            : ParameterSampler.rounded(range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit(), significantDigits: 3)
        guard side.isFinite, side > 0, Scene.pixels(side, scale) > maximumPixelSide else { return scale }
        // The largest scale that fits, in three significant digits, then often the largest and
        // otherwise anywhere from the smallest drawn scale (or below, for a huge canvas) up to it.
        let fit = Double(maximumPixelSide) / side
        let step = pow(10, log10(fit).rounded(.down) - 2)  // one unit of the third significant digit
        var largest = ParameterSampler.rounded((fit / step).rounded(.down) * step, significantDigits: 3)
        for _ in 0..<10 where Scene.pixels(side, largest) > maximumPixelSide {
            largest = ParameterSampler.rounded(largest - step, significantDigits: 3)
        }
        // Nothing fits (a canvas of more than 1e9 pt): Scene.validate or the cap rejects the attempt.
        guard largest > 0, Scene.pixels(side, largest) <= maximumPixelSide else { return scale }
        if random.chance(0.3) { return largest }
        let smallest = min(range.lowerBound, largest)
        scale = ParameterSampler.rounded(smallest + (largest - smallest) * random.nextUnit(), significantDigits: 3)
        return min(max(scale, smallest), largest)
    }

    /// A time: 0 (15 %), within two previews (25 %), a frame of a 60 fps clip in the first
    /// 20 s (15 %), log-uniform in [1 ms, 1e5 s] (30 %), or a whole second plus eighths far from
    /// 0 (15 %).
    func drawTime(preview: Double, random: inout SplitMix64) -> Double {
        let u = random.nextUnit()
        if u < 0.15 { return 0 }
        if u < 0.40 {
            // A still scene's "preview" can be a slow part's period of years.
            let span = min(2 * preview, ParameterSampler.latestTime)
            return min(ParameterSampler.rounded(span * random.nextUnit(), significantDigits: 4), ParameterSampler.latestTime)
        }
        if u < 0.55 { return Double(random.next(below: 1200)) / 60 }
        if u < 0.85 {
            return ParameterSampler.rounded(1e-3 * pow(ParameterSampler.latestTime / 1e-3, random.nextUnit()), significantDigits: 7)
        }
        return Double(1000 + random.next(below: Int(ParameterSampler.latestTime) - 1000)) + Double(random.next(below: 8)) / 8
    }

    // MARK: - Helpers

    /// `value` rounded to `digits` significant decimal digits (as printf's `%.*g` does).
    public static func rounded(_ value: Double, significantDigits digits: Int) -> Double {
        guard value.isFinite, value != 0 else { return value }
        return Double(String(format: "%.*g", digits, value)) ?? value
    }

    /// FNV-1a of the UTF-8 bytes: a hash that is the same in every process (Swift's `Hasher`
    /// is seeded per process), to derive a scene's stream from the seed.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
