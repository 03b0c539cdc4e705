/// One random parity case: a valid scene, the time of its frame, and the settings that rebuild
/// the scene from its defaults — exactly what `throbber render` needs to reproduce it.
public struct SampledCase: Sendable {
    /// One setting by the name `Scene.setting(_:to:)` and `--set` accept, with its value as text.
    public struct Setting: Sendable, Hashable {
        /// A scene parameter's SPEC name, or `scale` or `background`.
        public var name: String
        /// The value in the form `--set` accepts back; numbers read back exactly.
        public var value: String

        /// Creates a setting.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The scene id.
    public var sceneID: String
    /// The case's number within its scene: with the seed, all that is needed to draw it again.
    public var index: Int
    /// The scene, built by applying `settings` to the scene's defaults, and validated.
    public var scene: Scene
    /// The scene as the sampler's `prepare` readied it to draw (its text laid out), when one was
    /// given: `scene` is its scene.
    public var laidOut: LaidOutScene?
    /// The time of the frame, in seconds.
    public var time: Double
    /// `scale` first, then `background` when set, then every parameter whose value differs from
    /// the default, in the order the scene declares them.
    public var settings: [Setting]
}
