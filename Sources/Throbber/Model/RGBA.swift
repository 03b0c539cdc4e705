import Foundation

/// A colour as UIKit's `colorWithRed:green:blue:alpha:` takes it: sRGB-encoded components in
/// [0, 1] with straight (not premultiplied) alpha. No linearisation happens anywhere (SPEC §0).
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    /// Creates a colour from straight-alpha components in [0, 1].
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Fully transparent black: the `none` background.
    public static let clear = RGBA(0, 0, 0, 0)

    /// The same colour with its alpha replaced, as UIKit's `colorWithAlphaComponent:`.
    public func withAlpha(_ alpha: Double) -> RGBA { RGBA(r, g, b, alpha) }

    /// Whether every component is finite and within [0, 1].
    public var isValid: Bool {
        [r, g, b, a].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
    }

    /// The colour as `r,g,b,a`, the form `--set` accepts back.
    public var description: String {
        [r, g, b, a].map { formatNumber($0) }.joined(separator: ",")
    }

    /// Parses `r,g,b,a` (or `r,g,b`) floats in [0, 1], or `#rrggbb` / `#rrggbbaa`.
    ///
    /// - Returns: the colour, or `nil` when the text has neither form. Range checks are the
    ///   caller's, so the error can name the field.
    public static func parse(_ text: String) -> RGBA? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") {
            let hex = trimmed.dropFirst()
            guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
            let full = hex.count == 6 ? (value << 8) | 0xFF : value
            func byte(_ shift: UInt32) -> Double { Double((full >> shift) & 0xFF) / 255 }
            return RGBA(byte(24), byte(16), byte(8), byte(0))
        }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var values: [Double] = []
        for part in parts {
            guard let value = Double(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            values.append(value)
        }
        return RGBA(values[0], values[1], values[2], values.count == 4 ? values[3] : 1)
    }

    /// Builds a colour from hue, saturation and brightness in [0, 1], as UIKit's
    /// `colorWithHue:saturation:brightness:alpha:` (the HSV hexcone).
    public static func hsb(_ hue: Double, _ saturation: Double, _ brightness: Double, _ alpha: Double) -> RGBA {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h.rounded(.down)) % 6
        let f = h - h.rounded(.down)
        let v = brightness
        let p = v * (1 - saturation)
        let q = v * (1 - saturation * f)
        let t = v * (1 - saturation * (1 - f))
        switch sector {
        case 0: return RGBA(v, t, p, alpha)
        case 1: return RGBA(q, v, p, alpha)
        case 2: return RGBA(p, v, t, alpha)
        case 3: return RGBA(p, q, v, alpha)
        case 4: return RGBA(t, p, v, alpha)
        default: return RGBA(v, p, q, alpha)
        }
    }

    /// Hue, saturation and brightness of this colour, as UIKit's `getHue:saturation:brightness:alpha:`.
    public var hsb: (hue: Double, saturation: Double, brightness: Double) {
        let maxC = max(r, g, b)
        let minC = min(r, g, b)
        let delta = maxC - minC
        let saturation = maxC > 0 ? delta / maxC : 0
        var hue = 0.0
        if delta > 0 {
            if maxC == r {
                hue = (g - b) / delta
            } else if maxC == g {
                hue = 2 + (b - r) / delta
            } else {
                hue = 4 + (r - g) / delta
            }
            hue /= 6
            if hue < 0 { hue += 1 }
        }
        return (hue, saturation, maxC)
    }
}

/// Formats a number the shortest way that reads back exactly (`2` rather than `2.0`).
public func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return String(value)
}
