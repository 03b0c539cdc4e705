import Foundation
import Throbber
import ThrobberPNG
import ThrobberRender

/// A PNG rendered again from its own tEXt chunks and compared with itself (`throbber reproduce`).
///
/// A frame is rebuilt from its provenance (`FrameText.provenance`): the scene, its parameters,
/// scale, background and loop speeds, drawn at its time; a sprite sheet or a preview has every
/// cell's time and is laid out again as it was. The file's decoded pixels are then compared with
/// the new ones under the rule of SPEC §0.
public struct Reproduction: Sendable {
    /// What the file's chunks say.
    public let provenance: FrameText.Provenance
    /// The backend that drew the new image (the recorded one unless told otherwise).
    public let backend: Backend
    /// The renderer's description.
    public let rendererDescription: String
    /// The file's pixels against the new ones.
    public let diff: ImageDiff
    /// The new image.
    public let image: Image

    /// Reads `path`, renders it again and compares.
    ///
    /// - Parameters:
    ///   - backend: the backend to draw with; nil for the one the file records.
    ///   - tolerance: the channel difference allowed (SPEC §0), 0 for identical.
    /// - Throws: what reading the file throws (missing, not a PNG); bad data for chunks that
    ///   are missing or do not make a scene; the renderer's errors.
    public init(file path: String, backend: Backend? = nil, tolerance: Int = 0) throws {
        let data = Data(try InputFile.read(path, what: "image", limit: .max))
        let recorded = try ThrobberError.naming(path) { try PNGCodec.decode(data) }
        let chunks = try ThrobberError.naming(path) { try PNGCodec.textChunks(data) }
        let provenance = try FrameText.provenance(chunks, name: path)
        let chosen: Backend
        if let backend {
            chosen = backend
        } else {
            // "egl --device 0" and the like: the backend is the first word.
            let name = provenance.backend.split(separator: " ").first.map(String.init) ?? "cpu"
            guard let recordedBackend = Backend(rawValue: name), recordedBackend != .auto else {
                throw ThrobberError("\(path): tEXt \(FrameText.Key.backend) '\(ThrobberError.echoed(provenance.backend, longest: 80))' "
                                    + "is not a backend (\(Backend.names.filter { $0 != "auto" }.joined(separator: ", ")))", kind: .badData)
            }
            chosen = recordedBackend
        }
        let renderer = try FrameRenderer(chosen)
        let scene = provenance.scene
        let frames = try provenance.times.map { try renderer.render(scene.drawList(at: $0)) }
        let image: Image
        switch (provenance.layout, provenance.columns) {
        case (.contact?, let columns?):
            image = ContactSheet.compose(frames, times: provenance.times, columns: columns)
        case (_, let columns?):
            let layout = SpriteSheet.layout(frameCount: frames.count, frameWidth: frames[0].width, frameHeight: frames[0].height,
                                            columns: columns)
            var builder = SpriteSheet.Builder(columns: layout.columns, rows: layout.rows,
                                              frameWidth: frames[0].width, frameHeight: frames[0].height)
            for (index, frame) in frames.enumerated() { builder.place(frame, at: index) }
            image = builder.image
        default:
            image = frames[0]
        }
        guard image.width == recorded.width, image.height == recorded.height else {
            throw ThrobberError("\(path) is \(recorded.width)×\(recorded.height) px, but its tEXt renders \(image.width)×\(image.height) px",
                                kind: .badData)
        }
        self.provenance = provenance
        self.backend = renderer.backend
        rendererDescription = renderer.description
        diff = ImageDiff(expected: recorded, observed: image, tolerance: tolerance)
        self.image = image
    }
}
