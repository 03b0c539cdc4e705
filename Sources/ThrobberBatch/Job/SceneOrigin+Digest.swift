import Foundation
import Throbber
import ThrobberDigest

extension SceneOrigin {
    /// The SHA-256 of the file's bytes, lower-case hex: what a frame's `Throbber:sceneDigest`,
    /// a manifest and `scenes --json` record, and `reproduce` compares.
    public var digest: String { SHA256.hex(bytes.map { Data($0) } ?? Data(text.utf8)) }
}
