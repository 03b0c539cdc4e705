import Foundation
import Throbber

/// Raw RGBA or Y4M frames appended to a file or standard output.
final class RawStreamSink: OrderedSink {
    let file: StreamFile
    let clip: Clip
    let type: String
    let encode: (Image) -> [UInt8]

    init(file: StreamFile, clip: Clip, type: String, encode: @escaping (Image) -> [UInt8]) {
        self.file = file
        self.clip = clip
        self.type = type
        self.encode = encode
    }

    func add(_ image: Image, index: Int) throws { try file.write(encode(image)) }

    func finish(overwrite: Bool) throws -> [Manifest.Artifact] {
        let digest = try file.commit(overwrite: overwrite)
        return file.path == "-" ? [] : [Manifest.Artifact(clip: clip.label, type: type, file: file.path, sha256: digest)]
    }

    func abort() { file.abort() }
}
