import Foundation
import Throbber

/// A scene's elements at Lottie frames, each frame lowered once.
final class ExportSampler {
    let scene: LaidOutScene
    let start: Double
    let rate: Double
    let tolerance: Double
    private var cache: [Double: [ExportElement]] = [:]

    init(scene: LaidOutScene, start: Double, rate: Double, tolerance: Double) {
        self.scene = scene
        self.start = start
        self.rate = rate
        self.tolerance = tolerance
    }

    /// The elements at Lottie frame `frame`, each key made unique in its frame.
    func elements(at frame: Double) throws -> [ExportElement] {
        if let cached = cache[frame] { return cached }
        var elements = try ExportLowering.elements(of: try scene.checkedDrawList(at: start + frame / rate), tolerance: tolerance)
        var seen: [String: Int] = [:]
        for k in elements.indices {
            let n = seen[elements[k].key, default: 0]
            seen[elements[k].key] = n + 1
            if n > 0 { elements[k].key += "#\(n)" }
        }
        cache[frame] = elements
        return elements
    }
}

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

    var first: ExportElement { samples.first { $0 != nil }!! }
}

/// Every track of an export in paint order, fitted and written as shape layers.
struct ExportTracks {
    let times: [Double]
    let sampler: ExportSampler
    var tracks: [ExportTrack] = []

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
        if channel == "to" {
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
            for i in tracks[k].samples.indices {
                guard var element = tracks[k].samples[i], let wave = element.channels[ExportLowering.waveChannel]?.value else { continue }
                let band = ExportLowering.waveBand(amplitude: wave[0], k: wavenumber, depth: wave[2], from: u0, to: u1)
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

    /// Shape layers, top first: runs of tracks without masks share a layer; a track with masks
    /// has its own.
    func layers(end: Double) -> [LottieValue] {
        var runs: [[ExportTrack]] = []
        for track in tracks {
            if track.first.masks.isEmpty, let last = runs.last?.last, last.first.masks.isEmpty {
                runs[runs.count - 1].append(track)
            } else {
                runs.append([track])
            }
        }
        let identity: LottieValue = .object([
            ("o", .fixed(.integer(100))), ("r", .fixed(.integer(0))), ("p", .fixed(.numbers([0, 0, 0], digits: 0))),
            ("a", .fixed(.numbers([0, 0, 0], digits: 0))), ("s", .fixed(.numbers([100, 100, 100], digits: 0))),
        ])
        return runs.reversed().enumerated().map { n, run in
            var layer: [(String, LottieValue)] = [("ddd", .integer(0)), ("ind", .integer(n + 1)), ("ty", .integer(4)),
                                                  ("nm", .string(run[0].key)), ("sr", .integer(1)), ("ks", identity), ("ao", .integer(0))]
            let masks = run[0].first.masks
            if !masks.isEmpty {
                layer += [("hasMask", .bool(true)), ("masksProperties", .array(masks.map { filled($0, run[0]) }))]
            }
            layer += [("shapes", .array(run.reversed().map { filled($0.first.group, $0) })),
                      ("ip", .integer(0)), ("op", .number(end, digits: 3)), ("st", .integer(0)), ("bm", .integer(0))]
            return .object(layer)
        }
    }
}
