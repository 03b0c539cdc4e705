import Foundation
import Testing
@testable import Throbber
@testable import ThrobberBatch

/// Job files: positions in errors, suggestions, defaults, sharding and loops.
struct JobFileTests {
    func load(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Job {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("job-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try Job.load(path: url.path, baseDirectory: "/out")
    }

    func expectError(_ text: String, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try load(text)
        } throws: { error in
            let error = error as! ThrobberError
            let ok = error.kind == .badData && fragments.allSatisfy { error.message.contains($0) }
            if !ok { Issue.record("message was: \(error.message)", sourceLocation: sourceLocation) }
            return ok
        }
    }

    /// "pngEncoder" names the encoder; "pngLevel" and an output's "level" take that encoder's range.
    @Test func pngEncoderSetsTheLevelsAllowed() throws {
        func png(_ job: Job, _ output: Int = 0) -> (String, Int)? {
            guard case .png(_, let encoder) = job.clips[0].outputs[output] else { return nil }
            return (encoder.name, encoder.level)
        }
        let scene = "\"renders\": [{\"scene\": \"ring\""
        #expect(png(try load("{\"pngEncoder\": \"libdeflate\", \(scene)}]}")).map { "\($0.0) \($0.1)" } == "libdeflate 1")
        #expect(png(try load("{\(scene)}]}")).map { "\($0.0) \($0.1)" } == "auto 1")
        #expect(png(try load("{\"pngEncoder\": \"fast\", \(scene)}]}")).map { "\($0.0) \($0.1)" } == "isal 1")
        #expect(png(try load("{\"pngEncoder\": \"libpng\", \(scene)}]}")).map { "\($0.0) \($0.1)" } == "libpng 7")
        #expect(png(try load("{\"pngEncoder\": \"isal\", \(scene)}]}")).map { "\($0.0) \($0.1)" } == "isal 1")
        #expect(png(try load("{\"pngEncoder\": \"libdeflate\", \"pngLevel\": 12, \(scene)}]}")).map { "\($0.0) \($0.1)" } == "libdeflate 12")
        let two = try load("{\"pngEncoder\": \"libdeflate\", \(scene), \"outputs\": [{\"type\": \"png\", \"pattern\": \"a_%05d.png\", \"level\": 11}, {\"type\": \"png\", \"pattern\": \"b_%05d.png\"}]}]}")
        #expect(png(two, 0).map { "\($0.0) \($0.1)" } == "libdeflate 11" && png(two, 1).map { "\($0.0) \($0.1)" } == "libdeflate 1")
        expectError("{\"pngLevel\": 13, \(scene)}]}", [":1:14:", "invalid pngLevel 13: an integer in [0, 12] for auto"])
        #expect(png(try load("{\"pngLevel\": 3, \(scene)}]}")).map { "\($0.0) \($0.1)" } == "libdeflate 3", "a level alone is libdeflate's")
        expectError("{\"pngEncoder\": \"libdeflate\", \"pngLevel\": 13, \(scene)}]}", ["invalid pngLevel 13: an integer in [0, 12] for libdeflate"])
        expectError("{\"pngEncoder\": \"fast\", \"pngLevel\": 1, \(scene)}]}", ["invalid pngLevel 1: no level with 'fast', which is isal at level 1"])
        expectError("{\"pngEncoder\": \"isal\", \"pngLevel\": 4, \(scene)}]}", ["invalid pngLevel 4: an integer in [0, 3]"])
        expectError("{\"pngEncoder\": \"isal\", \(scene), \"outputs\": [{\"type\": \"png\", \"level\": 7}]}]}", ["invalid level 7: an integer in [0, 3]"])
        expectError("{\"pngEncoder\": \"libdeflat\", \(scene)}]}", [":1:16:", "unknown pngEncoder \"libdeflat\"; did you mean \"libdeflate\"? (known: auto, libpng, libdeflate, isal, zlib, fast, small, compact)"])
        expectError("{\"pngEncoder\": 3, \(scene)}]}", ["\"pngEncoder\" must be a string"])
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        expectError("{\n  \"renders\": [\n    {\"scene\": \"ring\",}\n  ]\n}", [":3:22:", "expected a quoted key"])
        expectError("{\"renders\": [1, 2", [":1:18:", "expected ',' or ']'"])
        expectError("{\"renders\": [], \"renders\": []}", [":1:17:", "duplicate key"])
    }

    @Test func unknownKeysSuggestTheNearest() {
        expectError("{\"renders\": [{\"scene\": \"ring\", \"scals\": [1]}]}", [":1:32:", "unknown key \"scals\"", "did you mean \"scale\""])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"loopSecond\": 1}]}", ["did you mean \"loopSeconds\""])
        expectError("{\"render\": []}", [":1:2:", "did you mean \"renders\""])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"pgn\"}]}]}", ["did you mean \"png\""])
    }

    @Test func parameterErrorsPointAtTheParameter() {
        expectError("{\"renders\": [{\"scene\": \"wave-ball\",\n \"parameters\": {\"progress\": 1.5}}]}", [":2:17:", "invalid progress '1.5'", "[0, 1]"])
        expectError("{\"renders\": [{\"scene\": \"wave-ball\", \"parameters\": {\"tickCont\": 3}}]}", ["did you mean 'tickCount'"])
        expectError("{\"renders\": [{\"scene\": \"wave-bal\"}]}", ["did you mean 'wave-ball'"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"fps\": 0}]}", ["invalid fps 0", "> 0"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"frames\": 2, \"loop\": true}]}", ["give one of"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"scales\": [1, -2]}]}", ["a scale must be a number > 0"])
    }

    @Test func patternErrorsAreCaught() {
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"png\", \"pattern\": \"x.png\"}]}]}", ["frame number directive"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"png\", \"pattern\": \"{nme}_%d.png\"}]}]}", ["did you mean {name}"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"video\", \"path\": \"x.avi\"}]}]}", [".gif, .webp, .apng, .mp4 or .webm"])
    }

    @Test func collidingOutputsAreRejected() {
        expectError("{\"renders\": [{\"scene\": \"ring\"}, {\"scene\": \"ring\"}]}", ["writes /out/ring@1x_%05d.png", "too"])
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"rgba\"}]}, {\"scene\": \"activity\", \"outputs\": [{\"type\": \"y4m\"}]}]}",
                    ["only one output can go to stdout"])
    }

    @Test func defaultsAndScalesMakeOneClipPerScale() throws {
        let job = try load("{\"renders\": [{\"scene\": \"activity\", \"scales\": [1, 2, 3], \"duration\": 0.5, \"fps\": 30}]}")
        #expect(job.clips.count == 3)
        #expect(job.clips.map(\.frameCount) == [15, 15, 15])
        #expect(job.clips.map(\.scene.scale) == [1, 2, 3])
        guard case .png(let pattern, let encoder) = job.clips[1].outputs[0] else {
            Issue.record("default output is not PNG")
            return
        }
        #expect(pattern.path(name: "activity", scene: "activity", scale: 2, frame: 7) == "/out/activity@2x_00007.png")
        #expect(encoder == .automatic && encoder.level == 1)
        #expect(job.digest.count == 64)
    }

    @Test func loopingRetimesAndReports() throws {
        let job = try load("{\"renders\": [{\"scene\": \"wave-ball\", \"loop\": true, \"loopSeconds\": 4, \"fps\": 30}]}")
        let clip = job.clips[0]
        let loop = try #require(clip.loop)
        #expect(clip.frameCount == 120)
        #expect(abs(clip.start - 1.656) < 1e-9, "the loop starts once the water has settled")
        #expect(loop.changes.map(\.cycles) == [2, 4, 3])
        #expect(abs(loop.changes[1].speedChangePercent - (-1.2969)) < 0.01)
    }

    @Test(arguments: [
        ("ring", "", 60), ("activity", "", 60), ("pull-wave", "", 1200), ("wave-ball", ", \"loopSeconds\": 4", 240),
        ("double-wave", ", \"loopSeconds\": 6.666666666666667", 400), ("progress-ring", "", 60),
        ("wave-ball", "", 240), ("double-wave", "", 2000), ("pull-wave", ", \"maxSpeedChange\": 0.5", 1680),
    ])
    func theFrameAfterTheLastEqualsTheFirst(scene id: String, extra: String, frames: Int) throws {
        let job = try load("{\"renders\": [{\"scene\": \"\(id)\", \"loop\": true\(extra)}]}")
        let clip = job.clips[0]
        #expect(clip.frameCount == frames)
        #expect(clip.scene.drawList(at: clip.time(clip.frameCount)).items.count == clip.scene.drawList(at: clip.time(0)).items.count)
        let first = clip.scene.drawList(at: clip.time(0))
        let after = clip.scene.drawList(at: clip.time(clip.frameCount))
        #expect(maxDifference(first, after) < 1e-4, "\(id): the loop does not close")
        // and it is not trivially still (except the still progress ring)
        if id != "progress-ring" {
            #expect(maxDifference(first, clip.scene.drawList(at: clip.time(clip.frameCount / 3))) > 1e-3)
        }
    }

    /// The default loop of every scene, at the frame rates people use, keeps every part within
    /// the default bound: the shortest multiple of the natural loop that does.
    @Test(arguments: SceneRegistry.ids)
    func defaultLoopsKeepEveryPartNearItsSpeed(scene id: String) throws {
        for fps in [24.0, 25, 30, 50, 60, 120] {
            let job = try load("{\"renders\": [{\"scene\": \"\(id)\", \"loop\": true, \"fps\": \(formatNumber(fps))}]}")
            let loop = try #require(job.clips[0].loop)
            #expect(loop.worstSpeedChangePercent <= LoopPlan.defaultMaxSpeedChange, "\(id) at \(formatNumber(fps)) fps: \(loop.changesText)")
            #expect(loop.choice == .search && loop.maxSpeedChange == LoopPlan.defaultMaxSpeedChange)
            #expect(loop.duration <= LoopPlan.searchLimit)
            // The shortest: no shorter multiple of the natural loop meets the bound.
            let model = job.clips[0].scene.model
            let found = Int((loop.duration / model.naturalLoop).rounded())
            for multiple in 1..<max(found, 1) {
                let shorter = try LoopPlan(parts: model.periodicParts, seconds: Double(multiple) * model.naturalLoop, fps: fps)
                #expect(shorter.worstSpeedChangePercent > LoopPlan.defaultMaxSpeedChange, "\(id): \(formatNumber(shorter.duration)) s would do")
            }
        }
    }

    /// The lengths docs/batches.md ("Loops") and `throbber scenes` list, at 60 fps.
    @Test func defaultLoopLengths() throws {
        var lengths: [String: Int] = [:]
        for id in SceneRegistry.ids { lengths[id] = try SceneRegistry.model(id).defaultLoop(fps: 60).frames }
        #expect(lengths == ["wave-ball": 240, "double-wave": 2000, "pull-wave": 1200, "activity": 60, "ring": 60, "progress-ring": 60, "hud": 60])
        // The loop the wave ball had before, one amplitude period, sped its back wave up by a third.
        let old = try LoopPlan(parts: WaveBall().periodicParts, seconds: 2, fps: 60)
        #expect(old.worstSpeedChangePercent > 31 && old.worstChange?.part == "backPhase")
    }

    @Test func maxSpeedChangeIsValidated() throws {
        let scene = "{\"renders\": [{\"scene\": \"wave-ball\", \"loop\": true"
        expectError(scene + ", \"maxSpeedChange\": 150}]}", [":1:69:", "invalid maxSpeedChange 150: a percentage in [0, 100] (2 means 2%)"])
        expectError(scene + ", \"maxSpeedChange\": -1}]}", ["invalid maxSpeedChange -1: a percentage in [0, 100]"])
        expectError(scene + ", \"maxSpeedChange\": \"2%\"}]}", ["\"maxSpeedChange\" must be a number, not a string"])
        expectError("{\"renders\": [{\"scene\": \"wave-ball\", \"maxSpeedChange\": 1}]}", [":1:37:", "\"maxSpeedChange\" needs \"loop\": true"])
        expectError("{\"renders\": [{\"scene\": \"wave-ball\", \"loopSeconds\": 4}]}", ["\"loopSeconds\" needs \"loop\": true"])
        // A bound given explicitly is a requirement: one no loop of up to 60 s meets is an error.
        expectError(scene + ", \"maxSpeedChange\": 0.01}]}",
                    [":1:69:", "invalid maxSpeedChange 0.01: no loop of up to 60 s keeps every part of wave-ball within it",
                     "(the closest, 58 s, changes frontPhase +0.40%); allow at least 0.40% or give loopSeconds"])
        // A tighter bound gives a longer loop that meets it.
        let tight = try #require(try load(scene + ", \"maxSpeedChange\": 0.5}]}").clips[0].loop)
        #expect(tight.worstSpeedChangePercent <= 0.5 && tight.duration > 4 && tight.maxSpeedChange == 0.5)
        // 0 asks for an exact fit, which the ring has.
        #expect(try load("{\"renders\": [{\"scene\": \"ring\", \"loop\": true, \"maxSpeedChange\": 0}]}").clips[0].frameCount == 60)
    }

    @Test func loopSecondsWinsButMustMeetAGivenBound() throws {
        let scene = "{\"renders\": [{\"scene\": \"wave-ball\", \"loop\": true"
        // loopSeconds alone is taken as it is, however much it retimes (the old 2 s loop).
        let given = try #require(try load(scene + ", \"loopSeconds\": 2}]}").clips[0].loop)
        #expect(given.frames == 120 && given.choice == .given && given.maxSpeedChange == nil && given.worstSpeedChangePercent > 31)
        // With both, loopSeconds sets the length and maxSpeedChange checks it.
        let both = try #require(try load(scene + ", \"loopSeconds\": 4, \"maxSpeedChange\": 1.5}]}").clips[0].loop)
        #expect(both.frames == 240 && both.choice == .given && both.maxSpeedChange == 1.5)
        expectError(scene + ", \"loopSeconds\": 2, \"maxSpeedChange\": 2}]}",
                    [":1:66:", "loopSeconds 2 changes a part's speed by more than maxSpeedChange 2% (backPhase +31.59%)"])
        expectError(scene + ", \"loopSeconds\": 4, \"maxSpeedChange\": 1}]}", ["loopSeconds 4", "maxSpeedChange 1%", "frontPhase -1.30%"])
    }

    /// Where no multiple within the search's reach meets the default bound, the closest is used and
    /// a note says so; it is no error.
    @Test func aMissedDefaultBoundIsANoteNotAnError() throws {
        // A phase period of 62.8 s (longer than the search's reach) over a 6.67 s breathing.
        let job = try load("{\"renders\": [{\"scene\": \"double-wave\", \"parameters\": {\"phaseSpeed\": 0.1}, \"loop\": true}]}")
        let loop = try #require(job.clips[0].loop)
        #expect(loop.choice == .closest && loop.worstSpeedChangePercent > LoopPlan.defaultMaxSpeedChange)
        #expect(loop.closestNote == "no loop of up to 60 s keeps every part's speed within 2%; using the closest, 62.833 s (amplitude -4.51%)")
        #expect(try load("{\"renders\": [{\"scene\": \"wave-ball\", \"loop\": true}]}").clips[0].loop?.closestNote == nil)
        expectError("{\"renders\": [{\"scene\": \"double-wave\", \"parameters\": {\"phaseSpeed\": 0.1}, \"loop\": true, \"maxSpeedChange\": 2}]}",
                    ["invalid maxSpeedChange 2: no loop of up to 60 s keeps every part of double-wave within it"])
    }

    /// The search plans each frame count once and ends, even for a natural loop far below a frame.
    @Test func theSearchEndsForLoopsShorterThanAFrame() throws {
        let plan = try LoopPlan.search(parts: [PeriodicPart("a", period: 1e-7), PeriodicPart("b", period: 3.7e-8)], naturalLoop: 1e-7, fps: 1)
        #expect(plan.duration <= LoopPlan.searchLimit)
    }

    /// The tEXt chunk and the summary line carry the loop as values, for every scene, and say so
    /// when nothing is retimed.
    @Test func loopMetadataCarriesTheValues() throws {
        let job = try load("""
            {"renders": [{"scene": "wave-ball", "loop": true}, {"scene": "progress-ring", "loop": true},
              {"scene": "pull-wave", "loop": true, "loopSeconds": 4}]}
            """)
        let loops = job.clips.map { $0.loop! }
        #expect(BatchRun.loopText(loops[0]) == "seconds=4 frames=240 choice=search maxSpeedChange=2%: amplitude cycles=2 speed=+0.00%, "
                + "frontPhase cycles=4 speed=-1.30%, backPhase cycles=3 speed=-1.30%")
        #expect(BatchRun.loopText(loops[1]) == "seconds=1 frames=60 choice=search maxSpeedChange=2%: no part retimed")
        #expect(BatchRun.loopText(loops[2]) == "seconds=4 frames=240 choice=loopSeconds: breathing cycles=1 speed=+0.00%, phase cycles=2 speed=-17.75%")
        let manifest = Manifest(job: job, shard: .whole, frames: [], artifacts: [])
        let entries = try #require(manifest.loops)
        #expect(entries.map(\.clip) == ["wave-ball@1x", "progress-ring@1x", "pull-wave@1x"])
        #expect(entries[0].seconds == 4 && entries[0].frames == 240 && abs(entries[0].start - 1.656) < 1e-9 && entries[0].choice == "search")
        #expect(entries[0].parts.map(\.part) == ["amplitude", "frontPhase", "backPhase"] && entries[0].parts.map(\.cycles) == [2, 4, 3])
        #expect(abs(entries[0].parts[1].speedChangePercent - (-1.30396)) < 1e-4 && entries[0].parts[1].loopPeriod == 1)
        #expect(entries[1].parts.isEmpty && entries[2].maxSpeedChange == nil && entries[2].choice == "loopSeconds")
        #expect(Manifest(job: try load("{\"renders\": [{\"scene\": \"ring\", \"frames\": 2}]}"), shard: .whole, frames: [], artifacts: []).loops == nil)
    }

    /// The loop check compares every field: a change in any one of them (the colour's green, a
    /// stroke's width, a tick's corner) shows, and an angle a full turn away does not.
    @Test func drawListDifferenceSeesEveryField() throws {
        let list = try LaidOutScene(Scene(try SceneRegistry.model("wave-ball"))).drawList(at: 0.5)
        #expect(maxDifference(list, list) == 0)
        var changed = list
        guard let index = changed.items.firstIndex(where: { $0.primitive is Wave }),
              var wave = changed.items[index].primitive(as: Wave.self) else {
            Issue.record("the wave ball has no wave")
            return
        }
        wave.color.g += 0.25
        changed.items[index] = DrawItem(list.items[index].id, wave)
        #expect(maxDifference(list, changed) > 0.2)
        wave.color.g -= 0.25
        wave.phase += 2 * Float.pi
        changed.items[index] = DrawItem(list.items[index].id, wave)
        #expect(maxDifference(list, changed) < 1e-5)
        changed.items.removeLast()
        #expect(maxDifference(list, changed) == .infinity)
    }

    @Test func progressRampCannotLoop() {
        expectError("{\"renders\": [{\"scene\": \"progress-ring\", \"parameters\": {\"progressEnd\": 1}, \"loop\": true}]}",
                    ["does not repeat"])
    }

    @Test(arguments: [1, 2, 3, 7])
    func shardsPartitionTheJob(count: Int) throws {
        let job = try load("""
            {"renders": [{"scene": "ring", "frames": 10}, {"scene": "activity", "frames": 7,
              "outputs": [{"type": "sheet"}]}, {"scene": "pull-wave", "frames": 5}]}
            """)
        let all = ShardPlan.units(of: job)
        #expect(all.count == 10 + 1 + 5)
        for mode in ShardPlan.Mode.allCases {
            var union: [WorkUnit] = []
            for index in 0..<count {
                union += ShardPlan(index: index, count: count, mode: mode).units(of: job)
            }
            #expect(union.count == all.count)
            #expect(Set(union.map { "\($0.clip):\($0.frames)" }) == Set(all.map { "\($0.clip):\($0.frames)" }))
            // Runs are the same frames in the same order, neighbours merged.
            for index in 0..<count {
                let plan = ShardPlan(index: index, count: count, mode: mode)
                let runs = plan.runs(of: job)
                #expect(runs.flatMap { run in run.frames.map { "\(run.clip):\($0)" } }
                        == plan.units(of: job).flatMap { unit in unit.frames.map { "\(unit.clip):\($0)" } })
                for (a, b) in zip(runs, runs.dropFirst()) {
                    #expect(!(a.clip == b.clip && a.frames.upperBound == b.frames.lowerBound), "\(a) and \(b) should be one run")
                }
                if mode == .contiguous && count == 1 { #expect(runs.map(\.frames.count) == [10, 7, 5]) }
            }
        }
        if count == 2 {
            let first = ShardPlan(index: 0, count: 2, mode: .contiguous).units(of: job)
            #expect(first.map(\.clip) == Array(repeating: 0, count: 10) + [1], "contiguous shards take runs of frames")
        }
    }

    @Test func shardFromClusterEnvironment() throws {
        let slurm = try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8"],
                                                  shards: 8, mode: .contiguous)
        #expect(slurm?.index == 5 && slurm?.count == 8)
        // The count is the job's, stated with --shards: never the array's, which a resubmission changes.
        #expect(throws: ThrobberError.self) {
            try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "8"], shards: nil, mode: .contiguous)
        }
        let kubernetes = try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: 4, mode: .strided)
        #expect(kubernetes?.index == 2 && kubernetes?.count == 4)
        #expect(throws: ThrobberError.self) { try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: nil, mode: .contiguous) }
        #expect(throws: ThrobberError.self) { try ShardPlan.parse("4/4", mode: .contiguous) }
        #expect(try ShardPlan.fromEnvironment([:], shards: nil, mode: .contiguous) == nil)
    }

    /// Issue 17: resubmitting only the failed tasks of a 4-shard Slurm array (`sbatch --array=1,3`)
    /// sets SLURM_ARRAY_TASK_COUNT=2, _MIN=1, _MAX=3. Tasks 1 and 3 must still render shards 1 and
    /// 3 of 4 (the same frames, the same manifests), and `--array=1` alone must not be the whole job.
    @Test(arguments: [
        (ids: [0, 1, 2, 3], min: 0, max: 3),   // the first submission, --array=0-3
        (ids: [1, 3], min: 1, max: 3),         // --array=1,3
        (ids: [1], min: 1, max: 1),            // --array=1
        (ids: [2, 3], min: 2, max: 3),         // --array=2-3
    ])
    func resubmittedSlurmTasksKeepTheirShards(ids: [Int], min: Int, max: Int) throws {
        let job = try load("""
            {"renders": [{"scene": "ring", "frames": 10}, {"scene": "activity", "frames": 7}]}
            """)
        let frames = { (plan: ShardPlan) in plan.units(of: job).flatMap { unit in unit.frames.map { "\(unit.clip):\($0)" } } }
        for id in ids {
            let environment = ["SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_MAX": "\(max)",
                               "SLURM_ARRAY_TASK_COUNT": "\(ids.count)", "SLURM_ARRAY_JOB_ID": "42"]
            let plan = try #require(try ShardPlan.fromEnvironment(environment, shards: 4, mode: .contiguous))
            #expect(plan.index == id && plan.count == 4)
            #expect(frames(plan) == frames(ShardPlan(index: id, count: 4, mode: .contiguous)))
        }
        // An index the job does not have is refused, not folded onto another shard.
        #expect(throws: ThrobberError.self) {
            try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], shards: 4, mode: .contiguous)
        }
    }
}

