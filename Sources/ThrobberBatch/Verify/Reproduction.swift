import Foundation
import Throbber
import ThrobberText
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
    /// The recorded font files that are missing now or hold other bytes, one line each: why the
    /// pixels may differ.
    public let fontChanges: [String]

    /// Reads `path`, renders it again and compares.
    ///
    /// - Parameters:
    ///   - backend: the backend to draw with; nil for the one the file records.
    ///   - tolerance: the channel difference allowed (SPEC §0), 0 for identical.
    /// - Throws: what reading the file throws (missing, not a PNG); bad data for chunks that
    ///   are missing or do not make a scene; the renderer's errors.
    ///   - sceneFile: for a frame of a scene file, the file to draw it from instead of the path
    ///     its tEXt records (it must hold the same bytes).
    public init(file path: String, backend: Backend? = nil, tolerance: Int = 0, sceneFile: String? = nil) throws {
        // Everything the file says is checked against everything else it says before a pixel is
        // drawn or decoded: the read is bounded (InputFile.readPNG), the chunk lengths fit the file
        // (the codec checks them first), the header is within the pixel budget, and the canvas
        // the tEXt describes has the header's size.
        let data = try InputFile.readPNG(path)
        let shown = ThrobberError.shownPath(path)
        let chunks = try ThrobberError.naming(shown) { try PNGCodec.textChunks(data) }
        let provenance = try FrameText.provenance(chunks, name: shown, sceneFile: sceneFile)
        let recorded = try ThrobberError.naming(shown) { try PNGCodec.RowReader(data) }
        // A font that changed explains pixels that differ; one that is gone stops the layout.
        let fontChanges = TextProvenance.changes(provenance.fonts)
        // Every value laid out came from the file: a font path that names no font is its bad
        // data, not the caller's usage; a font that is missing now stays a missing input.
        func layingOut(_ scene: Scene) throws -> LaidOutScene {
            do {
                return try scene.layingOutText()
            } catch let error as ThrobberError where !fontChanges.isEmpty {
                throw ThrobberError("\(shown): \(fontChanges.joined(separator: "; ")): \(error.message)",
                                    kind: error.kind == .missingInput ? .missingInput : .badData, code: error.code)
            } catch let error as ThrobberError where error.kind == .usage {
                throw ThrobberError("\(shown): its tEXt does not make a scene: \(error.message)", kind: .badData)
            }
        }
        let scene = try layingOut(provenance.scene)
        // A chained sheet's cells: each drawn by the link whose time span holds it.
        let links = try provenance.links.map { (from: $0.from, scene: try layingOut($0.scene)) }
        // The links' times rise (FrameText.provenance checks it): the last one from at most t, by bisection.
        let sceneAt: (Double) -> LaidOutScene = { t in
            let count = links.countOfPrefix { $0.from <= t }
            return count == 0 ? scene : links[count - 1].scene
        }
        if provenance.layout == .atlas {
            throw ThrobberError("\(shown): a sheet page laid out by its atlas (trimmed, aliased, padded or extruded frames) says in its "
                                + "tEXt only when its frames are, not where; reproduce the clip's PNG frames, or write the sheet as a plain grid",
                                kind: .badData)
        }
        let (frameWidth, frameHeight) = scene.pixelSize
        let canvas = Reproduction.canvas(provenance, frameWidth: frameWidth, frameHeight: frameHeight)
        guard canvas.width == recorded.width, canvas.height == recorded.height else {
            throw ThrobberError("\(shown) is \(recorded.width)×\(recorded.height) px, but its tEXt describes \(canvas.width)×\(canvas.height) px "
                                + "(\(provenance.times.count) cell\(provenance.times.count == 1 ? "" : "s") of \(frameWidth)×\(frameHeight)); "
                                + "nothing was rendered", kind: .badData)
        }
        let chosen: Backend
        if let backend {
            chosen = backend
        } else {
            // "egl --device 0" and the like: the backend is the first word.
            let name = provenance.backend.split(separator: " ").first.map(String.init) ?? "cpu"
            guard let recordedBackend = Backend(rawValue: name), recordedBackend != .auto else {
                throw ThrobberError("\(shown): tEXt \(FrameText.Key.backend) '\(ThrobberError.echoed(provenance.backend, longest: 80))' "
                                    + "is not a backend (\(Backend.names.filter { $0 != "auto" }.joined(separator: ", ")))", kind: .badData)
            }
            chosen = recordedBackend
        }
        let renderer = try FrameRenderer(chosen)
        let image: Image
        switch (provenance.layout, provenance.columns) {
        case (.contact?, let columns?):
            let frames = try provenance.times.map { try renderer.render(try sceneAt($0).checkedDrawList(at: $0)) }
            image = ContactSheet.compose(frames, times: provenance.times, columns: columns)
        case (_, let columns?):
            // Each cell placed as it is drawn: the sheet and one frame are held, not every frame.
            let layout = SpriteSheet.layout(frameCount: provenance.times.count, frameWidth: frameWidth, frameHeight: frameHeight,
                                            columns: columns)
            var builder = SpriteSheet.Builder(columns: layout.columns, rows: layout.rows, frameWidth: frameWidth, frameHeight: frameHeight)
            for (index, t) in provenance.times.enumerated() { builder.place(try renderer.render(try sceneAt(t).checkedDrawList(at: t)), at: index) }
            image = builder.image
        default:
            image = try renderer.render(try scene.checkedDrawList(at: provenance.times[0]))
        }
        self.provenance = provenance
        self.fontChanges = fontChanges
        self.backend = renderer.backend
        rendererDescription = renderer.description
        // The file's pixels are decoded band by band against the new image, never held whole.
        diff = try recorded.diff(against: image, name: shown, tolerance: tolerance)
        self.image = image
    }

    /// The size of the image the provenance describes: one frame, a sprite sheet's grid or a
    /// contact sheet, worked out from the frame size and the cells alone.
    static func canvas(_ provenance: FrameText.Provenance, frameWidth: Int, frameHeight: Int) -> (width: Int, height: Int) {
        switch (provenance.layout, provenance.columns) {
        case (.contact?, let columns?):
            return ContactSheet.size(frames: provenance.times.count, frameWidth: frameWidth, frameHeight: frameHeight, columns: columns)
        case (_, let columns?):
            let layout = SpriteSheet.layout(frameCount: provenance.times.count, frameWidth: frameWidth, frameHeight: frameHeight,
                                            columns: columns)
            return (layout.width, layout.height)
        default:
            return (frameWidth, frameHeight)
        }
    }
}
