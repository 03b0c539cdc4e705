import Foundation
import Throbber

/// What a sheet's pages and atlases are for a clip: the pages claimed before rendering, each
/// frame's entry, the atlases and the multi-atlas. `SheetSink` writes them; `--skip-existing`
/// (`Resume`) and the output plan (`Output`) read them without drawing a frame.
extension SheetSink {
    /// A packed sheet's entries: frame j's name, its sprite's place and kept rectangle.
    static func packedEntries(names: [String], times: [Double], spriteOfFrame: [Int], rects: [TextureAtlas.Rect],
                              placements: [SheetPacker.Placement], frameWidth: Int, frameHeight: Int, fps: Double) -> [SpriteSheet.AtlasEntry] {
        let clock = FrameClock.milliseconds(fps: fps)
        return spriteOfFrame.enumerated().map { j, sprite in
            let rect = rects[sprite], place = placements[sprite]
            return SpriteSheet.AtlasEntry(name: names[j], page: place.page, frame: TextureAtlas.Rect(x: place.x, y: place.y, w: rect.w, h: rect.h),
                                          source: rect, sourceSize: TextureAtlas.Size(w: frameWidth, h: frameHeight),
                                          duration: Double(clock.delay(frame: j)), t: times[j])
        }
    }

    /// The most pages a sheet can take, and so the files claimed before rendering: its grid's
    /// pages (a packing never takes more, `SheetPacker`).
    static func pageBound(_ settings: SheetSettings, frames: Int, width: Int, height: Int) -> Int {
        SpriteSheet.pages(frameCount: frames, frameWidth: width, frameHeight: height, columns: settings.columns, maxSize: settings.maxSize,
                          spacing: settings.spacing).count
    }

    /// The atlases of a sheet of `pageSizes` pages named `files`, from its entries.
    static func atlases(settings: SheetSettings, clip: Clip, timing: Resampling, files: [(image: String, json: String)],
                        pageSizes: [(width: Int, height: Int)], entries: [SpriteSheet.AtlasEntry], text: FrameText) -> [TextureAtlas] {
        let pages = zip(files, pageSizes).map { file, size in
            (image: URL(fileURLWithPath: file.image).lastPathComponent, json: URL(fileURLWithPath: file.json).lastPathComponent,
             width: size.width, height: size.height)
        }
        var atlases = SpriteSheet.atlases(entries: entries, pages: pages, fps: timing.fps, loop: clip.loop != nil,
                                          animationName: settings.animation ?? clip.name, scale: clip.scene.scale,
                                          provenance: text.clipChunks.filter { $0.0.hasPrefix("Throbber:") }, format: settings.format)
        // A chained clip's links: each atlas names those that drew its page's frames.
        let chainKey = String(FrameText.Key.chain.dropFirst("Throbber:".count))
        if text.tailValue(FrameText.Key.chain) != nil {
            for index in atlases.indices {
                let links = text.forCells(atlases[index].frames.compactMap(\.frame.t)).tailValue(FrameText.Key.chain)
                atlases[index].meta.throbber?[chainKey] = links
            }
        }
        return atlases
    }

    /// A grid sheet's entries, which depend on the clip and the settings alone (`--skip-existing`
    /// compares a kept page's atlas with them).
    static func gridEntries(settings: SheetSettings, clip: Clip, timing: Resampling, pages: [SpriteSheet.Page],
                            width: Int, height: Int) -> [SpriteSheet.AtlasEntry] {
        pages.enumerated().flatMap { number, page in
            SpriteSheet.gridEntries(frameNames: page.frames.map { clip.frameName(timing.clipFrame($0)) }, frameWidth: width, frameHeight: height,
                                    columns: page.columns, fps: timing.fps, times: page.frames.map { clip.time(timing.clipFrame($0)) },
                                    spacing: settings.spacing, page: number, firstFrame: page.frames.lowerBound)
        }
    }

    /// The Phaser multi-atlas at `path` of pages whose atlases are `atlases`, its images named
    /// relative to its own directory.
    static func multiatlas(_ atlases: [TextureAtlas], files: [(image: String, json: String)], at path: String, scale: Double) -> MultiAtlas {
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.pathComponents
        let images = files.map { file -> String in
            let parts = URL(fileURLWithPath: file.image).standardizedFileURL.pathComponents
            var common = 0
            while common < min(base.count, parts.count - 1), base[common] == parts[common] { common += 1 }
            return (Array(repeating: "..", count: base.count - common) + parts[common...]).joined(separator: "/")
        }
        return MultiAtlas(pages: atlases, images: images, scale: scale)
    }
}
