import Foundation
import Synchronization
import Throbber
import ThrobberDigest
import ThrobberPNG
import ThrobberRender

extension BatchRun {
    /// Runs the shard and writes its manifest.
    ///
    /// - Parameter existingRenderer: a renderer of the right backend to reuse (the benchmark's),
    ///   instead of opening one.
    @discardableResult
    public func execute(renderer existingRenderer: FrameRenderer? = nil) throws -> Summary {
        let lock = try preflight()
        defer { lock?.release() }
        pauseForTests()
        let renderer = try existingRenderer ?? FrameRenderer(backend, device: device, cpuThreads: threads)
        for unit in units where job.clips[unit.clip].outputs.contains(where: \.takesFrames) {
            let clip = job.clips[unit.clip]
            let (width, height) = clip.scene.pixelSize
            do {
                try renderer.checkCanvas(width: width, height: height)
            } catch let error as ThrobberError {
                throw ThrobberError("\(job.path):\(clip.line): \(clip.label): \(error.message)", kind: error.kind)
            }
        }
        let cancellation = self.cancellation
        // One limit for the whole run, from its largest frames: a clip of small frames after a
        // large one could take more, but only where the budget, not the threads, bounds them.
        let largestFrame = units.map { job.clips[$0.clip].scene.pixelSize }.map { $0.width * $0.height * 4 }.max() ?? 0
        let inFlight = BatchRun.framesInFlight(threads: threads, frameBytes: largestFrame, budget: frameBudget)
        let pool = EncodePool(inFlight: inFlight)
        let tally = RunTally()
        let clock = ContinuousClock()
        let began = clock.now

        var loopError: Error?
        var failure: Error?
        // From here a signal is recorded, not acted on: the loop stops between frames and the
        // frames in flight land whole (a second signal abandons them).
        cancellation.finishing("batch") {
            do {
                for unit in units {
                    guard try runClip(unit, renderer: renderer, pool: pool, tally: tally) else { break }
                }
            } catch {
                // Let the frames in flight land (whole) before reporting.
                loopError = error
            }
            failure = loopError
            do {
                try pool.finish()
            } catch {
                failure = failure ?? error
            }
        }
        // Work that stopped because the run was asked to (a page compression, a FIFO no one
        // read) is the cancellation itself, reported as such below.
        if let failure, !((failure as? ThrobberError)?.kind == .interrupted && cancellation.cancellationReason != nil) { throw failure }
        if let reason = cancellation.cancellationReason {
            var error = ThrobberError.interrupted(reason, "after \(tally.rendered) rendered frames; nothing partial was left")
            error.remedy = .resumeKeepingExisting
            throw error
        }
        if let manifestPath {
            let manifest = Manifest(job: job, shard: shard, frames: tally.records.frames, artifacts: tally.records.artifacts)
            try AtomicFile.write(try JSONOutput.encoder.encode(manifest), to: URL(fileURLWithPath: manifestPath), overwrite: true)
        }
        return Summary(rendered: tally.rendered, skipped: tally.skipped, clips: Set(units.map(\.clip)).sorted().map { job.clips[$0] },
                       seconds: (clock.now - began).seconds, rendererDescription: renderer.description,
                       pngRows: tally.pngRows.withLock { $0 }, pngChoices: tally.pngChoices.withLock { $0 }, replaced: tally.replaced.map { ($0.file, $0.why) },
                       leftoversRemoved: leftoversRemoved, outputNotes: tally.records.notes)
    }

