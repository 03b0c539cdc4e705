import Foundation
import Throbber
import ThrobberBatch
import ThrobberRender

/// `throbber studio`'s application: the page's API over the scenes, the renderer and the exports
/// (docs/studio.md, "The studio's API"). The HTTP server asks it for each request's reply.
public final class Studio: HTTPHandler, @unchecked Sendable {
    /// The most bytes a state or export request may hold.
    static let largestState = 64 << 10
    /// How often scene files are looked at for changes.
    static let watchInterval = 0.2

    let scenes: StudioScenes
    let clients = StudioClients()
    let renderer: StudioRenderer
    let exports: StudioExports
    let page: StudioPage
    private let version: String
    let stateLock = NSLock()
    var stoppedFlag = false
    private var watching = false
    private let watcherEnded = DispatchSemaphore(value: 0)

    /// Reads the scenes and opens the renderers.
    ///
    /// - Parameters:
    ///   - references: built-in ids and scene or Lottie files; none: every built-in.
    ///   - exportDirectory: where exports go (made when missing); nil: exports are off.
    ///   - pageDirectory: serve the page's files from here instead of the embedded copies.
    ///   - cancellation: what stops an export's pipeline (the command's signals).
    /// - Throws: a usage error for an unknown scene id or a bad export directory; as
    ///   `FrameRenderer` for a backend that does not open.
    public init(references: [String], backend: Backend, exportDirectory: String?, pageDirectory: String?,
                cancellation: CancellationSource, version: String) throws {
        scenes = try StudioScenes(references: references)
        exports = try StudioExports(directory: exportDirectory, backend: backend, cancellation: cancellation, clients: clients)
        page = try StudioPage(directory: pageDirectory)
        renderer = try StudioRenderer(backend: backend, clients: clients)
        self.version = version
    }

    /// The scenes offered, in the order given.
    public var sceneEntries: [StudioScenes.Entry] { scenes.all }
    /// What draws the frames (`cpu: …`).
    public var rendererDescription: String { renderer.description }
    /// Where exports go, or nil when they are off.
    public var exportDirectory: String? { exports.directory?.path }

    /// Looks at the scene files every `watchInterval` on a thread of its own until `stop()`:
    /// a file that changed is read again, every page is told (`scene`), and each page whose last
    /// state shows it gets that state drawn again.
    public func startWatching() {
        let thread = Thread { [self] in
            defer { watcherEnded.signal() }
            while !isStopped {
                Thread.sleep(forTimeInterval: Self.watchInterval)
                for entry in scenes.refresh() where !isStopped { reloaded(entry) }
            }
        }
        stateLock.withLock { watching = true }
        thread.name = "throbber.studio.watch"
        thread.start()
    }

    /// Stops watching, drawing and exporting, and waits at most `seconds` in all for the render
    /// and watch threads to end (the renderers closed: a GL context's threads must not outlive the
    /// process's exit handlers) and for an export in flight to stop as a signalled `batch` does.
    ///
    /// - Returns: whether everything ended in time; if not (a large frame still being drawn), the
    ///   caller ends the process without running exit handlers, after undoing the export's
    ///   temporary files.
    @discardableResult
    public func stop(within seconds: Double = 1) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        let watched = stateLock.withLock {
            stoppedFlag = true
            return watching
        }
        var ended = renderer.stop(waiting: seconds / 2)
        if watched { ended = watcherEnded.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success && ended }
        return exports.waitUntilIdle(seconds: max(0, deadline.timeIntervalSinceNow)) && ended
    }

    private func reloaded(_ entry: StudioScenes.Entry) {
        clients.broadcast("scene", Self.json(entry.info))
        guard entry.model != nil else { return }
        for (client, asked) in clients.latestStates() where asked.scene == entry.id { redraw(asked, for: client) }
    }

    /// Draws the state `client` asked for last again, from its scene as read now (a file read
    /// again, a frame stream that connected after the frame was drawn); a state the new file no
    /// longer takes is told to the page as `failed`.
    func redraw(_ asked: AskedState, for client: StudioClients.Client) {
        guard let entry = scenes.entry(asked.scene), let model = entry.model else { return }
        do {
            renderer.submit(try prepare(asked.state, seq: asked.seq, entry: entry, model: model), for: client)
        } catch let refusal as StudioRefusal {
            let message = refusal.problems.map { ($0.parameter.map { "\($0): " } ?? "") + $0.message }.joined(separator: "; ")
            clients.sendFailed(asked.seq, message, to: client)
        } catch {
            clients.sendFailed(asked.seq, (error as? ThrobberError)?.message ?? "\(error)", to: client)
        }
    }

    /// The reply to one request.
    public func respond(to request: HTTPRequest) -> HTTPReply {
        let get = request.method == "GET" || request.method == "HEAD"
        switch request.path {
        case "/", "/index.html", "/studio.js", "/studio.css":
            guard get else { return .response(.error(405, "\(request.path) takes GET")) }
            return .response(page.response(for: request.path == "/" ? "/index.html" : request.path))
        case "/api/studio":
            guard get else { return .response(.error(405, "/api/studio takes GET")) }
            return .response(.json(200, studioJSON()))
        case "/api/events":
            guard get else { return .response(.error(405, "/api/events takes GET")) }
            return events(request)
        case "/api/frames":
            guard get else { return .response(.error(405, "/api/frames takes GET")) }
            return events(request, frames: true)
        case "/api/state":
            guard request.method == "POST" else { return .response(.error(405, "/api/state takes POST")) }
            return .response(reply { try state(request) })
        case "/api/export":
            guard request.method == "POST" else { return .response(.error(405, "/api/export takes POST")) }
            return .response(reply { try export(request) })
        default:
            if request.path.hasPrefix("/frames/") {
                guard get else { return .response(.error(405, "frames take GET")) }
                return .response(frame(request.path))
            }
            return .response(.error(404, "no such page: the studio serves /, its assets, /api/… and /frames/…"))
        }
    }

    /// `body`'s response, or the refusal it threw as JSON.
    private func reply(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let refusal as StudioRefusal {
            if refusal.status == 422 {
                let problems = refusal.problems.map { problem in
                    "{\"parameter\": \(problem.parameter.map(JSONOutput.quoted) ?? "null"), "
                        + "\"message\": \(JSONOutput.quoted(problem.message))}"
                }
                return .json(422, "{\"errors\": [\(problems.joined(separator: ", "))]}")
            }
            return .error(refusal.status, refusal.message)
        } catch {
            return .error(500, (error as? ThrobberError)?.message ?? "\(error)")
        }
    }

    private func studioJSON() -> String {
        let q = JSONOutput.quoted
        let why = renderer.compareUnavailable
        let kinds = StudioExports.kinds.map { q($0.kind) }.joined(separator: ", ")
        let exportWhy = exports.directory == nil ? q("start the studio with --export-dir DIR to export") : "null"
        return """
            {"version": \(q(version)), "backend": \(q(renderer.description)), "compare": \(why == nil), \
            "compareWhy": \(why.map(q) ?? "null"), \
            "exports": {"directory": \(exports.directory.map { q($0.path) } ?? "null"), "kinds": [\(kinds)], "why": \(exportWhy)}, \
            "scenes": [\(scenes.all.map { Self.json($0.info) }.joined(separator: ", "))]}
            """
    }

    /// `value` as compact JSON.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
