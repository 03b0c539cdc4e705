import Foundation
import Glibc
import Testing
import Throbber
import ThrobberBatch

/// Library errors carry a kind a caller can switch on, the system's code where there is one, and
/// the remedy as a value, not as command-line words.
struct ErrorKindTests {
    @Test func aMissingInputCarriesItsErrno() {
        let path = "/nonexistent-\(getpid())/job.json"
        let error = #expect(throws: ThrobberError.self) { try InputFile.read(path, what: "job file") }
        #expect(error?.kind == .missingInput)
        #expect(error?.code == ENOENT)
        #expect(error?.remedy == nil)
    }

    @Test func anExistingOutputNamesTheRemedyNotTheFlag() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-kinds-\(getpid())")
        try AtomicFile.prepareDirectory(directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.png").path
        try AtomicFile.write(Data([1]), toPath: file, overwrite: false)
        let error = #expect(throws: ThrobberError.self) { try AtomicFile.write(Data([2]), toPath: file, overwrite: false) }
        #expect(error?.kind == .cannotCreate)
        #expect(error?.remedy == .overwrite)
        #expect(error.map { !$0.message.contains("--") } == true, "a library message names no flag: \(error?.message ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([1]))
    }

    /// The libraries' refusals name settings as a library caller spells them, or the remedy as a
    /// value; only the command line (given the field's spelling, or wording the remedy) says flags.
    @Test func libraryMessagesNameNoFlag() throws {
        var errors: [ThrobberError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as ThrobberError { errors.append(error) } catch { Issue.record("\(error)") }
        }
        collect { _ = try ShardPlan.parse("4/4", mode: .contiguous) }
        collect { _ = try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5"], shards: nil, mode: .contiguous) }
        collect { _ = try ShardPlan.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5"], shards: 4, mode: .contiguous) }
        collect { _ = try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: nil, mode: .contiguous) }
        collect { _ = try ShardPlan.fromEnvironment(["JOB_COMPLETION_INDEX": "7"], shards: 4, mode: .contiguous) }
        collect { try ContactSheet.checkSize(frames: 400, frameWidth: 4096, frameHeight: 4096, columns: 20) }
        #expect(errors.count == 6)
        for error in errors {
            #expect(!error.message.contains("--"), "a library message names a flag: \(error.message)")
        }
        #expect(errors[0].message.hasPrefix("invalid shard '4/4'"), "\(errors[0].message)")
        #expect(errors.last?.remedy == .smallerContactSheet)
        // The command line's spelling, given, is the one named.
        let spelled = #expect(throws: ThrobberError.self) { try ShardPlan.parse("4/4", mode: .contiguous, field: "--shard") }
        #expect(spelled?.message.hasPrefix("invalid --shard '4/4'") == true)
    }

    /// Something at the lock path that is not a run's lock is refused with the remedy as a value.
    @Test func aForeignLockFileNamesTheRemedy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-lock-\(getpid())-\(UUID().uuidString)")
        try AtomicFile.prepareDirectory(directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = directory.appendingPathComponent("m.json.lock").path
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: "/nonexistent")
        let error = #expect(throws: ThrobberError.self) { try RunLock(path: lock) }
        #expect(error?.kind == .cannotCreate && error?.remedy == .moveManifest)
        #expect(error.map { !$0.message.contains("--") } == true, "\(error?.message ?? "")")
    }

    @Test func aBadParameterIsUsage() {
        let error = #expect(throws: ThrobberError.self) {
            try Scene(SceneRegistry.model("wave-ball")).setting("progress", to: "2")
        }
        #expect(error?.kind == .usage)
        #expect(error?.code == nil)
    }
}
