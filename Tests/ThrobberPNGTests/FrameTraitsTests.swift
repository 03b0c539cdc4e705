import Testing
import Throbber
import ThrobberPNG

/// `FrameTraits` measures what it says on frames whose answers are known.
struct FrameTraitsTests {
    /// A frame of one colour: flat everywhere; transparent wholly or not at all.
    @Test func uniformFramesAreFlat() {
        let clear = Image(width: 300, height: 200)
        let traits = FrameTraits(clear)
        #expect(traits.side == 300 && traits.transparent == 1 && traits.flat == 1 && traits.changed == nil)
        let red = Image(width: 50, height: 70, pixels: [UInt8]((0..<(50 * 70)).flatMap { _ in [255, 0, 0, 255] }))
        #expect(FrameTraits(red).transparent == 0 && FrameTraits(red).flat == 1)
    }

    /// Noise repeats no neighbour (each pixel differs from the one on its left by construction).
    @Test func noiseIsNotFlat() {
        var random = SplitMix64(seed: 49)
        let pixels = (0..<(128 * 128)).flatMap { k -> [UInt8] in
            [UInt8(k % 256), UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()), 255]
        }
        let traits = FrameTraits(Image(width: 128, height: 128, pixels: pixels))
        #expect(traits.flat == 0 && traits.transparent == 0)
    }

    /// Half transparent, half opaque in columns: half the sampled pixels, and every neighbour but
    /// the one across the border flat.
    @Test func halvesAreCounted() {
        let width = 100, height = 300
        let pixels = (0..<(width * height)).flatMap { k -> [UInt8] in k % width < 50 ? [0, 0, 0, 0] : [10, 20, 30, 255] }
        let traits = FrameTraits(Image(width: width, height: height, pixels: pixels))
        #expect(traits.transparent == 0.5)
        #expect(abs(traits.flat - 98.0 / 99.0) < 1e-12)
    }

    /// Against the frame before: the fraction of sampled rows that differ; another size compares nothing.
    @Test func changedRowsAreCounted() {
        let width = 40, height = 512
        let before = Image(width: width, height: height)
        var after = before
        // Change the lower quarter: a quarter of the evenly spaced sampled rows.
        for y in (3 * height / 4)..<height { after.pixels[y * width * 4 + 7] = 200 }
        #expect(FrameTraits(after, previous: before).changed == 0.25)
        #expect(FrameTraits(before, previous: before).changed == 0)
        #expect(FrameTraits(after, previous: Image(width: width, height: height - 1)).changed == nil)
    }
}
