import Foundation
import Testing

/// Package.swift declares, for every Swift target, exactly the package modules its sources
/// import (DESIGN "Modules": the layout reads as the data flow). A module imported and not
/// declared builds only by luck of the build order; one declared and never imported is an edge
/// of the graph that is not there.
struct TargetDependencyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyTargetDeclaresTheModulesItImports() throws {
        let manifest = try PackageManifest(root: TargetDependencyTests.root)
        // The scan found the package: its libraries and their imports.
        let gl = try #require(manifest.targets.first { $0.name == "ThrobberGL" })
        #expect(gl.imported.isSuperset(of: ["Throbber", "CGL", "COSMesa", "CEGL"]), "\(gl.imported)")
        #expect(manifest.mismatches.isEmpty, "\(manifest.mismatches.joined(separator: "\n"))")
    }

    /// The rule on a made-up package: both kinds of mismatch are found, a test's executable is
    /// a tool it runs, and targets without Swift sources (C, system libraries) are not judged.
    @Test func mismatchesNameTheTargetAndTheModule() {
        typealias Target = PackageManifest.Target
        let manifest = PackageManifest(targets: [
            Target(name: "Core", kind: "regular", declared: [], imported: [], hasSwiftSources: true),
            Target(name: "CThing", kind: "system", declared: [], imported: [], hasSwiftSources: false),
            Target(name: "CCode", kind: "regular", declared: ["CThing"], imported: [], hasSwiftSources: false),
            Target(name: "Render", kind: "regular", declared: ["Core", "CThing"], imported: ["Core", "Batch"], hasSwiftSources: true),
            Target(name: "tool", kind: "executable", declared: ["Render"], imported: ["Render"], hasSwiftSources: true),
            Target(name: "ToolTests", kind: "test", declared: ["tool", "Core"], imported: ["Core"], hasSwiftSources: true),
            Target(name: "Lib", kind: "regular", declared: ["tool"], imported: [], hasSwiftSources: true),
        ])
        #expect(manifest.mismatches == [
            "Render: imports Batch without declaring it",
            "Render: declares CThing and never imports it",
            "Lib: declares tool and never imports it",
        ])
    }

    @Test func importsAreReadWithTheirAttributesAndKinds() {
        // Lines joined here, so that this file itself holds no import inside a string literal.
        let source = [
            "import Foundation",
            "@preconcurrency import CGL",
            "  @testable import ThrobberGL",
            "import struct Throbber.Image",
            "import func ThrobberCPU.render",
            "// import NotThis",
            "let text = \"import NorThis\"",
            "let block = \"\"\"",
            "    import NorThisInAString",
            "    \"\"\"",
            "importer()",
        ].joined(separator: "\n")
        #expect(PackageManifest.imports(in: source) == ["Foundation", "CGL", "ThrobberGL", "Throbber", "ThrobberCPU"])
    }
}