    /// Renders one clip's frames of the shard and hands them to its outputs; false when the run
    /// stopped before the clip was done (asked to, or a job failed).
    private func runClip(_ unit: WorkUnit, renderer: FrameRenderer, pool: EncodePool, tally: RunTally) throws -> Bool {
        let cancellation = self.cancellation, progress = self.progress, overwrite = self.overwrite
        let records = tally.records
        // A run without a manifest (`throbber render`) records and hashes nothing.
        let keepsManifest = manifestPath != nil
        let clip = job.clips[unit.clip]
        if unit.frames.lowerBound == 0 { try writeLottieOutputs(of: clip, tally: tally) }
        // A clip whose only outputs are Lottie files draws no frame.
        guard clip.outputs.contains(where: \.takesFrames) else {
            progress?(unit.frames.count)
            return true
        }
        let (width, height) = clip.scene.pixelSize
        let pngOutputs = clip.outputs.compactMap { output -> (FramePattern, PNGEncoder)? in
            guard case .png(let pattern, let encoder) = output else { return nil }
            return (pattern, encoder)
        }
        let extra = clip.loop.map { [("Throbber:loop", BatchRun.loopText($0))] } ?? []
        // A frame records the scene of its link; a sheet or atlas, whose cells span the links,
        // records the first link's and the chain (`FrameText.Key.chain`).
        let frameTexts = clip.linkScenes.map { FrameText($0, backend: renderer.backend.rawValue, driver: renderer.driver, extra: extra) }
        let orderedExtra = extra + (clip.chain.isEmpty ? [] : [(FrameText.Key.chain, FrameText.chainText(clip))])
        let frameText = FrameText(clip.scene, backend: renderer.backend.rawValue, driver: renderer.driver, extra: orderedExtra)
        // Ordered outputs: with --skip-existing an output is kept when its files are the ones
        // this run would write (Resume); anything else is rendered again and replaced.
        var sinkOutputs: [Output] = []
        for output in clip.outputs where output.isOrdered {
            let files = output.artifactFiles(in: clip)
            if skipExisting, let present = files.first(where: { AtomicFile.holdsFile($0.path) }) {
                if let absent = files.first(where: { !$0.optional && !AtomicFile.holdsFile($0.path) }) {
                    // A page or atlas there must still be Throbber's to be replaced.
                    for file in files where AtomicFile.holdsFile(file.path) {
                        do {
                            if file.type == "sheet" {
                                let webp = if case .sheet(let settings) = output { settings.webp } else { false }
                                try Resume.oursPage(file.path, webp: webp, earlier: earlierArtifacts)
                            }
                            if file.type == "atlas" { _ = try Resume.oursAtlas(file.path) }
                        } catch let refusal as ResumeRefusal {
                            throw refusal.error
                        }
                    }
                    tally.replaced.append(ResumeRefusal(file: present.path, why: "its output is incomplete (\(absent.path) is missing)"))
                } else {
                    switch Resume.artifacts(output, clip: clip, extra: orderedExtra, earlier: earlierArtifacts) {
                    case .success(let artifacts):
                        records.add(contentsOf: artifacts)
                        continue
                    case .failure(let refusal):
                        if refusal.foreign { throw refusal.error }
                        tally.replaced.append(refusal)
                    }
                }
            }
            sinkOutputs.append(output)
        }
        // The clip's frames are one sequence: an encoder thread takes the compressed rows a
        // frame shares with the one it encoded before (PNGSequence).
        let sequence = PNGSequence()
        let frameThreads = BatchRun.threadsPerFrame(threads: threads, inFlight: pool.inFlight, frames: unit.frames.count)
        let sinks = try sinkOutputs.map { try makeSink($0, clip: clip, width: width, height: height, text: frameText, cancellation: cancellation,
                                                                threads: threads) }
        let serial = DispatchQueue(label: "throbber.sink.\(unit.clip)")
        let sinkBox = SinkBox(sinks)
        let frameFiles: @Sendable (Int) -> [(String, PNGEncoder)] = { k in
            pngOutputs.map { ($0.0.path(name: clip.name, scene: clip.scene.model.id, scale: clip.scene.scale, frame: k), $0.1) }
        }
        // --skip-existing: the frame files that are this run's, checked on every core first.
        var keptFrames: [String: Manifest.Frame] = [:]
        if skipExisting && !pngOutputs.isEmpty {
            var candidates: [(k: Int, file: String)] = []
            for k in unit.frames {
                for (file, _) in frameFiles(k) where AtomicFile.holdsFile(file) { candidates.append((k, file)) }
            }
            let checked = candidates
            let verdicts = ConcurrentResults<Result<Manifest.Frame, ResumeRefusal>>(count: checked.count)
            DispatchQueue.concurrentPerform(iterations: checked.count) { index in
                let (k, file) = checked[index]
                verdicts.set(index, Resume.frame(file, clip: clip, frame: k, t: clip.time(k), extra: extra))
            }
            for (candidate, verdict) in zip(candidates, verdicts.values) {
                switch verdict {
                case .success(let frame): keptFrames[candidate.file] = frame
                case .failure(let refusal) where refusal.foreign: throw refusal.error
                case .failure(let refusal): tally.replaced.append(refusal)
                }
            }
        }
        let kept = keptFrames
        let missingFiles: @Sendable ([(String, PNGEncoder)]) -> [(String, PNGEncoder)] = { files in
            files.filter { kept[$0.0] == nil }
        }
        // A file found but not kept is replaced: --skip-existing asked for this run's outputs.
        let replaceFound = overwrite || skipExisting
        // Frames whose files all exist and are this run's are recorded as checked; the renderer
        // draws the others and hands each on (`Renderer.render(_:on:)`): a stream's frames
        // in order on this thread, PNG frames wherever the renderer draws best.
        // Only where a file may be kept (or a frame has none) can a frame be skipped: otherwise
        // its paths are made once, when it is written.
        var toRender: [Int] = []
        for k in unit.frames {
            if sinks.isEmpty, pngOutputs.isEmpty || !kept.isEmpty {
                let files = frameFiles(k)
                if missingFiles(files).isEmpty {
                    for (file, _) in files { records.add(kept[file]!) }
                    progress?(1)
                    tally.skipped += 1
                    continue
                }
            }
            toRender.append(k)
        }
        // What `auto` writes this clip's frames with: chosen once from its frames, before any is
        // drawn but only when one will be (automaticChoice).
        let automatic = !toRender.isEmpty && pngOutputs.contains(where: { $0.1 == .automatic })
            ? try automaticChoice(for: clip, renderer: renderer,
                                  executor: PipelineExecutor(pool: pool, cancellation: cancellation, threads: threads))
            : nil
        if let automatic { tally.pngChoices.withLock { $0.append((clip.label, automatic)) } }
        /// Encodes a rendered frame into each of its missing files and records every file.
        let writeFrame: @Sendable (Int, Image, [(String, PNGEncoder)], [(String, PNGEncoder)]) throws -> Void = { k, image, files, missing in
            let t = clip.time(k)
            let text = frameTexts[clip.linkIndex(k)].chunks(t: t)
            // Outputs with the same encoder share one encoding, and so one digest.
            var encoded: [PNGEncoder: (data: Data, digest: String)] = [:]
            for (file, encoder) in files {
                guard missing.contains(where: { $0.0 == file }) else {
                    // Kept as it is (--skip-existing): the manifest records its own bytes.
                    records.add(kept[file]!)
                    continue
                }
                let encoder = encoder == .automatic ? automatic?.encoder ?? .automatic : encoder
                let png = try encoded[encoder] ?? {
                    // Only a clip of one frame leaves `auto` to the frame itself (automaticChoice).
                    let choice = encoder == .automatic ? try encoder.choice(for: image) : PNGChoice(encoder: encoder, reason: nil)
                    if choice.reason != nil { tally.pngChoices.withLock { $0.append((clip.label, choice)) } }
                    let (data, reused) = try BatchRun.encode(image, encoder: choice.encoder, text: text, sequence: sequence,
                                                             cancellation: cancellation, threads: frameThreads)
                    tally.pngRows.withLock { $0 = ($0.compressed + image.height - reused, $0.total + image.height) }
                    return (data, keepsManifest ? SHA256.hex(data) : "")
                }()
                encoded[encoder] = png
                try AtomicFile.write(png.data, toPath: file, overwrite: replaceFound)
                if keepsManifest {
                    records.add(Manifest.Frame(clip: clip.label, frame: k, t: t, file: file, width: image.width,
                                               height: image.height, sha256: png.digest))
                }
            }
            progress?(1)
        }
        let time = clip.time, sceneForFrame = clip.scene(forFrame:)
        let wanted = FrameSequence(
            frames: toRender, drawList: { try sceneForFrame($0).checkedDrawList(at: time($0)) },
            deliver: { k, image in
                let files = frameFiles(k)
                try writeFrame(k, image, files, missingFiles(files))
            },
            inOrder: sinks.isEmpty ? nil : { k, image in pool.submit(on: serial) { try sinkBox.add(image, index: k) } })
        let handed = try renderer.render(wanted, on: PipelineExecutor(pool: pool, cancellation: cancellation, threads: threads))
        tally.rendered += handed
        let completed = handed == toRender.count
        if !sinks.isEmpty {
            if completed {
                pool.submit(on: serial) {
                    let (artifacts, notes) = try sinkBox.finish(overwrite: replaceFound)
                    records.add(contentsOf: artifacts)
                    records.add(notes: notes)
                }
            }
            // Runs last on the clip's queue; after a failure or an interruption it removes
            // the temporary files, after success it does nothing.
            pool.submit(on: serial, always: true) { sinkBox.abortUnfinished() }
        }
        return completed
    }
}