/// The largest difference between two draw lists, over every field of every item: numbers by
/// their difference (angles modulo 2π, since the draw list reduces them), everything else —
/// counts, integers, bounds, which kind of item — by equality, infinity where it differs.
func maxDifference(_ a: DrawList, _ b: DrawList) -> Float {
    // The draw list keeps angles in [0, 2π): a loop's last-plus-one frame may land either side.
    let angles: Set<String> = ["phase", "start", "maskRotation", "rotation"]
    func difference(_ x: Any, _ y: Any, label: String?) -> Float {
        if let p = x as? Float, let q = y as? Float {
            let d = abs(p - q)
            return label.map(angles.contains) == true ? min(d, abs(d - 2 * Float.pi)) : d
        }
        if let p = x as? Double, let q = y as? Double { return Float(abs(p - q)) }
        if let p = x as? Int, let q = y as? Int { return p == q ? 0 : .infinity }
        let m = Mirror(reflecting: x), n = Mirror(reflecting: y)
        guard m.children.count == n.children.count, m.displayStyle == n.displayStyle else { return .infinity }
        if m.children.isEmpty { return "\(x)" == "\(y)" ? 0 : .infinity }
        var worst: Float = 0
        for (c, d) in zip(m.children, n.children) {
            guard c.label == d.label else { return .infinity }
            worst = max(worst, difference(c.value, d.value, label: c.label ?? label))
        }
        return worst
    }
    return difference(a, b, label: nil)
}
