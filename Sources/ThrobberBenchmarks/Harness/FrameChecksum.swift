import Throbber

/// What a stage that makes frames folds into its checksum from each: the bytes of the frame's
/// middle row, summed. Every scene is drawn about the centre, so the row crosses what was drawn
/// and its sum is never 0 for a frame that holds the drawing (a single byte could be, where the
/// row starts outside the drawing); one row costs a sliver of drawing the frame.
enum FrameChecksum {
    /// The middle row's bytes of straight RGBA8 `pixels`, `width` × `height` px, summed.
    static func of(_ pixels: [UInt8], width: Int, height: Int) -> UInt64 {
        let rowBytes = width * 4, start = (height / 2) * rowBytes
        guard pixels.count >= start + rowBytes else { return 0 }
        var sum: UInt64 = 0
        for byte in pixels[start..<start + rowBytes] { sum &+= UInt64(byte) }
        return sum
    }

    /// The middle row of `image`, summed.
    static func of(_ image: Image) -> UInt64 { of(image.pixels, width: image.width, height: image.height) }
}
