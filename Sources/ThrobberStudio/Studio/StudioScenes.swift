import Foundation
import Glibc
import Throbber
import ThrobberBatch
import ThrobberLottie

/// The scenes a studio offers: built-ins by id, and files read as `render` reads them, read again
/// whenever they change on disk. A file that stops reading keeps its place with the reader's
/// `FILE:LINE:COLUMN` message until it reads again.
public final class StudioScenes: @unchecked Sendable {
    /// One scene the page can pick.
    public struct Entry: Sendable {
        /// The studio's own name for it: the model's id for a built-in, the file's name without
        /// its extensions for a file (kept while the file is edited), made unique.
        public let id: String
        /// What a command line names it by: the id, or the path as given.
        public let reference: String
        public let isFile: Bool
        /// The model as last read; nil while the file does not read.
        public fileprivate(set) var model: (any SceneModel)?
        /// Why the file does not read now.
        public fileprivate(set) var error: String?
        /// How many times the file has been read again.
        public fileprivate(set) var revision = 0
        fileprivate var signature: FileSignature?
    }

    /// What tells a file's change: its inode, size and modification time, in nanoseconds.
    struct FileSignature: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
        }
    }

    private let lock = NSLock()
    private var entries: [Entry]

    /// Reads every reference; a built-in's unknown id is an error (the command's usage error),
    /// a file that does not read is listed with its error, to be fixed while the studio runs.
    ///
    /// - Throws: a usage error for an unknown built-in id or a reference given twice; as
    ///   `SceneReference.model` for a file that does not exist (`.missingInput`).
    public init(references: [String]) throws {
        let references = references.isEmpty ? SceneRegistry.defaults.map(\.id) : references
        var entries: [Entry] = [], taken = Set<String>()
        for reference in references {
            let isFile = SceneReference.isFile(reference)
            guard !entries.contains(where: { $0.reference == reference }) else {
                throw ThrobberError("studio: scene \(reference) is named twice", kind: .usage)
            }
            var id = isFile ? Self.stem(reference) : try SceneReference.model(reference).id
            if taken.contains(id) {
                var n = 2
                while taken.contains("\(id)-\(n)") { n += 1 }
                id = "\(id)-\(n)"
            }
            taken.insert(id)
            // A file that is not there at all is a typo, refused as `render` refuses it; one that
            // is there but does not read is listed with its error, to be fixed while the studio runs.
            if isFile, FileSignature(reference) == nil { _ = try SceneReference.model(reference) }
            var entry = Entry(id: id, reference: reference, isFile: isFile)
            Self.read(&entry)
            entries.append(entry)
        }
        self.entries = entries
    }

    /// Every entry, in the order given.
    public var all: [Entry] { lock.withLock { entries } }

    /// The entry `id`, if there is one.
    public func entry(_ id: String) -> Entry? { lock.withLock { entries.first { $0.id == id } } }

    /// Reads again every file whose signature changed (or that appeared or vanished), and
    /// returns the entries read again.
    public func refresh() -> [Entry] {
        let files = lock.withLock { entries.filter(\.isFile) }
        var changed: [Entry] = []
        for var entry in files where FileSignature(entry.reference) != entry.signature {
            let before = entry.signature
            Self.read(&entry)
            // A file caught mid-write reads as it stands; the next change reads it again.
            guard entry.signature != before || entry.error != nil else { continue }
            entry.revision += 1
            changed.append(entry)
        }
        guard !changed.isEmpty else { return [] }
        lock.withLock {
            for entry in changed {
                if let index = entries.firstIndex(where: { $0.id == entry.id }) { entries[index] = entry }
            }
        }
        return changed
    }

    /// Reads `entry`'s reference into its model or its error, recording the file's signature
    /// first, so a change during the read is seen by the next refresh.
    private static func read(_ entry: inout Entry) {
        if entry.isFile { entry.signature = FileSignature(entry.reference) }
        do {
            entry.model = try SceneReference.model(entry.reference)
            entry.error = nil
        } catch let error as ThrobberError {
            (entry.model, entry.error) = (nil, error.message)
        } catch {
            (entry.model, entry.error) = (nil, "\(entry.reference): \(error)")
        }
    }

    /// A file's name without its directory and its extensions (`spinner.scene.json` → `spinner`).
    static func stem(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        let cleaned = String(stem.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return cleaned.isEmpty ? "scene" : cleaned
    }
}

extension StudioScenes.Entry {
    /// What the page is told of this scene (`GET /api/studio` and `scene` events).
    public var info: StudioSceneInfo {
        let kind = !isFile ? "built-in" : (model is LottieScene ? "lottie" : "scene-file")
        guard let model else {
            return StudioSceneInfo(id: id, reference: reference, summary: "", kind: isFile ? "file" : kind, revision: revision,
                                   canvas: [:], fps: 60, duration: 1, parameters: [], relations: [], error: error)
        }
        let fps = model.naturalFPS ?? 60
        let duration = model.endsAt.map { max($0, 1 / fps) } ?? model.previewDuration
        return StudioSceneInfo(id: id, reference: reference, summary: model.summary, kind: kind, revision: revision,
                               canvas: ["width": model.canvasSize.width, "height": model.canvasSize.height],
                               fps: fps, duration: duration, parameters: model.studioParameters,
                               relations: model.relations, error: nil)
    }
}

/// A scene as the page sees it (docs/studio.md, "The studio's API").
public struct StudioSceneInfo: Sendable, Encodable {
    public var id: String
    public var reference: String
    public var summary: String
    /// `built-in`, `scene-file` or `lottie`; `file` for a file that does not read now.
    public var kind: String
    public var revision: Int
    public var canvas: [String: Double]
    public var fps: Double
    /// The timeline's length in seconds: the scene's end, or the loop `preview` shows.
    public var duration: Double
    public var parameters: [StudioParameter]
    public var relations: [String]
    /// The reader's message while the file does not read.
    public var error: String?

    enum CodingKeys: String, CodingKey {
        case id, reference, summary, kind, revision, canvas, fps, duration, parameters, relations, error
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(reference, forKey: .reference)
        try container.encode(summary, forKey: .summary)
        try container.encode(kind, forKey: .kind)
        try container.encode(revision, forKey: .revision)
        try container.encode(canvas, forKey: .canvas)
        try container.encode(fps, forKey: .fps)
        try container.encode(duration, forKey: .duration)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(relations, forKey: .relations)
        try container.encode(error, forKey: .error)  // null, not absent, when the file reads
    }
}
