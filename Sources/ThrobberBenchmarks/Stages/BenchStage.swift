/// A stage `throbber bench --stages` names; the raw value is the name, and the order of the cases
/// is the order `--help` lists them.
///
/// `StageRegistry` says which benchmark times each one.
public enum BenchStage: String, CaseIterable, Sendable {
    /// Drawing, until the driver is done (GL); the whole frame (CPU renderer).
    case render
    /// `glReadPixels` of a drawn frame.
    case readback
    /// Render + readback as render and batch draw GL frames: a stack of frames per draw.
    case frame
    /// Render + readback, one frame per draw.
    case frame1
    /// Render + readback through a ring of pixel-buffer objects mapped a frame late.
    case async
    /// PNG encoding on one thread.
    case encode
    /// SHA-256 of the PNG file (as the manifest records it) and of the pixels.
    case hash
    /// Writing a PNG to a new file.
    case write
    /// `throbber batch` on a job of the same frames.
    case pipeline
    /// `throbber batch` on a job of the same frames into one sprite sheet.
    case sheet
    /// `throbber preview`: 16 frames on a labelled contact sheet.
    case preview
}
