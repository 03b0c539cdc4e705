import Testing
@testable import ThrobberGL

/// The GL function table (CGL): a platform that lacks a required entry point fails to load and
/// the error names it; one that lacks an optional entry point (sync objects) loads without it.
/// No context is needed: every name resolves to an address that is never called.
struct GLFunctionsTests {
    /// Loads the table with every entry point present but those in `missing`.
    ///
    /// - Returns: the table or the missing function, and the names asked for, in order.
    private func load(missing: Set<String> = []) -> (table: Result<GLFunctions, GLFunctions.Missing>, asked: [String]) {
        var asked: [String] = []
        let table = Result { () throws(GLFunctions.Missing) -> GLFunctions in
            try GLFunctions { name in
                asked.append(name)
                return missing.contains(name) ? nil : UnsafeMutableRawPointer(bitPattern: 0x1000)
            }
        }
        return (table, asked)
    }

    static let optional: Set = ["glFenceSync", "glClientWaitSync", "glDeleteSync"]

    @Test func asksForEachFunctionOnce() throws {
        let (table, asked) = load()
        let gl = try table.get()
        #expect(gl.FenceSync != nil && gl.ClientWaitSync != nil && gl.DeleteSync != nil)
        #expect(Set(asked).count == asked.count, "\(asked)")
        // The entries Throbber calls: 56 required (glTexSubImage2D for the image texture), 3 optional.
        #expect(asked.count == 59, "\(asked)")
        #expect(GLFunctionsTests.optional.isSubset(of: asked))
    }

    @Test func aMissingRequiredFunctionIsNamed() {
        let required = load().asked.filter { !GLFunctionsTests.optional.contains($0) }
        #expect(required.count == 56)
        for name in required {
            switch load(missing: [name]).table {
            case .success: Issue.record("loaded without \(name)")
            case .failure(let error): #expect(error.name == name)
            }
        }
    }

    /// The sync objects come together: any one missing, none is used.
    @Test(arguments: ["glFenceSync", "glClientWaitSync", "glDeleteSync"])
    func aMissingSyncFunctionDropsTheGroup(_ name: String) throws {
        let gl = try load(missing: [name]).table.get()
        #expect(gl.FenceSync == nil && gl.ClientWaitSync == nil && gl.DeleteSync == nil)
    }
}
