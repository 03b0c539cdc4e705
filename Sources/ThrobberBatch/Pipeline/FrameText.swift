import Throbber

/// The tEXt chunks that let anyone reproduce a frame. Everything but the time is worked out once
/// per clip, not once per frame.
public struct FrameText: Sendable {
    private let head: [(String, String)]
    private let tail: [(String, String)]

    /// - Parameter extra: chunks after the time (a loop's retiming).
    public init(_ scene: Scene, extra: [(String, String)] = []) {
        let parameters = scene.model.parameterInfos.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: " ")
        head = [
            ("Software", "Throbber \(throbberVersion)"),
            ("Throbber:scene", scene.model.id),
            ("Throbber:parameters", parameters + " scale=\(formatNumber(scene.scale))"
                + (scene.background.map { " background=\($0)" } ?? "")),
        ]
        tail = extra
    }

    /// The chunks of the frame at `t`.
    public func chunks(t: Double) -> [(String, String)] {
        head + [("Throbber:time", formatNumber(t))] + tail
    }
}
