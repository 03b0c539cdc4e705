import Foundation
import Testing
import Throbber
@testable import ThrobberSceneFile

/// Every scene-file node kind is a row held together as `PrimitiveRowTests` holds the renderers':
/// its file in Nodes/, its line in `NodeKinds.all`, its entry in docs/schemas/scene.schema.json
/// (the same keys and required keys the reader takes) and its row in docs/scene-files.md §8.
struct NodeKindTests {
    /// The package's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The schema's `$defs`, by name.
    static func schemaDefinitions() throws -> [String: JSONNode] {
        let schema = try JSONNode.parse(try read("docs/schemas/scene.schema.json"))
        guard let defs = members(schema)["$defs"] else { Issue.record("no $defs"); return [:] }
        return members(defs)
    }

    static func members(_ node: JSONNode) -> [String: JSONNode] {
        guard case .object(let list) = node.value else { return [:] }
        return Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    static func strings(_ node: JSONNode?) -> [String] {
        guard case .array(let items)? = node?.value else { return [] }
        return items.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
    }

    @Test(arguments: NodeKinds.types)
    func everyKindHasItsRow(type: String) throws {
        let kind = try #require(NodeKinds.kind(type))
        let name = String(describing: kind)
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/ThrobberSceneFile/Nodes/\(name).swift").path),
                "\(type): no Nodes/\(name).swift")
        #expect(Set(kind.requiredKeys).isSubset(of: Set(kind.keys)), "\(type): a required key it does not take")
        #expect(Set(kind.keys).isDisjoint(with: NodeInfo.commonKeys), "\(type): a key every node has")
        #expect(Set(kind.keys).count == kind.keys.count, "\(type): a key listed twice")
        // The docs' table of kinds has a row for it.
        #expect(try Self.read("docs/scene-files.md").contains("| `\(type)` |"), "\(type): no row in docs/scene-files.md §8")
    }

