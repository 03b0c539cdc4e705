/// One independently periodic part of an animation (a phase, a breathing amplitude, a spin).
public struct PeriodicPart: Sendable, Equatable {
    /// The part's name, e.g. `frontPhase`.
    public var name: String
    /// Its period in seconds at the original speed.
    public var period: Double

    public init(_ name: String, period: Double) {
        self.name = name
        self.period = period
    }
}

/// Speed factors of a scene's periodic parts (1 = the original speed), set when a clip is
/// retimed into a seamless loop. A part runs on its own clock, t × factor.
public struct PartSpeeds: Sendable, Equatable {
    /// Factor by part name; a missing name runs at speed 1.
    public var factors: [String: Double] = [:]

    public init() {}

    /// The time `part` sees at scene time `t`.
    @inline(__always)
    public func time(_ part: String, _ t: Double) -> Double {
        guard let factor = factors[part] else { return t }
        return t * factor
    }
}
