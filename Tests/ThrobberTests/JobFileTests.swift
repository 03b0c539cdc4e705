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
            guard case .png(_, let encoder, let level) = job.clips[0].outputs[output] else { return nil }
            return (encoder, level)
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
        expectError("{\"pngEncoder\": \"libdeflat\", \(scene)}]}", [":1:16:", "unknown pngEncoder \"libdeflat\"; did you mean \"libdeflate\"? (known: auto, libpng, libdeflate, isal, fast, small)"])
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
        expectError("{\"renders\": [{\"scene\": \"ring\", \"outputs\": [{\"type\": \"video\", \"path\": \"x.avi\"}]}]}", [".gif, .webp, .apng or .mp4"])
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
        guard case .png(let pattern, let encoder, let level) = job.clips[1].outputs[0] else {
            Issue.record("default output is not PNG")
            return
        }
        #expect(pattern.path(name: "activity", scene: "activity", scale: 2, frame: 7) == "/out/activity@2x_00007.png")
        #expect(encoder == "auto" && level == 1)
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
        ("ring", "", 60), ("activity", "", 60), ("pull-wave", "", 240), ("wave-ball", ", \"loopSeconds\": 4", 240),
        ("double-wave", ", \"loopSeconds\": 6.666666666666667", 400), ("progress-ring", "", 60),
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

    /// The loop check compares every field: a change in any one of them (the colour's green, a
    /// stroke's width, a tick's corner) shows, and an angle a full turn away does not.
    @Test func drawListDifferenceSeesEveryField() throws {
        let list = Scene(try SceneRegistry.model("wave-ball")).drawList(at: 0.5)
        #expect(maxDifference(list, list) == 0)
        var changed = list
        guard case .wave(var wave) = changed.items.first(where: { if case .wave = $0 { true } else { false } }),
              let index = changed.items.firstIndex(where: { if case .wave = $0 { true } else { false } }) else {
            Issue.record("the wave ball has no wave")
            return
        }
        wave.color.g += 0.25
        changed.items[index] = .wave(wave)
        #expect(maxDifference(list, changed) > 0.2)
        wave.color.g -= 0.25
        wave.phase += 2 * Float.pi
        changed.items[index] = .wave(wave)
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
        let slurm = try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"],
                                                  shards: nil, mode: .contiguous)
        #expect(slurm?.index == 4 && slurm?.count == 8)
        let kubernetes = try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: 4, mode: .strided)
        #expect(kubernetes?.index == 2 && kubernetes?.count == 4)
        #expect(throws: ThrobberError.self) { try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: nil, mode: .contiguous) }
        #expect(throws: ThrobberError.self) { try ShardPlan.parse("4/4", mode: .contiguous) }
        #expect(try ShardPlan.fromEnvironment([:], shards: nil, mode: .contiguous) == nil)
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
