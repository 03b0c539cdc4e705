import Foundation
import Throbber
import ThrobberDigest
import ThrobberPNG

/// What `--skip-existing` keeps: a file only when it is the file this run would write, so a
/// resumed run ends with exactly the outputs of an uninterrupted one.
///
/// - A PNG frame is kept when it decodes at the clip's size and its tEXt chunks are this frame's,
///   chunk for chunk: scene, parameters, scale, background, loop speeds, version and time. The
///   backend and driver are taken as the file records them (a frame drawn elsewhere, within
///   parity, stays a frame of this run).
/// - A sheet page is kept under the same rule for its cells; its atlas when it reads as the atlas
///   this run would write beside that page, value for value (so an atlas an earlier version laid
///   out otherwise is kept too).
/// - A raw RGBA or Y4M stream is kept when its length is the clip's (and, when the job's earlier
///   manifest lists it, its SHA-256 is the one recorded there).
/// - A video is kept only when the job's earlier manifest lists it with its SHA-256: nothing else
///   in it says what it holds.
///
/// Anything else of Throbber's is rendered again and replaced, and the run says which files and
/// why. A PNG output path holding a file that is not Throbber's at all (no PNG, or no Throbber
/// tEXt) stops the run before the clip renders (65): it is the user's, and never replaced.
enum Resume {
    /// The check of one PNG frame file: its manifest entry when it is kept, or why it is replaced.
    static func frame(_ file: String, clip: Clip, frame k: Int, t: Double, extra: [(String, String)]) -> Result<Manifest.Frame, ResumeRefusal> {
        let chunks: [(String, String)], data: Data
        do {
            (data, chunks) = try ours(file)
        } catch let refusal as ResumeRefusal {
            return .failure(refusal)
        } catch {
            return .failure(ResumeRefusal(file: file, why: "\(error)", foreign: true))
        }
        do {
            let text = try recordedText(chunks, file: file, scene: clip.scene(forFrame: k), extra: extra)
            if let why = mismatch(chunks, wanted: text.chunks(t: t)) { return .failure(ResumeRefusal(file: file, why: why)) }
            let (width, height) = clip.scene.pixelSize
            let reader = try PNGCodec.RowReader(data)
            guard reader.width == width, reader.height == height else {
                return .failure(ResumeRefusal(file: file, why: "it is \(reader.width)×\(reader.height) px, this frame \(width)×\(height)"))
            }
            // Every row decoded, so a damaged file is not kept.
            try reader.forEachBand { _ in }
            return .success(Manifest.Frame(clip: clip.label, frame: k, t: t, file: file, width: width, height: height, sha256: SHA256.hex(data)))
        } catch let refusal as ResumeRefusal {
            return .failure(refusal)
        } catch let error as ThrobberError {
            return .failure(ResumeRefusal(file: file, why: error.message))
        } catch {
            return .failure(ResumeRefusal(file: file, why: "\(error)"))
        }
    }

    /// A PNG's bytes and chunks when it is a file Throbber wrote (a PNG with Throbber's
    /// provenance), which a resume may replace.
    ///
    /// - Throws: a foreign ``ResumeRefusal`` for anything else — not a PNG, a PNG whose chunks
    ///   cannot be read, one without Throbber's tEXt: a file of the user's, never replaced.
    static func ours(_ file: String) throws -> (Data, [(String, String)]) {
        do {
            let data = try InputFile.readPNG(file)
            let chunks = try PNGCodec.textChunks(data)
            guard chunks.contains(where: { $0.0 == FrameText.Key.scene }) else {
                throw ResumeRefusal(file: file, why: "it is a PNG without Throbber's tEXt, not a file a run wrote", foreign: true)
            }
            return (data, chunks)
        } catch let error as ThrobberError {
            throw ResumeRefusal(file: file, why: error.message, foreign: true)
        }
    }

