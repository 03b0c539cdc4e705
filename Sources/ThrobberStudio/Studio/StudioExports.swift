import Foundation
import Glibc
import Throbber
import ThrobberBatch
import ThrobberRender

/// Exports run by the page: the real batch pipeline on a job file the studio writes, into a new
/// directory under the one named when the studio started — never anywhere else, never over a
/// file that exists. One at a time; progress goes to every page as `export` events.
final class StudioExports: @unchecked Sendable {
    /// What the page can ask for, and the output each becomes (paths relative to the export's
    /// own directory, where its job file is).
    static let kinds: [(kind: String, output: @Sendable (String) -> [(String, String)])] = [
        ("png", { name in [("type", q("png")), ("pattern", q("frames/\(name)_%05d.png"))] }),
        ("sheet", { name in [("type", q("sheet")), ("path", q("\(name)-sheet.png"))] }),
        ("gif", { name in [("type", q("video")), ("path", q("\(name).gif"))] }),
        ("apng", { name in [("type", q("video")), ("path", q("\(name).apng"))] }),
        ("webp", { name in [("type", q("video")), ("path", q("\(name).webp"))] }),
        ("webm", { name in [("type", q("video")), ("path", q("\(name).webm"))] }),
        ("lottie", { name in [("type", q("lottie")), ("path", q("\(name).json"))] }),
    ]
    /// The most files an `export` event names (its `fileCount` says how many there are).
    static let listedFiles = 24
    private static func q(_ text: String) -> String { JSONOutput.quoted(text) }

    /// The directory exports go under (absolute), or nil when exports are off.
    let directory: URL?
    private let backend: Backend
    private let cancellation: CancellationSource
    private let clients: StudioClients
    private let lock = NSLock()
    private var running: Int?
    private var nextID = 1

    /// - Throws: a usage error when `directory` exists and is not a directory, or cannot be made.
    init(directory: String?, backend: Backend, cancellation: CancellationSource, clients: StudioClients) throws {
        self.backend = backend
        self.cancellation = cancellation
        self.clients = clients
        guard let directory else {
            self.directory = nil
            return
        }
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ThrobberError.invalid("--export-dir", directory, allowed: "a directory (this is a file)")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw ThrobberError("--export-dir \(directory): cannot make it: \(error.localizedDescription)", kind: .cannotCreate)
            }
        }
        self.directory = url.resolvingSymlinksInPath()
    }

    /// Starts exporting `kind` of `work`'s scene on a thread of its own.
    ///
    /// - Returns: the export's id and its directory's name under the export directory.
    /// - Throws: `StudioRefusal` 403 when exports are off, 422 for an unknown kind, 409 while
    ///   another export runs, 500 when its directory cannot be made.
    func start(kind: String, work: StudioWork, info: StudioSceneInfo) throws -> (id: Int, directory: String) {
        guard let directory else { throw StudioRefusal(403, "exports are off: start the studio with --export-dir DIR") }
        guard let output = Self.kinds.first(where: { $0.kind == kind })?.output else {
            throw StudioRefusal(422, "invalid kind '\(String(kind.prefix(32)))': one of \(Self.kinds.map(\.kind).joined(separator: ", "))")
        }
        let id: Int = try lock.withLock {
            if running != nil { throw StudioRefusal(409, "an export is running; wait for it to finish") }
            defer { nextID += 1 }
            running = nextID
            return nextID
        }
        let name = StudioScenes.stem(work.entry.id)
        // A directory of our own: made here, so it did not exist (mkdir fails on anything there).
        var folder = "", n = id
        while true {
            folder = "\(name)-\(n)"
            if mkdir(directory.appendingPathComponent(folder).path, 0o755) == 0 { break }
            guard errno == EEXIST, n < id + 10_000 else {
                lock.withLock { running = nil }
                throw StudioRefusal(500, "cannot make \(directory.appendingPathComponent(folder).path): \(String(cString: strerror(errno)))")
            }
            n += 1
        }
        let folderURL = directory.appendingPathComponent(folder), made = folder
        let reference = work.entry.isFile ? URL(fileURLWithPath: work.entry.reference).standardizedFileURL.path : work.entry.reference
        let frames = max(1, Int((info.duration * info.fps).rounded()))
        let job = StudioCommandLine.job(work.state, reference: reference, start: 0, frames: frames, fps: info.fps,
                                        outputs: [output(name)])
        let thread = Thread { [self] in
            run(id: id, kind: kind, job: job, folder: made, in: folderURL, frames: work.state.loop ? nil : frames)
        }
        thread.name = "throbber.studio.export"
        thread.start()
        return (id, folder)
    }

    /// Waits at most `seconds` for a running export to stop (it stops when `cancellation` says
    /// so, finishing the frames in flight and leaving nothing partial).
    ///
    /// - Returns: whether no export is running.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while lock.withLock({ running != nil }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return lock.withLock { running == nil }
    }

    private func run(id: Int, kind: String, job text: String, folder: String, in directory: URL, frames: Int?) {
        let done = ProgressCount(), throttle = Throttle(seconds: 0.1)
        // A finished export lists its first files (a sequence's first frames) and how many there are.
        let report: @Sendable (String, Int?, [String], String) -> Void = { [clients] state, total, files, message in
            let q = JSONOutput.quoted
            let list = files.prefix(Self.listedFiles).map { q(folder + "/" + $0) }.joined(separator: ", ")
            let count = state == "done" ? (total ?? done.value) : done.value
            clients.broadcast("export", """
                {"id": \(id), "kind": \(q(kind)), "state": \(q(state)), "done": \(count), "total": \(total.map(String.init) ?? "null"), \
                "directory": \(q(folder)), "files": [\(list)], "fileCount": \(files.count), "message": \(q(message))}
                """)
        }
        defer { lock.withLock { running = nil } }
        do {
            let jobPath = directory.appendingPathComponent("job.json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: jobPath), options: .withoutOverwriting)
            let job = try Job.load(path: jobPath)
            let total = job.clips.reduce(0) { $0 + $1.frameCount }
            report("running", total, [], "")
            let run = BatchRun(job: job, backend: backend, manifestPath: directory.appendingPathComponent("job.manifest.json").path,
                               cancellation: cancellation, progress: { n in
                done.add(n)
                if throttle.isDue() { report("running", total, [], "") }
            })
            _ = try run.execute()
            let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
                .filter { !FileManager.default.isDirectory(directory.appendingPathComponent($0).path) }
                .sorted()
            report("done", total, files, "")
        } catch {
            let message = (error as? ThrobberError)?.message ?? "\(error)"
            report("failed", frames, [], message)
        }
    }
}

/// Says yes at most once per interval: progress events at most ten a second.
final class Throttle: @unchecked Sendable {
    private let lock = NSLock()
    private let interval: UInt64
    private var last: UInt64 = 0

    init(seconds: Double) { interval = UInt64(seconds * 1e9) }

    func isDue() -> Bool {
        lock.withLock {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now - last >= interval else { return false }
            last = now
            return true
        }
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
