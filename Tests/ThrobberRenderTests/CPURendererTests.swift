import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG

struct CPURendererTests {
    @Test(arguments: [1, 3, 7])
    func sameBytesWhateverTheThreadCount(threads: Int) throws {
        let list = Scene(WaveBall(), scale: 1.5).drawList(at: 1.3)
        let single = CPURenderer(threadCount: 1).render(list)
        let many = CPURenderer(threadCount: threads).render(list)
        #expect(single.pixels == many.pixels)
    }

    @Test func transparentBackgroundStaysTransparent() throws {
        let image = CPURenderer().render(Scene().drawList(at: 1))
        #expect(image[0, 0] == (0, 0, 0, 0))
        // The disc centre is opaque water.
        #expect(image[150, 150].a == 255)
    }

    @Test func discCentreHasTheWaterBackgroundColour() throws {
        // At t = 0 with fillFrom 0 the disc is empty: its centre is waterBackground exactly.
        let image = CPURenderer().render(Scene().drawList(at: 0))
        let c = WaveBall().waterBackground
        let pixel = image[150, 120]
        #expect(pixel == (UInt8((c.r * 255).rounded()), UInt8((c.g * 255).rounded()), UInt8((c.b * 255).rounded()), 255))
    }

    @Test func litTickIsLitAtTheBottom() throws {
        // Bottom tick centre: (150, 150 + (240/2 − 5)) = (150, 265).
        let image = CPURenderer().render(Scene().drawList(at: 1))
        let lit = WaveBall().tickLit
        let pixel = image[150, 265]
        #expect(abs(Int(pixel.r) - Int((lit.r * 255).rounded())) <= 1)
        #expect(abs(Int(pixel.b) - Int((lit.b * 255).rounded())) <= 1)
        // The top tick is not lit.
        let top = image[150, 35]
        #expect(abs(Int(top.b) - Int((WaveBall().tickBackground.b * 255).rounded())) <= 1)
    }

    @Test func backgroundColourFillsTheCorners() throws {
        let scene = Scene(WaveBall(), background: RGBA(1, 0, 0, 0.5))
        let image = CPURenderer().render(scene.drawList(at: 0))
        #expect(image[0, 0] == (255, 0, 0, 128))
    }
}

struct PNGCodecTests {
    @Test(arguments: [0, 6, 9])
    func roundTripKeepsEveryPixel(level: Int) throws {
        let image = CPURenderer().render(Scene(WaveBall(), scale: 0.5).drawList(at: 0.7))
        let decoded = try PNGCodec.decode(PNGCodec.encode(image, settings: .init(level: level)))
        #expect(decoded == image)
    }

    @Test func textChunksRoundTrip() throws {
        let image = Image(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let data = try PNGCodec.encode(image, text: [("Throbber:scene", "wave-ball"), ("Throbber:time", "0.5")])
        let chunks = try PNGCodec.textChunks(data)
        #expect(chunks.map(\.0) == ["Throbber:scene", "Throbber:time"])
        #expect(chunks.map(\.1) == ["wave-ball", "0.5"])
    }

    @Test func garbageIsADataError() {
        #expect {
            try PNGCodec.decode(Data("not a png at all".utf8))
        } throws: { error in
            (error as! ThrobberError).exitCode == .dataError
        }
    }

    @Test func higherLevelsAreNotLarger() throws {
        let image = CPURenderer().render(Scene().drawList(at: 1))
        let fast = try PNGCodec.encode(image, settings: .init(level: 1)).count
        let small = try PNGCodec.encode(image, settings: .init(level: 9)).count
        #expect(small <= fast)
    }
}

import ThrobberDigest

struct PixelDigestTests {
    @Test(arguments: [0, 1, 63, 64, 65, 1000, 300 * 300 * 4])
    func libcryptoAgreesWithThePortableSHA256(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        #expect(PixelDigest.sha256Hex(bytes) == SHA256.hexDigest(bytes))
    }

    @Test func knownVector() {
        #expect(PixelDigest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
