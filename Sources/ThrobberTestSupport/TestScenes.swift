import Throbber
import ThrobberSceneFile

/// Scenes and file readers the test targets share.
public enum TestScenes {
    /// A scene file of `count` overlapping translucent boxes on a `side` pt canvas, turning with
    /// time: a frame whose work grows as count² where the boxes overlap (issue 46's stops).
    /// Validated and ready to draw (it paints no text).
    public static func overlappingBoxes(_ count: Int, side: Double = 120) throws -> LaidOutScene {
        let text = """
            {"format": "throbber-scene/1", "id": "boxes", "canvas": {"width": \(side), "height": \(side), "background": "none"},
             "clocks": [{"name": "spin", "duration": 2, "repeat": "forever"}],
             "content": [{"type": "replicator", "count": \(count), "content": [
               {"type": "box", "center": [\(side / 2), \(side / 2)], "size": [\(side * 0.6), \(side * 0.6)],
                "rotation": "spin.u * 360 + i * 7.3", "color": [0.2, 0.4, 0.8, 0.1]}]}]}
            """
        return try LaidOutScene(Scene(try FileScene(text: text, path: "boxes.scene.json")))
    }

    /// The chunks of a RIFF file (a WebP): four-character name, payload offset and size.
    public static func riffChunks(_ bytes: [UInt8]) -> [(name: String, offset: Int, size: Int)] {
        func little(_ at: Int, _ count: Int) -> Int { (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        var list: [(String, Int, Int)] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = little(offset + 4, 4)
            list.append((String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), offset + 8, size))
            offset += 8 + size + (size & 1)
        }
        return list
    }
}
