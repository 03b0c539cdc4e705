import Foundation
import Testing
import Throbber
import ThrobberCPU
import ThrobberPNG

/// The PNG codec (libpng through CPNGCodec): pixels and tEXt chunks round-trip, garbage is data.
struct PNGCodecTests {
    @Test(arguments: [0, 6, 9])
    func roundTripKeepsEveryPixel(level: Int) throws {
        let image = CPURenderer().render(try LaidOutScene(Scene(WaveBall(), scale: 0.5)).drawList(at: 0.7))
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
            (error as! ThrobberError).kind == .badData
        }
    }

    @Test func higherLevelsAreNotLarger() throws {
        let image = CPURenderer().render(try LaidOutScene(Scene()).drawList(at: 1))
        let fast = try PNGCodec.encode(image, settings: .init(level: 1)).count
        let small = try PNGCodec.encode(image, settings: .init(level: 9)).count
        #expect(small <= fast)
    }
}
