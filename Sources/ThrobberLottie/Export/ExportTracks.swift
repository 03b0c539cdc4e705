import Foundation
import Throbber

/// The same element from frame to frame: a track, with its value at every sample (nil where the
/// scene does not draw it).
struct ExportTrack {
    var key: String
    var signature: String
    var samples: [ExportElement?]
    /// Channels written as slots: channel → slot id.
    var slotted: [String: String] = [:]
    /// Where bound paints' opacities moved to the group's (`applySlots`): each paint's opacity
    /// channel and its parameter's alpha.
    var movedOpacity: [(channel: String, alpha: Double)] = []
    /// Drawn as an asset others share: present throughout, its presence the placing layer's.
    var shared = false

    var first: ExportElement { samples.first { $0 != nil }!! }
}

/// Every track of an export in paint order, fitted and written as shape layers.
struct ExportTracks {
    let times: [Double]
    let sampler: ExportSampler
    var tracks: [ExportTrack] = []
    /// Where each slot's value was found (`applySlots`), for themes.
    var witnesses: [String: SlotWitness] = [:]

    init(times: [Double], sampler: ExportSampler) throws {
        self.times = times
        self.sampler = sampler
        var index: [String: Int] = [:]
        var order: [Int] = []
        for (i, t) in times.enumerated() {
            var previous: Int?
            for element in try sampler.elements(at: t) {
                let id = element.key + "\u{1}" + element.signature
                let k: Int
                if let found = index[id] {
                    k = found
                } else {
                    k = tracks.count
                    index[id] = k
                    tracks.append(ExportTrack(key: element.key, signature: element.signature, samples: Array(repeating: nil, count: times.count)))
                    // A new track goes just above what the frame painted before it.
                    let at = previous.flatMap { p in order.firstIndex(of: p).map { $0 + 1 } } ?? 0
                    order.insert(k, at: at)
                }
                tracks[k].samples[i] = element
                previous = k
            }
        }
        tracks = order.map { tracks[$0] }
    }

    /// A channel's value at every sample: where the track is absent, its nearest value (and a
    /// group opacity of 0); the first component unwrapped where the channel has a period.
    func series(_ track: ExportTrack, _ channel: String) -> [[Double]] {
        var values: [[Double]?] = track.samples.map { $0?.channels[channel]?.value }
        var last: [Double]? = nil
        for i in values.indices {
            if let v = values[i] { last = v } else { values[i] = last }
        }
        var next: [Double]? = nil
        for i in values.indices.reversed() {
            if let v = values[i] { next = v } else { values[i] = next }
        }
        var out = values.map { $0! }
        if channel == "to" && !track.shared {
            for i in out.indices where track.samples[i] == nil { out[i] = [0] }
        }
        if let period = track.first.channels[channel]?.kind.period {
            ExportTracks.unwrap(&out, period: period)
        }
        return out
    }

    /// The first component of each value moved by whole periods to be nearest the one before.
    static func unwrap(_ values: inout [[Double]], period: Double) {
        guard period > 0, !values.isEmpty, !values[0].isEmpty else { return }
        for i in values.indices.dropFirst() {
            let previous = values[i - 1][0]
            values[i][0] += ((previous - values[i][0]) / period).rounded() * period
        }
    }

