import Foundation
import Throbber
import ThrobberInput

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

    /// Loads every `.vert`, `.frag` and `.glsl` file of `directory` and of its `Primitives/`.
    ///
    /// - Parameter field: how the caller names the directory in messages (the command line: its flag).
    /// - Throws: a usage error when the directory cannot be read or lacks a shader Throbber needs.
    public init(directory: URL, field: String = "shader directory") throws {
        var sources: [String: String] = [:]
        for folder in [directory, directory.appendingPathComponent("Primitives")] {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            } catch {
                if folder != directory { continue }
                throw ThrobberError.invalid(field, directory.path, allowed: "a readable directory of shaders")
            }
            for name in names where [".vert", ".frag", ".glsl"].contains(where: name.hasSuffix) {
                let url = folder.appendingPathComponent(name)
                // By the rule every input is read by: a FIFO or device named like a shader is
                // refused, not waited on or read without end.
                let bytes = try InputRule.read(url.path, as: InputKind("shader", limit: 1 << 20), origin: .commandLine, field: field)
                guard let text = String(validating: bytes, as: UTF8.self), !text.isEmpty else {
                    throw ThrobberError.invalid(field, url.path, allowed: "shaders in UTF-8 text, none of them empty")
                }
                sources[name] = text
            }
        }
        for required in EmbeddedShaders.sources.keys where sources[required] == nil {
            throw ThrobberError.invalid(field, directory.path,
                                        allowed: "a directory holding every shader of Shaders/ and Shaders/Primitives/ (missing \(required))")
        }
        self.init(sources: sources, origin: directory.path)
    }

    /// The files no directory holds, made from the Swift side: the core's constants
    /// (`Antialiasing`) and every primitive's GLSL with boxes.frag's `itemCoverage`
    /// (`GLPrimitiveRows`).
    private func generated(_ name: String) throws -> String? {
        switch name {
        case "constants.glsl":
            return """
                // The core's constants (Throbber's Antialiasing), written by ShaderLibrary.
                #define ANTIALIAS_REACH \(Antialiasing.reach)
                #define BOX_QUAD_GROWTH \(Antialiasing.boxQuadGrowth)
                """
        case "primitives.glsl":
            return try GLPrimitiveRows.primitivesSource { file in
                guard let text = sources[file] else {
                    throw ThrobberError("primitive shader \(file) is missing from \(origin)", kind: .backendFailure)
                }
                return text
            }
        default:
            return nil
        }
    }

    /// The source of `name` with `#include "file"` lines expanded, the included files' own
    /// includes too (each file once).
    ///
    /// `#line` directives keep the driver's line numbers true: source string 0 is the file
    /// itself, 1 an included file.
    func source(_ name: String) throws -> String {
        var included: Set<String> = []
        return try expand(name, from: nil, included: &included)
    }

    private func expand(_ name: String, from parent: (file: String, line: Int)?, included: inout Set<String>) throws -> String {
        guard let text = try sources[name] ?? generated(name) else {
            if let parent {
                throw ThrobberError("shader \(parent.file) line \(parent.line) includes \(name), which \(origin) lacks",
                                    kind: .backendFailure)
            }
            throw ThrobberError("shader \(name) is missing from \(origin)", kind: .backendFailure)
        }
        var output: [String] = []
        let source = parent == nil ? 0 : 1
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#include") else {
                output.append(String(line))
                continue
            }
            let file = trimmed.dropFirst("#include".count).trimmingCharacters(in: CharacterSet(charactersIn: " \""))
            guard included.insert(file).inserted else { continue }
            output.append("#line 1 1")
            output.append(try expand(file, from: (name, index + 1), included: &included))
            output.append("#line \(index + 2) \(source)")
        }
        return output.joined(separator: "\n")
    }
}
