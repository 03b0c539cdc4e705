import Foundation
import ThrobberPNG

/// The derivation itself: from measured points to ``AutomaticRule`` (docs/png-encoders.md,
/// "Where the rule comes from").
extension PNGRuleSweep {
    /// The rule from `points`: per size (a step up to it), the chain of settings that writes the
    /// points fastest (``chain(_:settings:)``), split by the trait and threshold that save the
    /// most time when that is at least ``splitGain``, and each side again so, at most
    /// ``maximumDepth`` deep; then runs of steps that came out alike, merged.
    public static func rule(points: [Point], sizes: [Int], settings: [PNGEncoder]) -> (AutomaticRule, [StepReport]) {
        var steps: [AutomaticRule.Step] = []
        var reports: [StepReport] = []
        let r = reference(settings)
        for (index, size) in sizes.enumerated() {
            let lower = index == 0 ? 0 : sizes[index - 1]
            let here = points.filter { $0.side > lower && $0.side <= size }
            guard !here.isEmpty else { continue }
            let least = max(smallestSide, here.count / 10)
            let (node, cost) = Self.node(here, settings: settings, depth: 0, least: least)
            let rule = AutomaticRule(steps: [AutomaticRule.Step(size, node)])
            var first = 0, yardstick = 0
            for point in here {
                let chain = rule.candidates(for: point.traits).settings.map { Self.index(of: $0, in: settings) }
                if let fit = chain.firstIndex(where: { fits(point, $0) }) { if fit == 0 { first += 1 } } else { yardstick += 1 }
            }
            reports.append(StepReport(side: size, points: here.count, decision: describe(node), firstFits: first, toYardstick: yardstick,
                                      meanTimeOverReference: cost / Double(here.count),
                                      bestTimeOverReference: here.map { bestFit($0, settings: settings) / max($0.ms[r], 1e-6) }
                                        .reduce(0, +) / Double(here.count)))
            if let last = steps.last, last.node == node {
                steps[steps.count - 1].side = size
            } else {
                steps.append(AutomaticRule.Step(size, node))
            }
        }
        // The last step covers every larger side.
        if !steps.isEmpty { steps[steps.count - 1].side = max(steps[steps.count - 1].side, 16_384) }
        return (AutomaticRule(steps: steps), reports)
    }

    /// How deep a step's splits go, and the most candidates a chain holds.
    public static let maximumDepth = 3, maximumChain = 3
    /// A candidate joins a chain when it saves at least this share of the chain's time.
    public static let chainGain = 0.02

    /// Whether setting `i` writes the point's frames within ``sizeMargin`` of libpng's defaults.
    static func fits(_ point: Point, _ i: Int) -> Bool { point.bytes[i] <= point.referenceBytes * sizeMargin }

    /// The fastest setting at a point that fits (libpng's defaults' time where none does).
    static func bestFit(_ point: Point, settings: [PNGEncoder]) -> Double {
        settings.indices.filter { fits(point, $0) }.map { point.ms[$0] }.min() ?? point.ms[reference(settings)]
    }

    static func index(of setting: AutomaticRule.Setting, in settings: [PNGEncoder]) -> Int {
        settings.firstIndex { $0.name == setting.encoder && $0.level == setting.level && $0.filter == setting.filter }!
    }

    /// A chain's time at a point over libpng's defaults': the first setting of the chain that
    /// fits, as the trial keeps it; libpng's defaults (1) where none does.
    static func cost(_ chain: [Int], at point: Point, reference r: Int) -> Double {
        guard let i = chain.first(where: { fits(point, $0) }) else { return 1 }
        return point.ms[i] / max(point.ms[r], 1e-6)
    }

    /// The chain for `points`, built forward: each round, the setting whose joining saves the most
    /// time (at least ``chainGain``), at most ``maximumChain`` of them; a chain runs fastest first
    /// (by the median over the points of each setting's time over libpng's defaults'). With its
    /// time summed over the points (each over libpng's defaults').
    static func chain(_ points: [Point], settings: [PNGEncoder]) -> ([Int], Double) {
        let r = reference(settings)
        let speed = settings.indices.map { i in Summary(points.map { $0.ms[i] / max($0.ms[r], 1e-6) }).median }
        func ordered(_ chain: [Int]) -> [Int] { chain.sorted { (speed[$0], $0) < (speed[$1], $1) } }
        func total(_ chain: [Int]) -> Double { points.reduce(0) { $0 + cost(chain, at: $1, reference: r) } }
        var chain: [Int] = []
        var time = total([])
        while chain.count < maximumChain {
            var best: (chain: [Int], time: Double)?
            for i in settings.indices where i != r && !chain.contains(i) {
                let trial = ordered(chain + [i])
                let t = total(trial)
                if t < best?.time ?? .infinity { best = (trial, t) }
            }
            guard let best, best.time < time * (1 - chainGain) else { break }
            (chain, time) = best
        }
        return (chain, time)
    }

