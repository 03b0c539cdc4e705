import Foundation
import Throbber
import ThrobberPNG

/// A GIF's frames kept on disk between its two passes (`FFmpegSink`): one file of PNGs one after
/// another (what ffmpeg's `png_pipe` reads), under a temporary name of the GIF beside it, so that
/// an abandoned run removes it and a run killed outright leaves it for the next run's clean-up
/// (`Leftovers`).
///
/// PNG rather than raw pixels or a second rendering, by measurement on 600 frames of the wave
/// ball at 900×900 px (docs/video.md): raw frames took 1.9 GB of disk; rendering the clip twice
/// doubles the cost of a heavy scene; PNG frames at ISA-L level 1, each taking the rows it shares
/// with the frame before (`PNGSequence`), took a few per cent of the raw size for about a
/// millisecond a frame.
final class GIFSpool {
    /// The spool's path.
    let path: String
    private var fd: Int32
    private let token: InFlightFiles.Token
    private let sequence = PNGSequence()
    private let encoder = PNGEncoder.isal(level: 1)
    private var closed = false
    private var removed = false

    /// Creates the spool beside `output`.
    ///
    /// - Throws: `cannotCreate` naming the output and the system's reason.
    init(for output: String) throws {
        path = AtomicFile.temporaryName(for: output)
        (fd, token) = try AtomicFile.createTemporary(path, for: output)
    }

    deinit { abort() }

    /// Appends a frame.
    ///
    /// - Throws: `.io` naming the spool (disk full).
    func add(_ image: Image) throws {
        let data = try encoder.encode(image, sequence: sequence)
        if let failure = data.withUnsafeBytes({ writeAll($0, to: fd) }) {
            throw ThrobberError("cannot write the frames of a GIF to \(ThrobberError.shownPath(path))", failure, kind: .io)
        }
    }

    /// Closes the file, to be read.
    ///
    /// - Throws: `.io` when closing fails.
    func close() throws {
        guard !closed else { return }
        closed = true
        if let failure = closeFile(fd, after: nil) {
            throw ThrobberError("cannot write the frames of a GIF to \(ThrobberError.shownPath(path))", failure, kind: .io)
        }
    }

    /// Closes and removes the file.
    func abort() {
        if !closed {
            closed = true
            Glibc.close(fd)
        }
        guard !removed else { return }
        removed = true
        unlink(path)
        InFlightFiles.shared.finished(token)
    }
}
