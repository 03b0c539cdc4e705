/// The one list of scenes that every tool iterates: render, scenes, tests, parity, bench.
///
/// Adding a scene is one model file here, nothing per renderer (both renderers draw the shared
/// primitives), plus one line below.
public enum SceneRegistry {
    /// Every scene type, in the order `throbber scenes` lists them.
    public static var all: [any BuiltInScene.Type] {
        [WaveBall.self, DoubleWave.self, PullWave.self, Activity.self, Ring.self, ProgressRing.self, HUD.self]
    }

    /// Every built-in scene at its defaults, in the same order.
    public static var defaults: [any SceneModel] { all.map { $0.init() } }

    /// Every scene id.
    public static var ids: [String] { all.map { $0.id } }

    /// Scenes that exist for parity only (docs/parity.md): not listed with the indicators, but
    /// taken by id wherever a scene is (`render paths …` reproduces a parity case).
    public static var parityOnly: [any BuiltInScene.Type] { [RandomPaths.self] }

    /// The scenes `parity` draws by default: every indicator, then the parity-only scenes.
    public static var parityIDs: [String] { ids + parityOnly.map { $0.id } }

    /// The default model of the scene with this id.
    ///
    /// - Throws: a usage error naming the unknown scene and the nearest known id.
    public static func model(_ id: String) throws -> any SceneModel {
        guard let type = (all + parityOnly).first(where: { $0.id == id }) else {
            throw ThrobberError.unknown("scene", id, known: ids)
        }
        return type.init()
    }
}