    /// The schema's node entry for each kind takes exactly the keys the reader takes and
    /// requires exactly what it requires; its list of types is the reader's.
    @Test(arguments: NodeKinds.types)
    func theSchemaTakesTheReadersKeys(type: String) throws {
        let kind = try #require(NodeKinds.kind(type))
        let defs = try Self.schemaDefinitions()
        let entry = try #require(defs[type], "the schema has no $defs/\(type)")
        let properties = Self.members(try #require(Self.members(entry)["properties"], "\(type): no properties"))
        #expect(Set(properties.keys) == Set(NodeInfo.commonKeys + kind.keys),
                "\(type): the schema takes \(properties.keys.sorted()), the reader \((NodeInfo.commonKeys + kind.keys).sorted())")
        #expect(Set(Self.strings(Self.members(entry)["required"])) == Set(["type"] + kind.requiredKeys),
                "\(type): the schema requires \(Self.strings(Self.members(entry)["required"]).sorted()), the reader \((["type"] + kind.requiredKeys).sorted())")
        if case .string(let constant)? = properties["type"].flatMap({ Self.members($0)["const"] })?.value {
            #expect(constant == type)
        } else {
            Issue.record("\(type): its schema entry does not fix its type")
        }
        if case .bool(let extra)? = Self.members(entry)["additionalProperties"]?.value {
            #expect(!extra, "\(type): the schema takes keys the reader refuses")
        } else {
            Issue.record("\(type): the schema does not refuse other keys")
        }
    }

    /// Each object field of a kind (an arc's `trim`, a group's `transform`, a text's
    /// `{"parameter"}`) takes in the schema exactly the keys the reader holds it to.
    @Test(arguments: NodeKinds.types)
    func theSchemaTakesTheReadersKeysInsideObjects(type: String) throws {
        let kind = try #require(NodeKinds.kind(type))
        let defs = try Self.schemaDefinitions()
        let properties = Self.members(try #require(defs[type].flatMap { Self.members($0)["properties"] }))
        for (key, declared) in kind.objectKeys {
            let field = try #require(properties[key], "\(type).\(key): not in the schema")
            let object = try #require(Self.objectSchema(field, defs: defs), "\(type).\(key): the schema gives it no object form")
            let keys = Self.members(try #require(Self.members(object)["properties"])).keys
            #expect(Set(keys) == Set(declared.keys), "\(type).\(key): the schema takes \(keys.sorted()), the reader \(declared.keys.sorted())")
            #expect(Set(Self.strings(Self.members(object)["required"])) == Set(declared.required),
                    "\(type).\(key): the schema requires \(Self.strings(Self.members(object)["required"]).sorted()), the reader \(declared.required.sorted())")
            if case .bool(let extra)? = Self.members(object)["additionalProperties"]?.value {
                #expect(!extra, "\(type).\(key): the schema takes keys the reader refuses")
            } else {
                Issue.record("\(type).\(key): the schema does not refuse other keys")
            }
        }
    }

    /// The object form of a property's schema: itself, what its `$ref` names, or its object alternative.
    static func objectSchema(_ node: JSONNode, defs: [String: JSONNode]) -> JSONNode? {
        let m = members(node)
        if case .string(let ref)? = m["$ref"]?.value, ref.hasPrefix("#/$defs/") {
            return defs[String(ref.dropFirst("#/$defs/".count))].flatMap { objectSchema($0, defs: defs) }
        }
        if case .string("object")? = m["type"]?.value { return node }
        for alternatives in ["oneOf", "anyOf"] {
            if case .array(let items)? = m[alternatives]?.value {
                for item in items { if let object = objectSchema(item, defs: defs) { return object } }
            }
        }
        return nil
    }

    @Test func theSchemasNodeListsEveryKindOnce() throws {
        let node = try #require(try Self.schemaDefinitions()["node"])
        let type = Self.members(try #require(Self.members(node)["properties"]))["type"]
        #expect(Self.strings(type.flatMap { Self.members($0)["enum"] }) == NodeKinds.types)
    }

    /// A file in Nodes/ that `NodeKinds.all` does not list would be read by no one.
    @Test func everyNodeFileIsListed() throws {
        let folder = Self.root.appendingPathComponent("Sources/ThrobberSceneFile/Nodes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let listed = Set(NodeKinds.all.map { "\(String(describing: $0)).swift" })
        for file in files where !["SceneNode.swift", "NodeKinds.swift"].contains(file) {
            #expect(listed.contains(file), "\(file) is in Nodes/ but NodeKinds.all does not list it")
        }
        #expect(Set(NodeKinds.types).count == NodeKinds.all.count, "two kinds share a type")
    }

    /// Each kind refuses a key it does not take, naming it, and names each key it requires when
    /// that key is missing: the reader holds every kind to its declared keys.
    @Test(arguments: NodeKinds.types)
    func theReaderHoldsEachKindToItsKeys(type: String) throws {
        let kind = try #require(NodeKinds.kind(type))
        func file(_ node: String) -> String {
            #"{ "format": "throbber-scene/1", "id": "k", "canvas": { "width": 10, "height": 10 }, "content": [ \#(node) ] }"#
        }
        do {
            _ = try FileScene(text: file(#"{ "type": "\#(type)", "bogusKey": 1 }"#), path: "k.scene.json")
            Issue.record("\(type): a node with an unknown key was read")
        } catch let error as ThrobberError {
            #expect(error.kind == .badData)
            #expect(error.message.contains("bogusKey"), "\(type): \(error.message)")
        }
        if let first = kind.requiredKeys.first {
            do {
                _ = try FileScene(text: file(#"{ "type": "\#(type)" }"#), path: "k.scene.json")
                Issue.record("\(type): a node without its required keys was read")
            } catch let error as ThrobberError {
                #expect(error.message.contains(first), "\(type): \(error.message)")
            }
        }
    }
}
