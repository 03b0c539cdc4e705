import Throbber

/// An integer setting's rule, written once: the setting's name, the integers it allows, and the
/// one message anything else gets — `invalid frames 0: an integer in [1, 10000000]`, naming the
/// field, the value and what is allowed (as ``NumberRule`` for other numbers).
public struct IntegerRule: Sendable {
    /// The setting's name, as the library and a job file spell it.
    public let field: String
    /// The integers allowed.
    public let range: ClosedRange<Int>

    /// The rule that `field` takes an integer in `range`.
    public init(_ field: String, _ range: ClosedRange<Int>) {
        self.field = field
        self.range = range
    }

    /// What is allowed, in words: `an integer in [1, 10000000]`.
    public var allowed: String { "an integer in [\(range.lowerBound), \(range.upperBound)]" }

    /// `value` as an integer, when it is one the rule allows (a job file's numbers are read as
    /// `Double`: 1.5 and 1e300 are refused here, before any conversion could trap).
    ///
    /// - Parameter shown: the value as the user wrote it; by default the number's shortest form.
    /// - Throws: a usage error naming the field, the value and the range, with ``ThrobberError/field``.
    @discardableResult
    public func check(_ value: Double, shown: String? = nil) throws -> Int {
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw ThrobberError("invalid \(field) \(ThrobberError.echoed(shown ?? formatNumber(value))): \(allowed)", kind: .usage, field: field)
        }
        return Int(value)
    }

    /// `value`, when the rule allows it.
    @discardableResult
    public func check(_ value: Int) throws -> Int { try check(Double(value), shown: String(value)) }
}
