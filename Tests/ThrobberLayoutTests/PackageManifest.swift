import Foundation

/// The targets of Package.swift as SwiftPM reads them (`swift package dump-package`), with the
/// package modules each one's Swift sources import.
struct PackageManifest {
    /// One target: its kind (`regular`, `executable`, `test`, `system`, `plugin`…), the targets
    /// it declares as dependencies, and the package modules its sources import (empty for a
    /// target without Swift sources).
    struct Target {
        var name: String
        var kind: String
        var declared: Set<String>
        var imported: Set<String>
        var hasSwiftSources: Bool
    }

    var targets: [Target]

    /// Reads the manifest of the package at `root` and scans its targets' Swift sources.
    ///
    /// The manifest is evaluated with a scratch directory of its own, so that the `.build` lock
    /// the running `swift test` may hold never makes it wait.
    ///
    /// - Throws: when `swift package dump-package` fails or its JSON is not as expected.
    init(root: URL) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("throbber-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ManifestError("swift package dump-package exited \(process.terminationStatus): \(message)")
        }
        guard let package = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let targets = package["targets"] as? [[String: Any]] else {
            throw ManifestError("dump-package printed no targets")
        }
        let names = Set(targets.compactMap { $0["name"] as? String })
        self.targets = try targets.map { target in
            guard let name = target["name"] as? String, let kind = target["type"] as? String else {
                throw ManifestError("a target without a name or type: \(target)")
            }
            // byName, target or product: [name, condition].
            let declared = (target["dependencies"] as? [[String: [Any]]] ?? []).compactMap { $0.values.first?.first as? String }
            let directory = root.appendingPathComponent(target["path"] as? String ?? (kind == "test" ? "Tests/" : "Sources/") + name)
            let excluded = (target["exclude"] as? [String] ?? []).map { directory.appendingPathComponent($0).standardizedFileURL.path }
            let files = PackageManifest.swiftFiles(in: directory).filter { file in
                !excluded.contains { file.standardizedFileURL.path.hasPrefix($0) }
            }
            let imported = try files.reduce(into: Set<String>()) { modules, file in
                modules.formUnion(PackageManifest.imports(in: try String(contentsOf: file, encoding: .utf8)))
            }
            return Target(name: name, kind: kind, declared: Set(declared), imported: imported.intersection(names),
                          hasSwiftSources: !files.isEmpty)
        }
    }

    init(targets: [Target]) {
        self.targets = targets
    }

    /// The modules `source` imports: `import X`, `@testable import X`, `import struct X.Y`, …,
    /// but not lines of a multi-line string literal.
    static func imports(in source: String) -> Set<String> {
        var modules = Set<String>()
        var inString = false
        for line in source.split(whereSeparator: \.isNewline) {
            if line.contains("\"\"\"") {
                if line.ranges(of: "\"\"\"").count % 2 == 1 { inString.toggle() }
                continue
            }
            if inString { continue }
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            words = words.dropFirst()
            if ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"].contains(words.first!), words.count >= 2 {
                words = words.dropFirst()
            }
            if let module = words.first?.split(separator: ".").first { modules.insert(String(module)) }
        }
        return modules
    }

    private static func swiftFiles(in directory: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// Each Swift target whose declared dependencies are not the package modules it imports,
    /// as `TARGET: imports X without declaring it` or `TARGET: declares Y and never imports it`.
    /// A test target may declare an executable target it runs without importing it.
    var mismatches: [String] {
        let executables = Set(targets.filter { $0.kind == "executable" }.map(\.name))
        return targets.filter { $0.hasSwiftSources && $0.kind != "plugin" }.flatMap { target -> [String] in
            let tools = target.kind == "test" ? executables : []
            let undeclared = target.imported.subtracting(target.declared).sorted()
            let unused = target.declared.subtracting(target.imported).subtracting(tools).sorted()
            return undeclared.map { "\(target.name): imports \($0) without declaring it" }
                + unused.map { "\(target.name): declares \($0) and never imports it" }
        }
    }
}

struct ManifestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
