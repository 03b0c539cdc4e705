import Throbber

/// The text nodes of a scene file as its values make them, for checks made when the file is read.
extension FileScene {
    /// One text node's content at this model's parameter values, with where the node stands.
    public struct PaintedText: Sendable, Equatable {
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
    public var textNodes: [PaintedText] {
        guard paintsText else { return [] }
        let env = parameterEnvironment()
        var budget = FileScene.budget
        var found: [PaintedText] = []
        func walk(_ nodes: [any SceneNode]) {
            for node in nodes {
                if let text = node as? TextNode {
                    if case .string(let content)? = try? text.text.evaluate(env, budget: &budget) {
                        found.append(PaintedText(place: text.info.place, id: text.info.id, content: content, role: text.role))
                    }
                }
                walk(node.content)
            }
        }
        walk(definition.content)
        return found
    }
}
