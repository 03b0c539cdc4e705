import Foundation
import Throbber
import ThrobberRender

/// A state ready to draw: the scene set, validated and laid out, and the command and job that
/// render the same frame.
struct StudioWork: Sendable {
    var seq: Int
    var state: StudioState
    var entry: StudioScenes.Entry
    var scene: LaidOutScene
    var command: String
    var job: String
}

/// Draws the pages' frames on one thread of its own (a GL context stays on the thread that made
/// it): the latest state of each page, older ones dropped, with the studio's renderer — the one
/// `render --backend B` opens — and, when a page compares, the CPU and GL renderers with
/// `compare`'s heat map.
final class StudioRenderer: @unchecked Sendable {
    /// The largest frame the studio draws: 4096 px a side and 4,194,304 pixels (2048², 16 MiB;
    /// 64 MiB with CPU, GL and the heat map), so a page's frames stay live and a studio's memory
    /// stays within about half a gigabyte; `render` draws larger.
    static let maximumSide = 4096
    static let maximumPixels = 1 << 22

    /// Refuses a frame larger than the studio draws or exports.
    static func checkSize(width: Int, height: Int) throws {
        guard width <= maximumSide && height <= maximumSide && width * height <= maximumPixels else {
            throw ThrobberError("the frame is \(width)×\(height) px; the studio draws frames up to \(maximumSide) px a side "
                                + "and \(maximumPixels) pixels (render larger ones with the command)", kind: .usage)
        }
    }

    private let condition = NSCondition()
    private var pending: [String: (StudioClients.Client, StudioWork)] = [:]
    private var order: [String] = []
    private var stopping = false
    private let clients: StudioClients
    private let backend: Backend
    /// Set once the thread has opened its renderers.
    private var opened: (description: String, compare: String?)?
    private var openError: Error?
    private var thread: Thread?
    /// Signalled when the thread has ended and its renderers are closed.
    private let ended = DispatchSemaphore(value: 0)
    private var hasEnded = false

    /// Starts the thread and opens the renderers on it.
    ///
    /// - Throws: as `FrameRenderer` for the studio's backend (a GL backend that does not open).
    init(backend: Backend, clients: StudioClients) throws {
        self.backend = backend
        self.clients = clients
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "throbber.studio.render"
        thread.stackSize = 8 << 20
        self.thread = thread
        thread.start()
        condition.lock()
        while opened == nil && openError == nil { condition.wait() }
        condition.unlock()
        if let openError { throw openError }
    }

    /// The studio renderer's description (`cpu: …`).
    var description: String { condition.withLock { opened?.description ?? "" } }
    /// Why CPU and GL cannot be compared, or nil when they can.
    var compareUnavailable: String? { condition.withLock { opened?.compare } }

    /// Queues `work` for `client`, replacing what it queued before and has not been drawn.
    func submit(_ work: StudioWork, for client: StudioClients.Client) {
        condition.withLock {
            if pending[client.id] == nil { order.append(client.id) }
            pending[client.id] = (client, work)
            condition.signal()
        }
    }

    /// Stops the thread after the frame it is drawing and waits (at most `seconds`) until its
    /// renderers are closed: a GL context's threads (llvmpipe's) must not outlive the process's
    /// exit handlers.
    ///
    /// - Returns: whether the thread has ended (false while a large frame is still being drawn).
    @discardableResult
    func stop(waiting seconds: Double = 2) -> Bool {
        let wasStopping = condition.withLock {
            defer {
                stopping = true
                condition.broadcast()
            }
            return stopping
        }
        if wasStopping { return condition.withLock { hasEnded } }
        let done = ended.wait(timeout: .now() + seconds) == .success
        condition.withLock { hasEnded = done }
        return done
    }

    private func run() {
        defer { ended.signal() }
        drawUntilStopped()
    }