    /// Waves' bands, now that the whole export's travel is known: the band runs over whole
    /// wavelengths covering what each frame shows, so it only moves (`ExportLowering.waveBand`).
    mutating func placeWaves() throws {
        for k in tracks.indices where tracks[k].first.channels[ExportLowering.waveChannel] != nil {
            let track = tracks[k]
            let origins = series(track, "tp")
            let waves = series(track, ExportLowering.waveChannel)
            let wavenumber = waves[0][1]
            guard waves.allSatisfy({ abs($0[1] - wavenumber) <= 1e-9 * wavenumber }) else {
                throw ExportLowering.refusal(track.key, "is a wave whose wavelength changes")
            }
            let length = 2 * Double.pi / wavenumber
            let low = zip(waves, origins).map { $0[3] - $1[0] }.min()!
            let high = zip(waves, origins).map { $0[4] - $1[0] }.max()!
            let u0 = (low / length).rounded(.down) * length, u1 = (high / length).rounded(.up) * length
            guard (u1 - u0) / length <= 400 else {
                throw ExportLowering.refusal(track.key, "is a wave that travels \(Int((u1 - u0) / length)) wavelengths in the export (at most 400)")
            }
            // Where the bottom is free and the amplitude never 0, one band scaled to each frame's
            // amplitude (its bottom then reaching at least as deep as each frame's); else a band
            // a frame, keyframed (the vertices move linearly with the amplitude and the depth).
            let least = waves.map { $0[0] }.min()!
            let scalable = waves.allSatisfy { $0[5] == 1 } && least > 0
            let depth = scalable ? waves.map { $0[2] * least / $0[0] }.max()! : 0
            for i in tracks[k].samples.indices {
                guard var element = tracks[k].samples[i], let wave = element.channels[ExportLowering.waveChannel]?.value else { continue }
                let band = scalable
                    ? ExportLowering.waveBand(amplitude: least, k: wavenumber, depth: depth, from: u0, to: u1)
                    : ExportLowering.waveBand(amplitude: wave[0], k: wavenumber, depth: wave[2], from: u0, to: u1)
                if scalable { element.channels["ty"]!.value = [100, 100 * wave[0] / least] }
                element.channels["s"] = ChannelValue(kind: .path(sampler.tolerance, closed: true), value: band.values)
                element.channels[ExportLowering.waveChannel] = nil
                element.channels["tp"]!.value[0] = origins[i][0]
                tracks[k].samples[i] = element
            }
        }
    }

    /// A channel's keyframes.
    func keys(_ track: ExportTrack, _ channel: String) -> [FittedKey] {
        let values = series(track, channel)
        let kind = track.first.channels[channel]!.kind
        let signature = track.signature
        return KeyframeFitting.fit(times: times, values: values, tolerance: kind.tolerance) { t in
            if track.shared && channel == "to" { return [100] }
            guard let elements = try? sampler.elements(at: t) else { return nil }
            guard let element = elements.first(where: { $0.key == track.key && $0.signature == signature }) else {
                return channel == "to" ? [0] : nil
            }
            guard var value = element.channels[channel]?.value else { return nil }
            if let moved = track.movedOpacity.first, let o = element.channels[moved.channel]?.value[0] {
                if channel == "to" { value[0] *= o / (moved.alpha * 100) }
                if let own = track.movedOpacity.first(where: { $0.channel == channel }) { value = [own.alpha * 100] }
            }
            if let period = kind.period, let reference = values.indices.last(where: { times[$0] <= t }).map({ values[$0] }) {
                value[0] += ((reference[0] - value[0]) / period).rounded() * period
            }
            return value
        }
    }

    /// One property, fitted: static, or keyframes linear or held; a slot's id where it has one.
    func property(_ track: ExportTrack, _ channel: String) -> LottieValue {
        let kind = track.first.channels[channel]!.kind
        let keys = keys(track, channel)
        func value(_ v: [Double], inKeyframe: Bool) -> LottieValue {
            switch kind.form {
            case .vector(let scalar):
                return scalar && !inKeyframe ? .number(v[0], digits: kind.digits) : .numbers(v, digits: kind.digits)
            case .path(let closed):
                let n = v.count / 6
                func points(_ from: Int) -> LottieValue {
                    .array((0..<n).map { j in .numbers([v[2 * (from + j)], v[2 * (from + j) + 1]], digits: kind.digits) })
                }
                let shape = LottieValue.object([("c", .bool(closed)), ("v", points(0)), ("i", points(n)), ("o", points(2 * n))])
                return inKeyframe ? .array([shape]) : shape
            }
        }
        var members: [(String, LottieValue)]
        if keys.count == 1 {
            members = [("a", .integer(0)), ("k", value(keys[0].value, inKeyframe: false))]
        } else {
            let frames: [LottieValue] = keys.enumerated().map { n, key in
                var frame: [(String, LottieValue)] = [("t", .number(key.time, digits: 4)), ("s", value(key.value, inKeyframe: true))]
                if key.hold {
                    frame.append(("h", .integer(1)))
                } else if n < keys.count - 1 {
                    frame += [("o", .object([("x", .integer(0)), ("y", .integer(0))])), ("i", .object([("x", .integer(1)), ("y", .integer(1))]))]
                }
                return .object(frame)
            }
            members = [("a", .integer(1)), ("k", .array(frames))]
        }
        if let slot = track.slotted[channel] { members.append(("sid", .string(slot))) }
        return .object(members)
    }

