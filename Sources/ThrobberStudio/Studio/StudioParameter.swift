import Foundation
import Throbber

/// A parameter as the page builds its control from: its declaration as `throbber scenes --json`
/// gives it (`ParameterSchema`), and for numbers, sizes and offsets the slider's span — the range random parity
/// cases draw from, logarithmic where they draw logarithmically — since a declared range may be
/// open (`> 0`) and a slider's may not.
public struct StudioParameter: Sendable, Encodable {
    /// A slider's span and feel.
    public struct Slider: Sendable, Encodable, Equatable {
        public var min: Double
        public var max: Double
        /// Positions spread over orders of magnitude (then `min` > 0; smaller values, 0 among
        /// them where allowed, are typed).
        public var log: Bool
        /// The smallest step: 1 for integers, else a round fraction of the span.
        public var step: Double
    }

    public var schema: ParameterSchema
    public var slider: Slider?

    enum SliderKey: String, CodingKey { case slider }

    /// The schema's members with `slider` beside them, in one object.
    public func encode(to encoder: Encoder) throws {
        try schema.encode(to: encoder)
        var container = encoder.container(keyedBy: SliderKey.self)
        try container.encodeIfPresent(slider, forKey: .slider)
    }

    /// The slider for a sampling range: linear over [low, high], or logarithmic from the
    /// sampler's smallest magnitude when both ends are ≥ 0.
    static func slider(_ range: SamplingRange, integer: Bool) -> Slider? {
        guard range.isFinite, range.low < range.high else { return nil }
        if let smallest = range.logarithmicFrom, range.low >= 0, smallest > 0, smallest < range.high {
            let low = Swift.max(range.low, smallest)
            return Slider(min: low, max: range.high, log: true, step: integer ? 1 : roundStep(low / 100))
        }
        return Slider(min: range.low, max: range.high, log: false, step: integer ? 1 : roundStep((range.high - range.low) / 1000))
    }

    /// The largest power of ten at most `value` (0.001 for a span of 1).
    static func roundStep(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 0.001 }
        return Foundation.pow(10, Foundation.floor(Foundation.log10(value)))
    }
}

extension SceneModel {
    /// Every parameter with its control's slider, in declaration order.
    public var studioParameters: [StudioParameter] {
        zip(parameterSchemas, parameters).map { schema, parameter in
            let slider = parameter.samplingRange.flatMap {
                StudioParameter.slider($0, integer: schema.type == "integer")
            }
            return StudioParameter(schema: schema, slider: ["number", "integer", "size", "offset"].contains(schema.type) ? slider : nil)
        }
    }
}