    /// Opens the renderers, then draws until `stop()`; they close as it returns.
    private func drawUntilStopped() {
        let primary: FrameRenderer
        var cpu: FrameRenderer?, gl: FrameRenderer?
        var compareWhy: String?
        do {
            primary = try FrameRenderer(backend)
            cpu = primary.backend == .cpu ? primary : try FrameRenderer(.cpu)
            do {
                gl = primary.backend == .gl ? primary : try FrameRenderer(.gl)
            } catch {
                compareWhy = "GL does not open here: " + ((error as? ThrobberError)?.message ?? "\(error)")
            }
        } catch {
            condition.withLock {
                openError = error
                condition.broadcast()
            }
            return
        }
        // A page's frames change size as it is tuned: keep only the latest two frames for reuse
        // (render keeps up to 512 MB of them, for a clip's frames of one size).
        for renderer in [primary, cpu] { renderer?.cpuRenderer?.keptFrames = 2 }
        condition.withLock {
            opened = (primary.description, compareWhy)
            condition.broadcast()
        }
        while true {
            condition.lock()
            while order.isEmpty && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let id = order.removeFirst()
            let (client, work) = pending.removeValue(forKey: id)!
            condition.unlock()
            draw(work, for: client, primary: primary, cpu: cpu, gl: gl)
        }
    }

    private func draw(_ work: StudioWork, for client: StudioClients.Client, primary: FrameRenderer,
                      cpu: FrameRenderer?, gl: FrameRenderer?) {
        do {
            // Its size was checked against the studio's bounds when the state was prepared.
            let (width, height) = work.scene.pixelSize
            try primary.checkCanvas(width: width, height: height)
            let list = work.scene.drawList(at: work.state.t)
            let began = DispatchTime.now().uptimeNanoseconds
            let image = try primary.render(list)
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6
            let n = clients.nextSerial(of: client)
            // Each image by the part it is; kept as `N` (the frame) and `N-cpu`, `N-gl`, `N-heat`.
            var parts = [(part: "frame", image: image)]
            var comparison = "null"
            if work.state.compare, let cpu, let gl {
                let cpuImage = cpu === primary ? image : try cpu.render(list)
                let glImage = gl === primary ? image : try gl.render(list)
                let diff = ImageDiff(expected: cpuImage, observed: glImage, tolerance: 2, keep: 0)
                let heat = ImageDiff.heatMap(expected: cpuImage, observed: glImage, tolerance: 2)
                parts += [("cpu", cpuImage), ("gl", glImage), ("heat", heat)]
                let base = "/frames/\(client.id)/\(n)"
                comparison = """
                    {"cpu": "\(base)-cpu.rgba", "gl": "\(base)-gl.rgba", "heat": "\(base)-heat.rgba", \
                    "maxDifference": \(diff.maxChannelDifference), "differing": \(diff.pixelsOverTolerance), "tolerance": 2}
                    """
            }
            clients.keep(parts.map { (name: $0.part == "frame" ? "\(n)" : "\(n)-\($0.part)", image: $0.image) }, for: client)
            let q = JSONOutput.quoted
            let event = """
                {"seq": \(work.seq), "scene": \(q(work.entry.id)), "revision": \(work.entry.revision), \
                "t": \(formatShortest(work.state.t)), "scale": \(formatShortest(work.state.scale)), \
                "width": \(width), "height": \(height), "url": "/frames/\(client.id)/\(n).rgba", \
                "backend": \(q(primary.description)), "milliseconds": \(String(format: "%.2f", milliseconds)), \
                "command": \(q(work.command)), "job": \(q(work.job)), "compare": \(comparison)}
                """
            clients.send("frame", event, to: client)
            let names = parts.map { "\"\($0.part)\"" }.joined(separator: ", ")
            clients.push(String(event.dropLast()) + ", \"parts\": [\(names)]}", images: parts.map(\.image), to: client)
        } catch {
            let message = (error as? ThrobberError)?.message ?? "\(error)"
            clients.sendFailed(work.seq, message, to: client)
        }
    }
}
