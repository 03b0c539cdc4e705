/// Every node kind a scene file may use, in the order docs/scene-files.md §8 lists them: the one
/// list the reader, the schema test and the docs are held to. A new kind is one file in Nodes/
/// and one line here.
enum NodeKinds {
    static let all: [any SceneNode.Type] = [
        DiscNode.self,
        BoxNode.self,
        ArcNode.self,
        WaveNode.self,
        PolylineNode.self,
        PathNode.self,
        TextNode.self,
        GroupNode.self,
        ReplicatorNode.self,
    ]

    /// Each kind's `type`.
    static let types = all.map { $0.type }

    /// The kind a file's `type` names, nil when none does.
    static func kind(_ type: String) -> (any SceneNode.Type)? {
        all.first { $0.type == type }
    }
}
