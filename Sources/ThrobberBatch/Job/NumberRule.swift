import Throbber

/// A numeric setting's rule, written once: the setting's name, the numbers it allows, and the one
/// message a number outside them gets — `invalid fps 0: a number > 0 in [0.001, 1000]`, naming
/// the field, the value and what is allowed.
///
/// The initialisers that take the setting (`Clip.init`) check it, and so does the job-file reader
/// as it reads the setting, passing the value as the file spells it (`1e20`, not `1e+20`).
public struct NumberRule: Sendable {
    /// The setting's name, as the library and a job file spell it.
    public let field: String
    /// The numbers allowed.
    public let range: NumberRange

    /// The rule that `field` takes a number in `range`.
    public init(_ field: String, _ range: NumberRange) {
        self.field = field
        self.range = range
    }

    /// `value`, when the rule allows it.
    ///
    /// - Parameter shown: the value as the user wrote it (a job file's text); by default the
    ///   number's shortest form.
    /// - Throws: a usage error naming the field, the value and the range, with ``ThrobberError/field``.
    @discardableResult
    public func check(_ value: Double, shown: String? = nil) throws -> Double {
        guard range.contains(value) else {
            throw ThrobberError("invalid \(field) \(ThrobberError.echoed(shown ?? formatNumber(value))): \(range.text)",
                                kind: .usage, field: field)
        }
        return value
    }
}