extension BatchRun {
    /// What `auto` writes the clip's PNG frames with, chosen once from its first two frames (frame
    /// 1's traits against frame 0, ``FrameTraits``), drawn by the run's renderer before any other:
    /// the frames by their index in the clip, not the order they reach the encoders in, so every
    /// run and every shard of the clip chooses alike. Nil for a clip of one frame, which `auto`
    /// then resolves from the frame itself when it is written (the same choice, without drawing
    /// the frame twice).
    ///
    /// The two frames are drawn as the clip's others are, through `executor`, so a run asked to
    /// stop gives up a heavy frame here as it would there; nil then too, and the clip's own
    /// drawing stops at once.
    func automaticChoice(for clip: Clip, renderer: FrameRenderer, executor: some FrameExecutor) throws -> PNGChoice? {
        guard clip.frameCount > 1 else { return nil }
        let drawn = ConcurrentResults<Image>(count: 2)
        let probe = FrameSequence(frames: [0, 1], drawList: { try clip.scene(forFrame: $0).checkedDrawList(at: clip.time($0)) },
                                  deliver: { _, _ in }, inOrder: { k, image in drawn.set(k, image) })
        guard try renderer.render(probe, on: executor) == 2 else { return nil }
        let frames = drawn.values
        return try PNGEncoder.automatic.choice(for: frames[1], previous: frames[0])
    }
}

/// What a run has done so far, across its clips.
final class RunTally: @unchecked Sendable {
    let records = ManifestRecords()
    let pngRows = Mutex<(compressed: Int, total: Int)>((0, 0))
    /// What `auto` chose for each clip, and why (one entry per clip; a one-frame clip's comes
    /// from its frame).
    let pngChoices = Mutex<[(clip: String, choice: PNGChoice)]>([])
    /// Touched by the run's own thread only.
    var rendered = 0
    var skipped = 0
    var replaced: [ResumeRefusal] = []
}
