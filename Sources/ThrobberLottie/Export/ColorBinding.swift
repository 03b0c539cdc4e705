import Foundation
import Throbber

/// Which painted colours are a colour parameter's, found by asking the scene (issue 51 point 2):
/// the scene is drawn again with the parameter set to two probe colours, and a paint whose colour
/// follows both probes is the parameter's. Its opacity is the parameter's alpha times a factor
/// when that holds for both probes. Nothing about a scene's code is assumed, so a scene file's
/// parameters bind as a built-in's do; a colour derived from a parameter (brighter, mixed) follows
/// neither probe and is written as it is.
struct ColorBinding: Sendable, Equatable {
    /// The parameter, which is the slot's id.
    var parameter: String
    /// The paint's opacity over the parameter's alpha at the witness time (1 when it is the
    /// parameter's alpha), or nil when the opacity does not follow the parameter.
    var factor: Double?

    static let probes = [RGBA(0.123, 0.456, 0.789, 0.6), RGBA(0.871, 0.342, 0.157, 0.85)]

    /// For each element key, each paint's binding.
    static func bind(_ scene: LaidOutScene, sampler: ExportSampler, times: [Double]) throws -> [String: [Int: ColorBinding]] {
        var result: [String: [Int: ColorBinding]] = [:]
        let base = try times.map { try sampler.elements(at: $0) }
        for info in scene.model.parameterInfos where info.type == "colour" {
            var probed: [[[ExportElement]]] = []
            for probe in probes {
                // A colour the scene takes only with another setting (the HUD's maskColor with
                // mask=custom) is not drawn as it is: not a slot.
                guard let model = try? scene.model.setting(info.name, to: probe.description),
                      let probeScene = try? LaidOutScene(Scene(model, scale: scene.scale, background: scene.background),
                                                         text: scene.text, engine: scene.textEngine) else { break }
                let probeSampler = ExportSampler(scene: probeScene, start: sampler.start, rate: sampler.rate, tolerance: sampler.tolerance)
                probed.append(try times.map { try probeSampler.elements(at: $0) })
            }
            guard probed.count == probes.count else { continue }
            for (i, elements) in base.enumerated() {
                for element in elements {
                    let others = probed.map { $0[i].first { $0.key == element.key } }
                    for p in element.paints.indices {
                        let colors = others.map { $0.flatMap { p < $0.paints.count ? $0.paints[p].color : nil } }
                        guard zip(colors, probes).allSatisfy({ color, probe in
                            color.map { abs(Double($0.r) - probe.r) < 1e-4 && abs(Double($0.g) - probe.g) < 1e-4 && abs(Double($0.b) - probe.b) < 1e-4 } ?? false
                        }) else { continue }
                        let factors = zip(colors, probes).map { Double($0!.a) / $1.a }
                        var factor: Double? = abs(factors[0] - factors[1]) <= 1e-4 ? factors[0] : nil
                        if let f = factor, f <= 0 { factor = nil }
                        if let known = result[element.key]?[p] {
                            // One binding per paint: a parameter found at one time and not at
                            // another (or another opacity rule) is not a slot.
                            if known.parameter != info.name || (known.factor == nil) != (factor == nil) {
                                result[element.key]![p] = ColorBinding(parameter: "", factor: nil)
                            }
                        } else {
                            result[element.key, default: [:]][p] = ColorBinding(parameter: info.name, factor: factor)
                        }
                    }
                }
            }
        }
        return result.mapValues { $0.filter { !$0.value.parameter.isEmpty } }
    }

    /// The slots' values in `theme`: each slot's paint drawn by the theme's scene at the time
    /// it was found (`SlotWitness`), so that a colour the theme leaves to another setting (the
    /// ring's `style`) is the one that setting gives.
    static func values(of slots: [(id: String, value: LottieSlotValue)], witnesses: [String: SlotWitness], in theme: LaidOutScene,
                       like sampler: ExportSampler) throws -> [(id: String, value: LottieSlotValue)] {
        let themed = ExportSampler(scene: theme, start: sampler.start, rate: sampler.rate, tolerance: sampler.tolerance)
        return try slots.map { slot in
            let witness = witnesses[slot.id]!
            guard let element = try themed.elements(at: witness.time).first(where: { $0.key == witness.key }),
                  witness.paint < element.paints.count else {
                throw ThrobberError("export: the theme does not draw '\(witness.key)', whose colour is slot '\(slot.id)'; "
                                    + "a theme may change colours, not what is drawn", kind: .usage)
            }
            let color = element.paints[witness.paint].color
            let alpha = witness.factor.map { min(1, Double(color.a) / $0) } ?? 1
            if slot.id.hasSuffix(opacitySuffix) { return (slot.id, .scalar(alpha * 100)) }
            return (slot.id, .color([Double(color.r), Double(color.g), Double(color.b), alpha]))
        }
    }

