import Foundation
import Throbber

extension ExportLowering {
    /// A layer (SPEC §10) is a Lottie layer of its own: its content's groups under its masks
    /// (`masksProperties`, in canvas space) and its opacity. Track mattes are refused (Debian's
    /// rlottie drops them, issue 51), and so are layers within layers.
    static func lowerLayer(_ layer: Layer, key: String, into out: inout [ExportElement], list: DrawList, tolerance: Double) throws {
        guard layer.matte == nil else { throw refusal(key, "is a layer with a track matte (Lottie players differ on mattes; masks they share)") }
        var masks: [LottieValue] = []
        var channels: [String: ChannelValue] = [:]
        for (k, mask) in layer.masks.enumerated() {
            let paths = Bezier.paths(mask.transform.apply(mask.geometry))
            guard paths.count == 1 || (paths.count > 1 && [.add, .subtract].contains(mask.mode) && !mask.inverted) else {
                throw refusal(key, "is a layer whose \(mask.mode.rawValue) mask has \(paths.count) contours (a Lottie mask has one)")
            }
            let mode: String
            switch mask.mode {
            case .add: mode = "a"
            case .subtract: mode = "s"
            case .intersect: mode = "i"
            case .difference:
                // Lottie's "f" is After Effects', not lottie-spec 1.0's, which the export keeps to.
                throw refusal(key, "is a layer with a difference mask (not in lottie-spec 1.0)")
            }
            for (j, path) in paths.enumerated() {
                let name = "layer-m\(k)-\(j)"
                channels[name] = ChannelValue(kind: .path(tolerance, closed: path.closed), value: path.values)
                channels[name + "o"] = ChannelValue(kind: .opacity, value: [Double(mask.opacity) * 100])
                masks.append(.object([("inv", .bool(mask.inverted)), ("mode", .string(mode)), ("pt", .channel(name)),
                                      ("o", .channel(name + "o")), ("x", .fixed(.integer(0))), ("nm", .string("\(key) \(k)"))]))
            }
        }
        channels["layer-o"] = ChannelValue(kind: .opacity, value: [Double(layer.opacity) * 100])
        var content: [ExportElement] = []
        for item in layer.content {
            if item.primitive is Layer { throw refusal(key, "is a layer within a layer (the export writes one level)") }
            try lower(item, into: &content, list: list, tolerance: tolerance)
        }
        for var element in content {
            guard element.masks.isEmpty, element.instance == nil else {
                throw refusal(key, "is a layer holding '\(element.key)', which is drawn through its own layer")
            }
            element.key = "\(key)/\(element.key)"
            element.layer = key
            element.masks = masks
            element.channels.merge(channels) { a, _ in a }
            out.append(element)
        }
    }
}