    /// Checks that the sheet page at `file` is one Throbber wrote: a PNG page by its tEXt
    /// (``ours(_:)``); a WebP page, which carries none, when the job's manifest from an earlier
    /// run records these very bytes.
    ///
    /// - Parameter earlier: the earlier manifest's SHA-256 by file.
    /// - Throws: a foreign ``ResumeRefusal`` naming what was found otherwise.
    static func oursPage(_ file: String, webp: Bool, earlier: [String: String]) throws {
        guard webp else {
            _ = try ours(file)
            return
        }
        let digest: String
        do {
            digest = try InputFile.digest(file, what: "sheet page").sha256
        } catch let error as ThrobberError {
            throw ResumeRefusal(file: file, why: error.message, foreign: true)
        }
        if earlier[file] == digest { return }
        var head = [UInt8](repeating: 0, count: 12)
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        let count = fd < 0 ? 0 : head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 12) }
        if fd >= 0 { close(fd) }
        let isWebP = count == 12 && head[0..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("WEBP".utf8)
        throw ResumeRefusal(file: file, why: isWebP ? "a WebP image that no manifest of this job records"
                                                    : "not a WebP image: its first bytes are not RIFF…WEBP",
                            foreign: true)
    }

    /// Checks that the atlas at `file` is one Throbber wrote (JSON whose `meta.app` is
    /// "Throbber"), which a resume may replace.
    ///
    /// - Throws: a foreign ``ResumeRefusal`` for anything else.
    static func oursAtlas(_ file: String) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(file, what: "sheet atlas")
        } catch let error as ThrobberError {
            throw ResumeRefusal(file: file, why: error.message, foreign: true)
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let meta = root["meta"] as? [String: Any], meta["app"] as? String == "Throbber" else {
            throw ResumeRefusal(file: file, why: "it is not a texture atlas Throbber wrote", foreign: true)
        }
        return bytes
    }

    /// The provenance of `scene` (a clip's, or its link's) with the backend and driver a file records: what this run would
    /// write into that file, had it drawn it where the file was drawn.
    ///
    /// - Throws: a ``ResumeRefusal`` (replaceable) when the file records no backend or driver.
    static func recordedText(_ chunks: [(String, String)], file: String, scene: LaidOutScene, extra: [(String, String)]) throws -> FrameText {
        guard let backend = chunks.first(where: { $0.0 == FrameText.Key.backend })?.1,
              let driver = chunks.first(where: { $0.0 == FrameText.Key.driver })?.1 else {
            throw ResumeRefusal(file: file, why: "it has no Throbber backend and driver (tEXt)")
        }
        return FrameText(scene, backend: backend, driver: driver, extra: extra)
    }

    /// The first difference between a file's chunks and the ones this run writes, in words, or
    /// nil when they are the same.
    static func mismatch(_ chunks: [(String, String)], wanted: [(String, String)]) -> String? {
        let recorded = Dictionary(chunks, uniquingKeysWith: { first, _ in first })
        for (index, (key, value)) in wanted.enumerated() {
            guard let found = recorded[key] else { return "its tEXt has no \(key)" }
            if found != value {
                return "its tEXt \(key) is '\(ThrobberError.echoed(found))', this run writes '\(ThrobberError.echoed(value))'"
            }
            if index >= chunks.count || chunks[index].0 != key { return "its tEXt chunks are not in the order this run writes" }
        }
        if chunks.count != wanted.count { return "it has \(chunks.count) tEXt chunks, this run writes \(wanted.count)" }
        return nil
    }

    /// Whether an ordered output's files (sheet pages and atlases, a stream, a video) are kept
    /// whole, with their manifest entries; otherwise the output is rendered again.
    ///
    /// - Parameter earlier: the job's manifest from an earlier run, if one was read.
    static func artifacts(_ output: Output, clip: Clip, extra: [(String, String)],
                          earlier: [String: String]) -> Result<[Manifest.Artifact], ResumeRefusal> {
        let files = output.artifactFiles(in: clip)
        var artifacts: [Manifest.Artifact] = []
        do {
            switch output {
            case .sheet(let settings) where settings.packs || settings.webp || settings.spacing != .none:
                // Its layout depends on its pixels, or its pages carry no tEXt to compare: kept
                // only as the job's manifest records it, every file of it that run wrote.
                let listed = files.filter { earlier[$0.path] != nil }
                guard !listed.isEmpty, files.allSatisfy({ $0.optional || earlier[$0.path] != nil }) else {
                    return .failure(ResumeRefusal(file: files[0].path, why: "no manifest of this job records this sheet's pages"))
                }
                for file in listed {
                    let (digest, _) = try InputFile.digest(file.path, what: file.type)
                    guard digest == earlier[file.path] else {
                        return .failure(ResumeRefusal(file: file.path, why: "its SHA-256 is not the one the job's manifest records"))
                    }
                    artifacts.append(Manifest.Artifact(clip: clip.label, type: file.type, file: file.path, sha256: digest))
                }
            case .sheet(let settings):
                let (width, height) = clip.scene.pixelSize
                let timing = output.resampling(in: clip)
                let pages = SpriteSheet.pages(frameCount: timing.frames, frameWidth: width, frameHeight: height,
                                              columns: settings.columns, maxSize: settings.maxSize)
                let pageFiles = SpriteSheet.pageFiles(path: settings.path, json: settings.json, pageCount: pages.count)
                var text: FrameText?
                // One provenance for every page drawn by one backend and driver (a chain's is
                // read once, not once a page).
                var texts: [[String]: FrameText] = [:]
                for (page, names) in zip(pages, pageFiles) {
                    let (data, chunks) = try ours(names.image)
                    let drawnBy = [FrameText.Key.backend, FrameText.Key.driver].map { key in chunks.first { $0.0 == key }?.1 ?? "" }
                    let recorded = try texts[drawnBy] ?? recordedText(chunks, file: names.image, scene: clip.scene, extra: extra)
                    texts[drawnBy] = recorded
                    text = recorded
                    let times = page.frames.map { clip.time(timing.clipFrame($0)) }
                    if let why = mismatch(chunks, wanted: recorded.forCells(times).chunks(columns: page.columns, times: times)) {
                        return .failure(ResumeRefusal(file: names.image, why: why))
                    }
                    let reader = try PNGCodec.RowReader(data)
                    guard reader.width == page.width, reader.height == page.height else {
                        return .failure(ResumeRefusal(file: names.image, why: "it is \(reader.width)×\(reader.height) px, "
                                                      + "this page \(page.width)×\(page.height)"))
                    }
                    artifacts.append(Manifest.Artifact(clip: clip.label, type: "sheet", file: names.image, sha256: SHA256.hex(data)))
                }
                let entries = SheetSink.gridEntries(settings: settings, clip: clip, timing: timing, pages: pages, width: width, height: height)
                let wanted = SheetSink.atlases(settings: settings, clip: clip, timing: timing, files: pageFiles,
                                               pageSizes: pages.map { ($0.width, $0.height) }, entries: entries, text: text!)
                for (atlas, names) in zip(wanted, pageFiles) {
                    let found = try oursAtlas(names.json)
                    guard (try? TextureAtlas(decoding: Data(found))) == atlas else {
                        return .failure(ResumeRefusal(file: names.json, why: "it is not the atlas this run writes beside its page"))
                    }
                    artifacts.append(Manifest.Artifact(clip: clip.label, type: "atlas", file: names.json, sha256: SHA256.hex(found)))
                }
                if let multiatlas = settings.multiatlas {
                    let (digest, _) = try InputFile.digest(multiatlas, what: "multiatlas")
                    let data = SheetSink.multiatlas(wanted, files: pageFiles, at: multiatlas, scale: clip.scene.scale).json()
                    guard digest == SHA256.hex(data) else {
                        return .failure(ResumeRefusal(file: multiatlas, why: "it is not the multi-atlas this run writes"))
                    }
                    artifacts.append(Manifest.Artifact(clip: clip.label, type: "multiatlas", file: multiatlas, sha256: digest))
                }
            case .rgba, .y4m:
                let file = files[0]
                let (digest, size) = try InputFile.digest(file.path, what: file.type)
                let (width, height) = clip.scene.pixelSize
                let expected = streamLength(output, width: width, height: height, clip: clip)
                guard size == expected else {
                    return .failure(ResumeRefusal(file: file.path, why: "it has \(size) bytes, this clip's \(file.type) stream \(expected)"))
                }
                if let recorded = earlier[file.path], recorded != digest {
                    return .failure(ResumeRefusal(file: file.path, why: "its SHA-256 is not the one the job's manifest records"))
                }
                artifacts.append(Manifest.Artifact(clip: clip.label, type: file.type, file: file.path, sha256: digest))
            case .video:
                let file = files[0]
                let (digest, _) = try InputFile.digest(file.path, what: file.type)
                guard let recorded = earlier[file.path] else {
                    return .failure(ResumeRefusal(file: file.path, why: "no manifest of this job records it, and a video says nothing of what it holds"))
                }
                guard recorded == digest else {
                    return .failure(ResumeRefusal(file: file.path, why: "its SHA-256 is not the one the job's manifest records"))
                }
                artifacts.append(Manifest.Artifact(clip: clip.label, type: file.type, file: file.path, sha256: digest))
            case .png, .lottie:
                // Not ordered: frames are checked one by one, a Lottie by its export (BatchRun+Lottie).
                break
            }
        } catch let refusal as ResumeRefusal {
            return .failure(refusal)
        } catch let error as ThrobberError {
            return .failure(ResumeRefusal(file: files.first?.path ?? output.path, why: error.message))
        } catch {
            return .failure(ResumeRefusal(file: files.first?.path ?? output.path, why: "\(error)"))
        }
        return .success(artifacts)
    }

    /// The bytes of a whole raw RGBA or Y4M stream of `clip`.
    static func streamLength(_ output: Output, width: Int, height: Int, clip: Clip) -> Int {
        switch output {
        case .y4m(_, let alpha, _, _):
            return Y4M.header(width: width, height: height, fps: output.playbackFPS(clipFPS: clip.fps), alpha: alpha).count
                + output.resampling(in: clip).frames * Y4M.frameLength(width: width, height: height, alpha: alpha)
        default:
            return output.resampling(in: clip).frames * width * height * 4
        }
    }
}

/// A file `--skip-existing` found but does not keep, and why.
struct ResumeRefusal: Error, Sendable {
    var file: String
    var why: String
    /// Not a file a run wrote (a PNG output path holding something without Throbber's
    /// provenance): the run is refused instead of replacing it.
    var foreign = false

    /// The refusal of the run a foreign file stops.
    var error: ThrobberError {
        ThrobberError("\(ThrobberError.shownPath(file)) exists but is not a file Throbber wrote (\(why)); move or delete it and rerun",
                      kind: .badData)
    }
}
