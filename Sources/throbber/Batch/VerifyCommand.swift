import Foundation
import Throbber
import ThrobberBatch

/// `throbber verify`: the manifests of a job's shards, together, complete and intact.
enum VerifyCommand: Subcommand {
    static var help: String { """
        USAGE: throbber verify MANIFEST.json... [options]

        Checks that the manifests written by `throbber batch` (one per shard) belong to one job,
        that every shard is there once, that together they list every frame and artifact the job
        plans, each exactly once, and that every file is intact: each file has the SHA-256 the
        manifest records for its bytes (a frame listed by an earlier version, with only the
        SHA-256 of its pixels, decodes to pixels with that digest). A damaged frame is named by
        what is wrong: missing, not a readable PNG, the wrong size, or other bytes. Exit 0 when
        all holds, 1 when anything is missing or damaged.

        OPTIONS:
        \(OptionSpec.helpTable([quick, OptionSpec.helpFlag]))
        """ }

    static let quick = OptionSpec("--quick", help: "check presence only, not the hashes")

    static let options = [quick]

    static func execute(_ arguments: ParsedArguments) throws {
        let quick = arguments.has(Self.quick)
        let result = try ManifestVerification(manifests: arguments.positionals, checkHashes: !quick)
        let shards = "\(result.manifestCount) manifest\(result.manifestCount == 1 ? "" : "s") (\(result.shardCount) shard\(result.shardCount == 1 ? "" : "s"))"
        if result.isIntact {
            // A packed sheet's pages are known once drawn: the plan is then a range.
            let planned = result.artifactsPlanned == result.artifactsPlannedUpTo ? "\(result.artifactsPlanned)"
                : "\(result.artifactsPlanned)–\(result.artifactsPlannedUpTo)"
            print("verify: \(shards), \(result.framesListed)/\(result.framesPlanned) frames, "
                  + "\(result.artifactsListed)/\(planned) artifacts: " + (quick ? "all present" : "all intact"))
            return
        }
        let problems = result.problems
        for problem in problems.prefix(50) { print("  \(problem)") }
        if problems.count > 50 { print("  … and \(problems.count - 50) more") }
        print("verify: \(shards): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        exit(ExitCode.mismatch.rawValue)
    }
}
