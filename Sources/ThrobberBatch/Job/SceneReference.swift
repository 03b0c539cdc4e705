import Foundation
import Throbber
import ThrobberSceneFile
import ThrobberLottie
import ThrobberInput
import ThrobberText

/// What a `SCENE` argument or a job's `"scene"` names: a built-in scene's id, or a file — a name
/// with a `/` or ending in `.json` or `.lottie`, read here, relative to `directory` when it is not
/// absolute. A file is what its content says: a Lottie file (docs/lottie.md, at most
/// `LottieLimits.largestJSON` bytes) or a scene file (docs/scene-files.md, at most
/// `SceneFileReader.largestFile` bytes), whatever its name.
public enum SceneReference {
    /// Whether `reference` names a file rather than a built-in scene.
    public static func isFile(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasSuffix(".json") || reference.hasSuffix(".lottie")
    }

    /// The model `reference` names, at its defaults.
    ///
    /// - Parameters:
    ///   - reference: a scene id or a scene file's path.
    ///   - directory: what a relative path is relative to (a job file's directory); nil for the
    ///     working directory.
    ///   - origin: where the reference came from. A scene file named on the command line may be a
    ///     pipe (`render <(…)`); one a job file or a PNG's tEXt names must be a regular file.
    /// - Throws: a usage error for an unknown id; `.missingInput` for a file that cannot be read;
    ///   `.badData` (`FILE:LINE:COLUMN: …`) for a file that is not a valid scene; as
    ///   `InputRule.read` for a path that names no regular file.
    public static func model(_ reference: String, relativeTo directory: URL? = nil,
                             origin: InputRule.Origin = .commandLine) throws -> any SceneModel {
        guard isFile(reference) else { return try SceneRegistry.model(reference) }
        let path = reference.hasPrefix("/") || directory == nil
            ? reference : directory!.appendingPathComponent(reference).path
        let bytes = try InputFile.read(path, what: "scene file", limit: max(SceneFileReader.largestFile, LottieLimits.largestArchive),
                                       streams: origin == .commandLine, origin: origin)
        if DotLottieArchive.isArchive(bytes) {
            return try LottieScene(archive: bytes, path: path)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ThrobberError("\(ThrobberError.shownPath(path)): a scene file is UTF-8 text", kind: .badData)
        }
        if LottieReader.looksLikeLottie(text.utf8[...]) {
            let scene = try LottieScene(text: text, path: path)
            return scene
        }
        let scene = try FileScene(text: text, path: path)
        try checkText(of: scene)
        return scene
    }

    /// Refuses, as the file's bad data at the node, a text node whose content at the file's
    /// values has a character no font draws: found when the file is read, so `scenes` refuses
    /// the file as `render` does, and the line points at the node. Without HarfBuzz nothing is
    /// checked here (a render says which package it needs).
    static func checkText(of scene: FileScene) throws {
        let nodes = scene.textNodes
        guard !nodes.isEmpty, let shaper = try? TextShaper() else { return }
        for node in nodes {
            do {
                try shaper.checkCharacters(node.content, role: node.role)
            } catch let error as ThrobberError where error.kind == .usage {
                throw ThrobberError("\(node.place): text node '\(ThrobberError.echoed(node.id))': \(error.message)", kind: .badData)
            }
        }
    }
}
