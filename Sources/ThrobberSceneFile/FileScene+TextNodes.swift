import Throbber

/// The text nodes of a scene file as its values make them, for checks made when the file is read.
extension FileScene {
    /// One text node's content at this model's parameter values, with where the node stands.
    public struct TextNode: Sendable, Equatable {
        /// The node's place, `FILE:LINE:COLUMN`.
        public var place: String
        /// The node's id.
        public var id: String
        public var content: String
        public var role: FontRole
    }

    /// Every text node, in or out of groups and replicators, with the content it paints at this
    /// model's parameter values; a node whose content cannot be evaluated is left to the frame's
    /// own checks.
    public var textNodes: [TextNode] {
        guard paintsText else { return [] }
        let env = parameterEnvironment()
        var budget = FileScene.budget
        var found: [TextNode] = []
        func walk(_ nodes: [SceneDefinition.Node]) {
            for node in nodes {
                switch node {
                case let .text(info, text, role, _, _, _):
                    if case .string(let content)? = try? text.evaluate(env, budget: &budget) {
                        found.append(TextNode(place: info.place, id: info.id, content: content, role: role))
                    }
                case let .group(_, _, _, content), let .replicator(_, _, _, _, _, _, _, _, _, content):
                    walk(content)
                default:
                    continue
                }
            }
        }
        walk(definition.content)
        return found
    }
}
