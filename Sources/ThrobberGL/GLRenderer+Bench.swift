@preconcurrency import CGL
import Throbber

/// What the benchmark's stages and ceilings time separately: a draw without its readback, the
/// readback alone, the driver's finish, and the floor under every frame.
extension GLRenderer {
    /// Paints one frame without reading it back (for the benchmark's stages).
    ///
    /// - Throws: as `render(_:)`.
    public func draw(_ list: DrawList) throws {
        try draw([list][...])
    }

    /// Reads the frame of the last `draw` into `pixels`, top row first.
    public func readBack(into pixels: UnsafeMutableRawPointer) {
        target?.readBack(rows: frameRows, into: pixels)
    }

    /// Waits until the driver has finished every command issued so far.
    public func finish() { gl.Finish() }

    /// The floor under every frame: clear a `width` × `height` target and read it back, with no
    /// drawing at all (the benchmark's "clear + readback" ceiling).
    ///
    /// - Throws: as `render(_:)`.
    public func clearAndReadBack(width: Int, height: Int, into pixels: UnsafeMutableRawPointer) throws {
        let target = try prepareTarget(width: width, height: height)
        frameRows = 0..<height
        target.bind()
        gl.ClearColor(0, 0, 0, 0)
        gl.Clear(GLbitfield(GL_COLOR_BUFFER_BIT))
        readBack(into: pixels)
    }
}
