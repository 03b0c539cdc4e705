import Foundation
import Throbber

extension Studio {
    /// `GET /api/events?client=ID`: the page's event stream; with `frames`, `GET
    /// /api/frames?client=ID`, its frame stream, where each frame's pixels are pushed as it is
    /// drawn (no request a frame). Each is held until the page goes, reconnects, or the studio
    /// stops; every 10 s a comment (a frame stream: a message `{"ping": true}`) finds a page that
    /// went without a word.
    func events(_ request: HTTPRequest, frames: Bool = false) -> HTTPReply {
        let path = frames ? "/api/frames" : "/api/events"
        guard let id = request.query["client"], StudioClients.isValidID(id) else {
            return .response(.error(400, "\(path) needs ?client=ID, ID 8 to 64 of A-Z a-z 0-9 _ -"))
        }
        guard let client = clients.client(id, create: true) else { return .response(.error(503, "too many pages")) }
        let body: @Sendable (EventStream) -> Void = { [self] stream in
            clients.attach(stream, to: client, frames: frames)
            // A frame drawn before the frame stream connected is drawn again down it.
            if frames, let asked = clients.latest(of: client) { redraw(asked, for: client) }
            if !frames { stream.send(event: "hello", data: "{\"client\": \(JSONOutput.quoted(id))}") }
            var quiet = 0.0
            while clients.isCurrent(stream, of: client) && !isStopped {
                Thread.sleep(forTimeInterval: 0.25)
                quiet += 0.25
                if quiet >= 10 {
                    quiet = 0
                    if frames { clients.push("{\"ping\": true, \"parts\": []}", images: [], to: client) } else { stream.ping() }
                }
            }
        }
        return frames ? .byteStream(contentType: "application/octet-stream", body) : .eventStream(body)
    }

    /// Whether the studio is stopping.
    var isStopped: Bool { stateLock.withLock { stoppedFlag } }

    /// `POST /api/state`: checks the state as `render` would at once, queues it for drawing.
    func state(_ request: HTTPRequest) throws -> HTTPResponse {
        let object = try Self.object(request.body)
        guard let id = object["client"] as? String, StudioClients.isValidID(id) else {
            throw StudioRefusal(400, "\"client\" must be the id the page's event stream uses")
        }
        guard let client = clients.client(id) else { throw StudioRefusal(404, "no page \(id): open /api/events?client=\(id) first") }
        guard let seq = object["seq"].flatMap(StudioState.number), seq == seq.rounded(), seq >= 0, seq < 1e15 else {
            throw StudioRefusal(400, "\"seq\" must be a whole number ≥ 0")
        }
        let (entry, model) = try sceneEntry(object["scene"])
        let work = try prepare(try StudioState(json: object), seq: Int(seq), entry: entry, model: model)
        clients.setLatest(work, of: client)
        renderer.submit(work, for: client)
        return .json(202, "{\"seq\": \(work.seq)}")
    }

    /// `POST /api/export`: checks the state, starts the export.
    func export(_ request: HTTPRequest) throws -> HTTPResponse {
        let object = try Self.object(request.body)
        guard let kind = object["kind"] as? String else { throw StudioRefusal(422, "\"kind\" must be one of the export kinds") }
        guard let stateObject = object["state"] as? [String: Any] else { throw StudioRefusal(400, "\"state\" must be an object") }
        let (entry, model) = try sceneEntry(stateObject["scene"])
        // Preparing refuses a frame larger than the studio draws, so exports stay within it too.
        let work = try prepare(try StudioState(json: stateObject), seq: 0, entry: entry, model: model)
        let started = try exports.start(kind: kind, work: work, info: entry.info)
        return .json(202, "{\"id\": \(started.id), \"directory\": \(JSONOutput.quoted(started.directory))}")
    }

    /// The scene a request names, read.
    func sceneEntry(_ value: Any?) throws -> (StudioScenes.Entry, any SceneModel) {
        guard let id = value as? String else { throw StudioRefusal(400, "\"scene\" must be a scene id (a string)") }
        guard let entry = scenes.entry(id) else {
            throw StudioRefusal(404, "unknown scene '\(String(id.prefix(64)))': one of \(scenes.all.map(\.id).joined(separator: ", "))")
        }
        guard let model = entry.model else { throw StudioRefusal(422, entry.error ?? "\(entry.reference) does not read") }
        return (entry, model)
    }

    /// `state` applied to `model` and ready to draw, with the command and job that render it.
    func prepare(_ state: StudioState, seq: Int, entry: StudioScenes.Entry, model: any SceneModel) throws -> StudioWork {
        let state = state.ordered(for: model)
        let scene = try state.scene(from: model)
        return StudioWork(seq: seq, state: state, entry: entry, scene: scene,
                          command: StudioCommandLine.command(state, reference: entry.reference),
                          job: StudioCommandLine.frameJob(state, reference: entry.reference))
    }

    /// A request body's JSON object.
    static func object(_ body: [UInt8]) throws -> [String: Any] {
        guard body.count <= largestState else { throw StudioRefusal(413, "a request body holds at most \(largestState) bytes") }
        guard let value = try? JSONSerialization.jsonObject(with: Data(body)), let object = value as? [String: Any] else {
            throw StudioRefusal(400, "the body must be a JSON object")
        }
        return object
    }

    /// `GET /frames/ID/NAME.rgba`: a kept frame's raw RGBA.
    func frame(_ path: String) -> HTTPResponse {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasSuffix(".rgba"), StudioClients.isValidID(String(parts[2])) else {
            return .error(404, "no such frame")
        }
        let name = String(parts[3].dropLast(5))
        guard let image = clients.frame(name, of: String(parts[2])) else {
            return .error(404, "no such frame (a page keeps its last \(StudioClients.maximumFrames) images)")
        }
        return HTTPResponse(status: 200, contentType: "application/octet-stream", body: image.pixels,
                            headers: [("X-Width", String(image.width)), ("X-Height", String(image.height))])
    }
}
