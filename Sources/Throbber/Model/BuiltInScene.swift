/// A scene written in Swift: its descriptions are statics of its type, and `init()` gives the
/// original indicator's look.
///
/// The instance descriptions `SceneModel` asks for forward to the statics, so a built-in is
/// described once, on its type, and every tool reads it as it reads a scene from a file.
public protocol BuiltInScene: SceneModel {
    /// The scene id used on the command line, e.g. `wave-ball`.
    static var id: String { get }
    /// One line describing the scene.
    static var summary: String { get }
    /// Every settable parameter, by its SPEC name.
    static var parameters: [SceneParameter<Self>] { get }
    /// The rules that tie parameters together, in words (see `SceneModel.relations`).
    static var relations: [String] { get }

    /// The original indicator's look.
    init()
}

extension BuiltInScene {
    public var id: String { Self.id }
    public var summary: String { Self.summary }
    public var parameters: [SceneParameter<Self>] { Self.parameters }
    public var relations: [String] { Self.relations }
    public static var relations: [String] { [] }
}