    /// `template` with each placeholder replaced by its fitted property.
    func filled(_ template: LottieValue, _ track: ExportTrack) -> LottieValue {
        switch template {
        case .channel(let name): property(track, name)
        case .array(let items): .array(items.map { filled($0, track) })
        case .object(let members): .object(members.map { ($0.0, filled($0.1, track)) })
        default: template
        }
    }

    /// The layers of the main composition, top first, and the assets they use: runs of tracks
    /// without masks share a shape layer; a track with masks has its own; a ring's box is an asset
    /// placed by turned precomposition layers (`ExportInstance`).
    func layers(end: Double, width: Int, height: Int) -> (layers: [LottieValue], assets: [LottieValue]) {
        enum Run { case shapes([ExportTrack]), instance(ExportTrack) }
        var runs: [Run] = []
        for track in tracks {
            if track.first.instance != nil {
                runs.append(.instance(track))
            } else if case .shapes(let run)? = runs.last, run.last!.first.layer == track.first.layer,
                      track.first.layer != nil || (track.first.masks.isEmpty && run.last!.first.masks.isEmpty) {
                // One Lottie layer for a run of plain groups, or for the groups of one draw-list layer.
                runs[runs.count - 1] = .shapes(run + [track])
            } else {
                runs.append(.shapes([track]))
            }
        }
        var assets = ExportAssets(end: end, width: width, height: height)
        var layers: [LottieValue] = []
        for run in runs.reversed() {
            switch run {
            case .shapes(let run):
                let opacity = run[0].first.layer != nil ? filled(.channel("layer-o"), run[0]) : nil
                var layer = ExportAssets.header(ty: 4, name: run[0].first.layer ?? run[0].key, transform: ExportAssets.transform(opacity: opacity))
                let masks = run[0].first.masks
                if !masks.isEmpty {
                    layer += [("hasMask", .bool(true)), ("masksProperties", .array(masks.map { filled($0, run[0]) }))]
                }
                layer += [("shapes", .array(run.reversed().map { filled($0.first.group, $0) }))] + assets.timing()
                layers.append(.object(layer))
            case .instance(let track):
                let instance = track.first.instance!
                // The asset's group at full opacity: presence and fades are the layers'.
                var shared = track
                shared.shared = true
                shared.samples = shared.samples.map { $0.map { var e = $0; e.channels["to"]!.value = [100]; return e } }
                let asset = assets.box(filled(track.first.group, shared))
                let opacity = series(track, "to")
                // Present over one stretch at full opacity: the layer's in and out points say so.
                let spans = ExportAssets.span(opacity.map { $0[0] }, times: times)
                let ks = { (angle: Double) in
                    ExportAssets.transform(pivot: [instance.centerX, instance.centerY], rotation: angle,
                                           opacity: spans == nil ? property(track, "to") : nil)
                }
                if instance.count == 1 {
                    layers.append(assets.layer(asset, name: track.key, transform: ks(instance.angle), span: spans))
                } else {
                    for (chain, angle) in assets.ring(asset, count: instance.count, step: instance.step, center: [instance.centerX, instance.centerY]) {
                        layers.append(assets.layer(chain, name: track.key, transform: ks(angle), span: spans))
                    }
                }
            }
        }
        for k in layers.indices { layers[k] = ExportAssets.numbered(layers[k], k + 1) }
        return (layers, assets.assets)
    }
}
