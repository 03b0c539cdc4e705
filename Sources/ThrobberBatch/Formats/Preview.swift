import Foundation
import Throbber
import ThrobberPNG
import ThrobberRender

/// `throbber preview`'s sheet, which the bench times too: frames spread evenly over a stretch of
/// a scene's timeline, rendered in order and laid out on a labelled contact sheet.
public enum Preview {
    /// The times of `frames` frames spread evenly over `duration` seconds from `start`.
    public static func times(frames: Int, duration: Double, start: Double) -> [Double] {
        (0..<frames).map { start + duration * Double($0) / Double(frames) }
    }

    /// The contact sheet of `scene`'s frames at `times` in `columns` columns
    /// (``ContactSheet/compose(_:times:columns:)``), rendered in order, as many at once as the
    /// backend draws best.
    public static func sheet(_ scene: LaidOutScene, times: [Double], columns: Int, renderer: FrameRenderer) throws -> Image {
        let lists = times.map { scene.drawList(at: $0) }
        return ContactSheet.compose(try renderer.render(lists), times: times, columns: columns)
    }

    /// The sheet as a PNG file with its provenance, on `threads` threads (the encoder's segments),
    /// and the encoder that wrote it (`auto` chooses from the sheet itself, as for any image with
    /// no frame before it).
    public static func png(_ sheet: Image, scene: LaidOutScene, times: [Double], columns: Int, renderer: FrameRenderer,
                           encoder: PNGEncoder, threads: Int) throws -> (data: Data, choice: PNGChoice) {
        // The sheet renders again from its own tEXt (`throbber reproduce`).
        let text = FrameText(scene, backend: renderer.backend.rawValue, driver: renderer.driver)
        let choice = try encoder.choice(for: sheet)
        return (try choice.encoder.encode(sheet, text: text.chunks(columns: columns, times: times, layout: .contact), threads: threads),
                choice)
    }
}
