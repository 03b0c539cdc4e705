import Foundation
import Throbber

/// Where the GLSL comes from: the copy compiled into the binary from `Shaders/`, or a directory
/// on disk (`--shader-dir`) for shader work without rebuilding.
public struct ShaderLibrary: Sendable {
    /// Shader file name → source text.
    let sources: [String: String]
    /// Where the sources came from, for messages.
    public let origin: String

    /// The shaders compiled into this binary.
    public static var embedded: ShaderLibrary {
        ShaderLibrary(sources: EmbeddedShaders.sources, origin: "embedded")
    }

    init(sources: [String: String], origin: String) {
        self.sources = sources
        self.origin = origin
    }

    /// Loads every `.vert`, `.frag` and `.glsl` file of `directory`.
    ///
    /// - Parameter field: how the caller names the directory in messages (the command line: its flag).
    /// - Throws: a usage error when the directory cannot be read or lacks a shader Throbber needs.
    public init(directory: URL, field: String = "shader directory") throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ThrobberError.invalid(field, directory.path, allowed: "a readable directory of shaders")
        }
        var sources: [String: String] = [:]
        for name in names where [".vert", ".frag", ".glsl"].contains(where: name.hasSuffix) {
            let url = directory.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ThrobberError("cannot read shader \(url.path)", kind: .missingInput)
            }
            sources[name] = text
        }
        for required in EmbeddedShaders.sources.keys where sources[required] == nil {
            throw ThrobberError.invalid(field, directory.path,
                                        allowed: "a directory holding every shader of Shaders/ (missing \(required))")
        }
        self.init(sources: sources, origin: directory.path)
    }

    /// The source of `name` with `#include "file"` lines expanded.
    ///
    /// `#line` directives keep the driver's line numbers true: source string 0 is the file
    /// itself, 1 the included file.
    func source(_ name: String) throws -> String {
        guard let text = sources[name] else {
            throw ThrobberError("shader \(name) is missing from \(origin)", kind: .backendFailure)
        }
        var output: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#include") else {
                output.append(String(line))
                continue
            }
            let included = trimmed.dropFirst("#include".count).trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            guard let body = sources[included] else {
                throw ThrobberError("shader \(name) line \(index + 1) includes \(included), which \(origin) lacks",
                                    kind: .backendFailure)
            }
            output.append("#line 1 1")
            output.append(body)
            output.append("#line \(index + 2) 0")
        }
        return output.joined(separator: "\n")
    }
}
