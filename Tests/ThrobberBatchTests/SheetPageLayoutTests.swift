import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// How a sheet is split into pages (`SpriteSheet.pages`), what the pages are called, and the
/// names its frames get in the atlas.
struct SheetPageLayoutTests {
    @Test(arguments: [(1, 7, 5, nil, 7), (60, 50, 50, nil, 256), (60, 50, 50, 3, 256), (60, 50, 50, 40, 256),
                      (1000, 30, 70, nil, 300), (17, 100, 100, 1, 100), (60, 720, 720, 10, 4096), (999, 1, 1, nil, 10)] as [(Int, Int, Int, Int?, Int)])
    func everyFrameIsOnExactlyOnePageInOrderAndNoPagePassesMaxSize(count: Int, width: Int, height: Int, columns: Int?, maxSize: Int) {
        let pages = SpriteSheet.pages(frameCount: count, frameWidth: width, frameHeight: height, columns: columns, maxSize: maxSize)
        #expect(pages.map(\.frames.count).reduce(0, +) == count)
        #expect(pages.first?.frames.lowerBound == 0 && pages.last?.frames.upperBound == count)
        for (previous, next) in zip(pages, pages.dropFirst()) {
            #expect(previous.frames.upperBound == next.frames.lowerBound)
            // Every page but the last is as full as the first.
            #expect(previous.frames.count == pages[0].frames.count)
        }
        for page in pages {
            #expect(page.width <= maxSize && page.height <= maxSize, "\(page)")
            #expect(page.width == page.columns * width && page.height == page.rows * height)
            #expect(page.columns * page.rows >= page.frames.count && page.columns * (page.rows - 1) < page.frames.count, "\(page)")
            if let columns { #expect(page.columns == min(columns, maxSize / width, page.frames.count)) }
        }
    }

    @Test func aSheetThatFitsOnePageIsLaidOutAsBefore() {
        for count in [1, 2, 5, 10, 60, 99, 100] {
            for columns in [nil, 1, 3, 10] as [Int?] {
                let layout = SpriteSheet.layout(frameCount: count, frameWidth: 40, frameHeight: 30, columns: columns)
                let pages = SpriteSheet.pages(frameCount: count, frameWidth: 40, frameHeight: 30, columns: columns, maxSize: Limits.sheetSide)
                #expect(pages == [SpriteSheet.Page(frames: 0..<count, columns: layout.columns, rows: layout.rows,
                                                   width: layout.width, height: layout.height)], "\(count) frames, columns \(columns as Any)")
            }
        }
    }

    /// `examples/icons.json`'s activity sheets are trimmed and aliased: packed once drawn, so the
    /// names claimed before the run are every one a sheet of up to its grid's pages may take,
    /// all optional (the run writes the ones it needs: one page, docs/sheets.md).
    @Test func theIconsExampleClaimsEveryNameItsPackedSheetsMayTake() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/icons.json").path
        let job = try Job.load(path: path, baseDirectory: "/out")
        let activity = job.clips.filter { $0.name == "activity" }
        #expect(activity.count == 3)
        var sizes: [[String]] = []
        for clip in activity {
            for case .sheet(let settings) in clip.outputs {
                let (columns, maxSize) = (settings.columns, settings.maxSize)
                #expect(maxSize == 4096)
                let (width, height) = clip.scene.pixelSize
                sizes.append(SpriteSheet.pages(frameCount: clip.frameCount, frameWidth: width, frameHeight: height, columns: columns,
                                               maxSize: maxSize).map { "\($0.width)×\($0.height)" })
            }
        }
        #expect(sizes == [["1920×1920"], ["3840×3840"], ["3600×3600", "3600×3600", "2880×2160"]])
        for (clip, expected) in zip(activity, [["activity@1x_sheet.png", "activity@1x_sheet.json"], ["activity@2x_sheet.png", "activity@2x_sheet.json"],
                                               ["activity@3x_sheet.png", "activity@3x_sheet.json", "activity@3x_sheet-0.png", "activity@3x_sheet-0.json",
                                                "activity@3x_sheet-1.png", "activity@3x_sheet-1.json", "activity@3x_sheet-2.png", "activity@3x_sheet-2.json"]]) {
            let files = clip.outputs.flatMap { $0.artifactFiles(in: clip) }
            #expect(files.map { URL(fileURLWithPath: $0.path).lastPathComponent } == expected)
            #expect(files.allSatisfy { $0.optional == (expected.count > 2) })
            let counts = clip.outputs.map { $0.artifactCount(in: clip) }.filter { $0.upperBound > 0 }
            #expect(counts == [2...(expected.count == 2 ? 2 : 6)])
        }
    }

    @Test func pagesAreNumberedBeforeTheExtensionOnlyWhenThereAreSeveral() {
        #expect(SpriteSheet.pageFiles(path: "a/s.png", json: "a/s.json", pageCount: 1).map { [$0.image, $0.json] } == [["a/s.png", "a/s.json"]])
        #expect(SpriteSheet.pageFiles(path: "a/s.png", json: "b/atlas.json", pageCount: 2).map { [$0.image, $0.json] }
                == [["a/s-0.png", "b/atlas-0.json"], ["a/s-1.png", "b/atlas-1.json"]])
        #expect(SpriteSheet.numbered("d.x/sheet", 3) == "d.x/sheet-3")
        #expect(SpriteSheet.numbered("d/.sheet", 0) == "d/.sheet-0")
        #expect(SpriteSheet.numbered("s.tar.png", 12) == "s.tar-12.png")
    }

    @Test func aFrameLargerThanMaxSizeIsRefusedNamingTheKeyTheValueAndTheFrame() {
        #expect {
            try SpriteSheet.checkSize(path: "s.png", frameCount: 3, frameWidth: 300, frameHeight: 200, columns: nil, maxSize: 256)
        } throws: { error in
            let message = (error as? ThrobberError)?.message ?? ""
            return message.contains("maxSize 256") && message.contains("300×200 px") && message.contains("at least 300")
        }
        #expect(throws: ThrobberError.self) {
            try SpriteSheet.checkSize(path: "s.png", frameCount: 3, frameWidth: 3, frameHeight: 3, columns: nil, maxSize: 0)
        }
        #expect(throws: Never.self) {
            try SpriteSheet.checkSize(path: "s.png", frameCount: 3, frameWidth: 300, frameHeight: 200, columns: nil, maxSize: 300)
        }
    }

    @Test func frameNamesAreThePNGFrameNamesWithoutDirectoryOrExtension() throws {
        let scene = Scene(try SceneRegistry.model("ring"))
        var twice = scene
        twice.scale = 2
        func clip(_ outputs: [Output], _ scene: Scene) throws -> Clip { try Clip(scene: scene, frames: 12, outputs: outputs) }
        let sheet = Output.sheet(path: "s.png", json: "s.json", columns: nil, encoder: .libdeflate(level: 12))
        #expect(try clip([.pngSequence("out/f/{name}-%03d.png"), sheet], scene).frameName(11) == "ring-011")
        #expect(try clip([sheet], twice).frameNames(0..<2) == ["ring@2x_00000", "ring@2x_00001"])
        // A frame number in a directory names every frame alike: the default pattern instead.
        #expect(try clip([.pngSequence("f%02d/ring.png"), sheet], scene).frameName(3) == "ring@1x_00003")
    }
}
