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

    @Test func aBadParameterIsUsage() {
        let error = #expect(throws: ThrobberError.self) {
            try Scene(SceneRegistry.model("wave-ball")).setting("progress", to: "2")
        }
        #expect(error?.kind == .usage)
        #expect(error?.code == nil)
    }
}