    /// The decision for `points`: the best chain (``chain(_:settings:)``), or, above
    /// ``maximumDepth`` (a step's first split on `changed` alone), the split whose two sides' chains save at least ``splitGain`` of the time
    /// a choice can change (not counting points no setting fits, which libpng's defaults write)
    /// (each side with at least `least` points; thresholds between the values at 32 quantiles at
    /// most), each side decided the same way.
    static func node(_ points: [Point], settings: [PNGEncoder], depth: Int, least: Int) -> (AutomaticRule.Node, Double) {
        let (indices, cost) = chain(points, settings: settings)
        let leaf = AutomaticRule.Node.chain(indices.map { setting(settings[$0]) })
        guard depth < maximumDepth else { return (leaf, cost) }
        // Points no setting fits cost libpng's time whatever the rule: the gain a split must
        // bring is a share of the time the rule can change.
        let unavoidable = Double(points.filter { point in !settings.indices.contains { fits(point, $0) } }.count)
        let needed = (cost - unavoidable) * splitGain
        var best: (trait: AutomaticRule.Trait, threshold: Double, cost: Double)?
        // A step's first split, where there is one, is on the rows changed: what decides whether
        // a setting that takes unchanged segments from the frame before gains at all.
        for trait in depth == 0 ? [.changed] : AutomaticRule.Trait.allCases {
            let values = points.map { $0.traits.value(of: trait) }.sorted()
            var cuts: Set<Double> = []
            for k in 1..<32 {
                let a = values[(values.count - 1) * (k - 1) / 31], b = values[(values.count - 1) * k / 31]
                guard a < b else { continue }
                // Three decimals where that falls between the two values: a threshold a reader can check.
                let rounded = ((a + b) / 2 * 1000).rounded() / 1000
                cuts.insert(rounded > a && rounded <= b ? rounded : (a + b) / 2)
            }
            for threshold in cuts.sorted() {
                let below = points.filter { $0.traits.value(of: trait) < threshold }
                let above = points.filter { $0.traits.value(of: trait) >= threshold }
                guard below.count >= least, above.count >= least else { continue }
                let (low, lowCost) = chain(below, settings: settings)
                let (high, highCost) = chain(above, settings: settings)
                guard low != high, lowCost + highCost < cost - needed, lowCost + highCost < best?.cost ?? .infinity else { continue }
                best = (trait, threshold, lowCost + highCost)
            }
        }
        guard let best else { return (leaf, cost) }
        let (low, lowCost) = node(points.filter { $0.traits.value(of: best.trait) < best.threshold }, settings: settings,
                                  depth: depth + 1, least: least)
        let (high, highCost) = node(points.filter { $0.traits.value(of: best.trait) >= best.threshold }, settings: settings,
                                    depth: depth + 1, least: least)
        return (.split(best.trait, best.threshold, below: low, atOrAbove: high), lowCost + highCost)
    }

    static func setting(_ encoder: PNGEncoder) -> AutomaticRule.Setting { AutomaticRule.Setting(encoder.name, encoder.level, encoder.filter) }

    /// Where the reference (libpng's defaults) is among `settings`.
    static func reference(_ settings: [PNGEncoder]) -> Int { settings.firstIndex(of: PNGSweep.reference)! }

    /// A node in words: "changed ≥ 0.5 ? [libdeflate 1 none, zlib 4 up] : [zlib 4 none]".
    static func describe(_ node: AutomaticRule.Node) -> String {
        switch node {
        case .chain(let settings): "[" + settings.map(\.description).joined(separator: ", ") + "]"
        case .split(let trait, let threshold, let below, let above):
            "\(trait.rawValue) ≥ \(threshold) ? \(describeNested(above)) : \(describeNested(below))"
        }
    }

    static func describeNested(_ node: AutomaticRule.Node) -> String {
        if case .chain = node { return describe(node) }
        return "(" + describe(node) + ")"
    }

    /// The rule as ``AutomaticRule/current`` holds it.
    public static func literal(_ rule: AutomaticRule) -> String {
        func setting(_ s: AutomaticRule.Setting) -> String {
            "Setting(\"\(s.encoder)\", \(s.level)\(s.filter == .unfiltered ? "" : ", .\(s.filter)"))"
        }
        func node(_ n: AutomaticRule.Node, indent: String) -> String {
            switch n {
            case .chain(let settings): return ".chain([" + settings.map(setting).joined(separator: ", ") + "])"
            case .split(let trait, let threshold, let below, let above):
                let inner = indent + "    "
                return ".split(.\(trait.rawValue), \(threshold),\n\(inner)below: \(node(below, indent: inner)),\n\(inner)atOrAbove: \(node(above, indent: inner)))"
            }
        }
        let lines = rule.steps.map { step in
            let side = step.side >= 16_384 ? "16_384" : String(step.side)
            return "        Step(\(side), \(node(step.node, indent: "        ")))," 
        }
        return "    public static let current = AutomaticRule(steps: [\n" + lines.joined(separator: "\n") + "\n    ])"
    }
}
