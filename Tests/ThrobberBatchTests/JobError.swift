import Foundation
import Throbber
import ThrobberBatch

/// The error reading job file `text` throws (written to a temporary file, outputs under /out),
/// or nil when it reads: what the job-rule tests hold each refusal's line to.
func jobError(_ text: String) -> ThrobberError? {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("job-\(UUID().uuidString).json")
    try? text.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    do {
        _ = try Job.load(path: url.path, baseDirectory: "/out")
        return nil
    } catch {
        return error as? ThrobberError
    }
}
