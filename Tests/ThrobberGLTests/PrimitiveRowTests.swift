import Foundation
import Testing
import Throbber
@testable import ThrobberCPU
@testable import ThrobberGL

/// DESIGN "One row per primitive": every kind of `PrimitiveKinds.all` is a row of files side by
/// side — its value in the core, its coverage twin in ThrobberCPU, its layer and records in
/// ThrobberGL, its GLSL — and every kind defined in the core is listed there.
struct PrimitiveRowTests {
    /// The package's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }

    @Test(arguments: PrimitiveKinds.all.map { $0.kind })
    func everyKindHasItsRow(kind: String) throws {
        let type = try #require(PrimitiveKinds.all.first { $0.kind == kind })
        #expect(PrimitiveRowTests.exists("Sources/Throbber/DrawList/Primitives/\(kind).swift"), "\(kind): no value in the core")
        #expect(PrimitiveRowTests.exists("Sources/ThrobberCPU/Primitives/\(kind)+CPU.swift"), "\(kind): no CPU row")
        #expect(PrimitiveRowTests.exists("Sources/ThrobberGL/Primitives/\(kind)+GL.swift"), "\(kind): no GL row")
        #expect(type is any CPUPrimitive.Type, "\(kind) has no CPU coverage twin (CPUPrimitive)")
        let gl = try #require(type as? any GLPrimitive.Type, "\(kind) has no GL row (GLPrimitive)")
        #expect(PrimitiveRowTests.exists("Shaders/Primitives/\(gl.shaderFile)"), "\(kind): no \(gl.shaderFile) in Shaders/Primitives")
        #expect(ShaderLibrary.embedded.sources[gl.shaderFile] != nil, "\(kind): \(gl.shaderFile) is not built into the binary")
    }

    /// A kind's file in the core that `PrimitiveKinds.all` does not list would be drawn by no one.
    @Test func everyKindInTheCoreIsListed() throws {
        let folder = PrimitiveRowTests.root.appendingPathComponent("Sources/Throbber/DrawList/Primitives")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let kind = String(file.dropLast(".swift".count))
            #expect(PrimitiveKinds.all.contains { $0.kind == kind }, "\(file) defines a kind PrimitiveKinds.all does not list")
        }
        #expect(Set(PrimitiveKinds.all.map { $0.kind }).count == PrimitiveKinds.all.count, "two kinds share a name")
    }

    /// Every GLSL file of Shaders/Primitives belongs to a kind, and boxes.frag's generated
    /// `itemCoverage` has one line per kind with records.
    @Test func everyPrimitiveShaderBelongsToAKind() throws {
        let folder = PrimitiveRowTests.root.appendingPathComponent("Shaders/Primitives")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".glsl") }
        let owned = Set(PrimitiveKinds.all.compactMap { ($0 as? any GLPrimitive.Type)?.shaderFile })
        #expect(Set(files) == owned)
        let source = try GLPrimitiveRows.primitivesSource { ShaderLibrary.embedded.sources[$0]! }
        for (number, row) in GLPrimitiveRows.recordKinds.enumerated() {
            #expect(source.contains("if (kind == \(number)) return \(row.recordCoverage!);"))
        }
    }

    /// The layer shapes the rows name are distinct, with room below the next for their variants.
    @Test func layerShapesDoNotCollide() {
        let shapes = [Disc.shape, Wave.shape, Wave.clippedShape, Arc.shape, Arc.maskedShape, Arc.fullCircleShape,
                      Boxes.singleBoxShape, BoxRing.unrolledShape, BoxRing.colouredShape, BoxRing.loopShape, LayerShape.coverageTexture,
                      Strokes.shape, Strokes.singleShape, RadialGradient.shape]
        let sorted = shapes.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(b - a >= 1 << 16, "shapes \(a) and \(b) overlap") }
        #expect(sorted.first! > 0, "shapes must not meet LayerPlan's negative markers")
    }
}
