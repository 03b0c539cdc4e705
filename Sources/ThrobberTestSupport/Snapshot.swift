import Foundation
import Testing

/// Compares `text` with the snapshot file `directory/NAME.txt`, line by line.
///
/// In record mode (`THROBBER_RECORD=1`, see ``RecordMode``) the file is written and the test
/// fails; otherwise a missing file fails, and so does any difference, reported as the first
/// line that differs with both versions of it.
///
/// - Parameters:
///   - text: what the test observed.
///   - name: the snapshot's file name without `.txt`.
///   - directory: the folder of snapshots, beside the test file (found through `#filePath`).
public func assertSnapshot(_ text: String, named name: String, in directory: URL,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = directory.appendingPathComponent("\(name).txt")
    if RecordMode.isOn {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        Issue.record(Comment(rawValue: RecordMode.rerecorded(url)), sourceLocation: sourceLocation)
        return
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record(Comment(rawValue: RecordMode.missing(url)), sourceLocation: sourceLocation)
        return
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard expected != text else { return }
    let old = expected.components(separatedBy: "\n"), new = text.components(separatedBy: "\n")
    let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
    let before = line < old.count ? old[line] : "(end of snapshot)"
    let after = line < new.count ? new[line] : "(end of output)"
    Issue.record(Comment(rawValue: "\(name): line \(line + 1) differs from \(url.lastPathComponent)\n  snapshot: \(before)\n  observed: \(after)\n"
                         + "re-record with THROBBER_RECORD=1 if the change is intended"),
                 sourceLocation: sourceLocation)
}
