import Glibc
import Testing
import Throbber
@testable import ThrobberBatch

/// The one retrying wrapper and the one errno type: an interrupted call is made again, any other
/// failure is its `Errno`, and a message words it once, with the code kept.
struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgain() throws {
        var calls = 0
        let result = try SystemCall.retrying { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42 && calls == 3)
    }

    @Test func anotherFailureIsItsErrno() {
        var calls = 0
        #expect(throws: Errno(rawValue: ENOSPC)) {
            try SystemCall.retrying { () -> Int in
                calls += 1
                errno = ENOSPC
                return -1
            }
        }
        #expect(calls == 1, "only EINTR is retried")
    }

    @Test func aFailureIsWordedOnceWithItsCode() {
        let error = ThrobberError("cannot write out/f.png", Errno(rawValue: ENOSPC), kind: .io)
        #expect(error.message == "cannot write out/f.png: No space left on device")
        #expect(error.code == ENOSPC && error.kind == .io)
        #expect(Errno(rawValue: ENOENT).description == "No such file or directory")
    }

    /// A read that fails names the file and the system's reason.
    @Test func aReadOfADirectoryIsRefused() {
        let error = #expect(throws: ThrobberError.self) { try InputFile.read("/", what: "job file") }
        #expect(error?.message == "cannot read job file /: it is a directory")
        let missing = #expect(throws: ThrobberError.self) { try InputFile.read("/nonexistent/\(getpid())", what: "job file") }
        #expect(missing?.message.hasSuffix(": No such file or directory") == true && missing?.code == ENOENT)
    }
}