    /// Checks that `theme` draws what the export draws but for the slotted channels (`slotted`,
    /// by element key) at `times`: a theme that would change a colour that is no slot, a size or
    /// what is drawn is refused, rather than written as a theme that silently does less.
    static func verify(theme name: String, _ theme: LaidOutScene, like sampler: ExportSampler, slotted: [String: Set<String>],
                       times: [Double], unslotted: [String]) throws {
        let themed = ExportSampler(scene: theme, start: sampler.start, rate: sampler.rate, tolerance: sampler.tolerance)
        func refuse(_ key: String, _ what: String) -> ThrobberError {
            ThrobberError("export: theme '\(name)' changes \(what) of '\(key)', which no slot holds; a theme sets slots only"
                          + (unslotted.isEmpty ? "" : " (not slots: \(unslotted.joined(separator: ", ")))"), kind: .usage)
        }
        for t in times {
            let base = try sampler.elements(at: t), other = try themed.elements(at: t)
            for (a, b) in zip(base, other) where a.key != b.key || a.signature != b.signature {
                throw refuse(a.key, "what is drawn")
            }
            guard base.count == other.count else { throw refuse(base.last?.key ?? other.last?.key ?? "?", "what is drawn") }
            for (a, b) in zip(base, other) {
                for (channel, value) in a.channels where !(slotted[a.key]?.contains(channel) ?? false) {
                    let mine = value.value, theirs = b.channels[channel]?.value ?? []
                    guard mine.count == theirs.count else { throw refuse(a.key, "the shape") }
                    for (k, (x, y)) in zip(mine, theirs).enumerated() {
                        var d = abs(x - y)
                        if k == 0, let period = value.kind.period { d = abs(d - (d / period).rounded() * period) }
                        if d > value.kind.tolerance {
                            let paint = a.paints.contains { $0.colorChannel == channel || $0.opacityChannel == channel }
                            throw refuse(a.key, paint ? "a colour" : channel.hasPrefix("g") ? "a gradient" : "the geometry")
                        }
                    }
                }
            }
        }
    }

    /// The opacity slot of colour parameter P is "P.opacity".
    static let opacitySuffix = ".opacity"
}

/// Where a slot's value was found: a paint of an element at a time, its opacity over the
/// parameter's alpha there.
struct SlotWitness: Sendable {
    var key: String
    var paint: Int
    var time: Double
    var factor: Double?
}

extension ExportTracks {
    /// Bound paints' colours and opacities become slots: the colour property takes the slot's id
    /// where it is the same in every frame; the opacity too where every bound paint of the group
    /// has the parameter's alpha times one factor, which moves to the group's opacity.
    mutating func applySlots(_ bindings: [String: [Int: ColorBinding]]) -> [(id: String, value: LottieSlotValue)] {
        var slots: [String: LottieSlotValue] = [:]
        func witness(_ id: String, _ track: ExportTrack, _ p: Int, _ factor: Double?) {
            guard witnesses[id] == nil, let i = track.samples.firstIndex(where: { $0 != nil }) else { return }
            let color = track.samples[i]!.paints[p].color
            // The factor at that time: the paint's opacity over the parameter's alpha.
            let alpha = factor.map { min(1, Double(track.first.paints[p].color.a) / $0) } ?? 1
            witnesses[id] = SlotWitness(key: track.key, paint: p, time: times[i], factor: factor == nil ? nil : Double(color.a) / max(alpha, 1e-9))
        }
        for k in tracks.indices {
            let track = tracks[k]
            guard let bound = bindings[track.key], !bound.isEmpty else { continue }
            let paints = track.first.paints
            var opacityFactors: [[Double]] = []
            var opacityPaints: [(Int, Double)] = []
            for (p, binding) in bound.sorted(by: { $0.key < $1.key }) where p < paints.count {
                let paint = paints[p]
                let colors = series(track, paint.colorChannel)
                guard colors.allSatisfy({ $0 == colors[0] }) else { continue }
                let opacities = series(track, paint.opacityChannel)
                // The parameter's alpha: the paint's alpha over the factor the probes found.
                let alpha = binding.factor.map { min(1, Double(paint.color.a) / $0) } ?? 1
                tracks[k].slotted[paint.colorChannel] = binding.parameter
                slots[binding.parameter] = .color(colors[0] + [alpha])
                witness(binding.parameter, track, p, binding.factor)
                if binding.factor != nil, alpha > 0 {
                    opacityFactors.append(opacities.map { $0[0] / (alpha * 100) })
                    opacityPaints.append((p, alpha))
                }
            }
            // The opacity slots, when one factor (the fade, a mask step) serves every bound paint
            // of the group and the group has no other paint.
            guard !opacityFactors.isEmpty, opacityPaints.count == paints.count,
                  opacityFactors.allSatisfy({ zip($0, opacityFactors[0]).allSatisfy { abs($0 - $1) <= 1e-6 } }) else { continue }
            for i in tracks[k].samples.indices {
                guard var element = tracks[k].samples[i] else { continue }
                element.channels["to"]!.value[0] *= opacityFactors[0][i]
                for (p, alpha) in opacityPaints {
                    element.channels[paints[p].opacityChannel]!.value = [alpha * 100]
                }
                tracks[k].samples[i] = element
            }
            for (p, alpha) in opacityPaints {
                let id = bound[p]!.parameter + ColorBinding.opacitySuffix
                tracks[k].slotted[paints[p].opacityChannel] = id
                tracks[k].movedOpacity.append((paints[p].opacityChannel, alpha))
                slots[id] = .scalar(alpha * 100)
                witness(id, track, p, bound[p]!.factor)
            }
        }
        return slots.keys.sorted().map { ($0, slots[$0]!) }
    }
}
