import Foundation
import Throbber

/// The pages connected to a studio, each known by the id it chose: its event stream, the state
/// it last asked for, and the frames it may still fetch.
final class StudioClients: @unchecked Sendable {
    /// One page.
    final class Client: @unchecked Sendable {
        let id: String
        /// Its event stream; nil until it connects, replaced when it reconnects.
        var stream: EventStream?
        /// Its frame stream (`/api/frames`): each frame's pixels pushed as they are drawn.
        var frameStream: EventStream?
        /// The state it asked for last; drawn again when its scene's file changes.
        /// Kept as asked, not as drawn: a laid-out scene holds its glyph atlas, and sixteen pages'
        /// atlases at large scales would hold gigabytes.
        var latest: AskedState?
        /// Frames it may fetch, oldest first, by name (`7`, `7-cpu`, `7-gl`, `7-heat`).
        var frames: [(name: String, image: Image)] = []
        var lastUsed = Date()
        /// The number of the frame drawn last: each frame's URL is its own, even when a file
        /// changed and the same state (the same seq) is drawn again.
        var serial = 0

        init(id: String) { self.id = id }
    }

    /// The most pages a studio keeps; a new one replaces the one unused longest.
    static let maximumClients = 16
    /// The most bytes of frames kept per page, and for all pages together; a page's newest frame
    /// is kept whatever its size (the largest frame compared on CPU and GL is 64 MiB).
    static let maximumFrameBytes = 64 << 20
    static let maximumTotalFrameBytes = 192 << 20
    /// The most images kept per page: its last two frames compared on CPU and GL (the page takes
    /// its frames from its frame stream; the URLs are for other clients and for checking).
    static let maximumFrames = 8

    private let lock = NSLock()
    private var clients: [String: Client] = [:]

    /// Whether `id` is a page id the studio takes: 8 to 64 of `[A-Za-z0-9_-]`.
    static func isValidID(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count) && id.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
        }
    }

    /// The page `id`, made when `create` (its event stream connecting).
    func client(_ id: String, create: Bool = false) -> Client? {
        lock.withLock {
            if let client = clients[id] {
                client.lastUsed = Date()
                return client
            }
            guard create else { return nil }
            if clients.count >= Self.maximumClients, let oldest = clients.values.min(by: { $0.lastUsed < $1.lastUsed }) {
                clients[oldest.id] = nil
            }
            let client = Client(id: id)
            clients[id] = client
            return client
        }
    }

    /// Connects `stream` as `client`'s event stream (or its frame stream), replacing an earlier one.
    func attach(_ stream: EventStream, to client: Client, frames: Bool = false) {
        lock.withLock {
            if frames { client.frameStream = stream } else { client.stream = stream }
        }
    }

    /// Whether `stream` is still one of `client`'s own (not replaced by a reconnection) and open.
    func isCurrent(_ stream: EventStream, of client: Client) -> Bool {
        lock.withLock { (client.stream === stream || client.frameStream === stream) && stream.isOpen }
    }

    /// Pushes a frame down `client`'s frame stream, if it has one: a 4-byte big-endian length, the
    /// frame's JSON, then each image's RGBA in the order its `parts` names them.
    func push(_ json: String, images: [Image], to client: Client) {
        guard let stream = lock.withLock({ client.frameStream }) else { return }
        let header = Array(json.utf8)
        let length = UInt32(header.count)
        let head = [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + header
        stream.send(parts: [head] + images.map(\.pixels))
    }

    /// Sends an event to one page, if it is connected.
    func send(_ event: String, _ data: String, to client: Client) {
        let stream = lock.withLock { client.stream }
        stream?.send(event: event, data: data)
    }

    /// Tells one page that its state `seq` could not be drawn, and why.
    func sendFailed(_ seq: Int, _ message: String, to client: Client) {
        send("failed", "{\"seq\": \(seq), \"message\": \(JSONOutput.quoted(message))}", to: client)
    }

    /// Sends an event to every connected page.
    func broadcast(_ event: String, _ data: String) {
        let streams = lock.withLock { clients.values.compactMap(\.stream) }
        for stream in streams { stream.send(event: event, data: data) }
    }

    /// A number for `client`'s next frame.
    func nextSerial(of client: Client) -> Int {
        lock.withLock {
            client.serial += 1
            return client.serial
        }
    }

    /// Records the state `client` asked for last.
    func setLatest(_ work: StudioWork, of client: Client) {
        lock.withLock { client.latest = AskedState(seq: work.seq, state: work.state, scene: work.entry.id) }
    }

    /// The state `client` asked for last, if any.
    func latest(of client: Client) -> AskedState? {
        lock.withLock { client.latest }
    }

    /// Every page's last state, for re-rendering after a file changed.
    func latestStates() -> [(Client, AskedState)] {
        lock.withLock { clients.values.compactMap { client in client.latest.map { (client, $0) } } }
    }

    /// Keeps `images` for `client` to fetch, dropping its oldest frames beyond the bounds: first
    /// its own, then the oldest of the page that holds most, never a page's newest frame.
    func keep(_ images: [(name: String, image: Image)], for client: Client) {
        lock.withLock {
            client.frames += images
            var bytes = client.frames.reduce(0) { $0 + $1.image.pixels.count }
            while client.frames.count > images.count,
                  bytes > Self.maximumFrameBytes || client.frames.count > Self.maximumFrames {
                bytes -= client.frames.removeFirst().image.pixels.count
            }
            while true {
                let held = clients.values.map { ($0, $0.frames.reduce(0) { $0 + $1.image.pixels.count }) }
                guard held.reduce(0, { $0 + $1.1 }) > Self.maximumTotalFrameBytes,
                      let largest = held.filter({ $0.0.frames.count > ($0.0 === client ? images.count : 1) })
                        .max(by: { $0.1 < $1.1 })?.0 else { break }
                largest.frames.removeFirst()
            }
        }
    }

    /// The frame `name` of page `id`, if it is still kept.
    func frame(_ name: String, of id: String) -> Image? {
        lock.withLock { clients[id]?.frames.last { $0.name == name }?.image }
    }
}

/// The state a page asked for last, by its scene's id.
struct AskedState: Sendable {
    var seq: Int
    var state: StudioState
    var scene: String
}
