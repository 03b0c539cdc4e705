import CSched
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many CPUs this process may use, and what limits it: the default thread count of the
/// CPU renderer and of the batch pipeline, and what `throbber info` reports.
///
/// A scheduler gives a task its share of a node in two ways, and `ProcessInfo`'s
/// `activeProcessorCount` sees neither: an affinity mask (`taskset`, Slurm's `--cpus-per-task`
/// with task binding, a cpuset cgroup), and a CPU quota (cgroup v2 `cpu.max`, v1
/// `cpu.cfs_quota_us` / `cpu.cfs_period_us`: Kubernetes' CPU limits, Docker's `--cpus`). The
/// usable count is the smallest of the online CPUs, the affinity mask's CPUs and the quota
/// rounded up to whole CPUs (a quota of 1.5 CPUs keeps two threads busy part of the time), and at
/// least 1.
public struct UsableCPUs: Codable, Sendable, Equatable {
    /// What sets the usable count.
    public enum Limit: String, Codable, Sendable {
        case affinity
        case cgroupQuota = "cgroup quota"
        case online = "online CPUs"
    }

    /// The CPUs the process may use: at least 1.
    public var usable: Int
    /// Which of the figures below `usable` is.
    public var limit: Limit
    /// CPUs online on the machine (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public var online: Int
    /// CPUs in the affinity mask (`sched_getaffinity`); nil when it could not be read.
    public var affinity: Int?
    /// The tightest CPU quota of the process's cgroup and its parents, in whole CPUs rounded up;
    /// nil when none is set.
    public var cgroupQuota: Int?
    /// The file that quota was read from.
    public var cgroupQuotaFile: String?

    /// Combines the three figures.
    ///
    /// - Parameters:
    ///   - online: CPUs online (values below 1 count as 1).
    ///   - affinity: CPUs in the affinity mask, nil when unknown.
    ///   - cgroupQuota: the quota in whole CPUs, nil when none.
    ///   - cgroupQuotaFile: where the quota came from, for the report.
    public init(online: Int, affinity: Int?, cgroupQuota: Int?, cgroupQuotaFile: String? = nil) {
        self.online = max(1, online)
        self.affinity = affinity
        self.cgroupQuota = cgroupQuota
        self.cgroupQuotaFile = cgroupQuota == nil ? nil : cgroupQuotaFile
        var usable = self.online
        var limit = Limit.online
        // On a tie the affinity mask is named: it says which CPUs, not only how many.
        if let affinity, affinity >= 1, affinity < usable {
            usable = affinity
            limit = .affinity
        }
        if let cgroupQuota, cgroupQuota >= 1, cgroupQuota < usable {
            usable = cgroupQuota
            limit = .cgroupQuota
        }
        self.usable = usable
        self.limit = limit
    }

    /// This process's figures, read once (the kernel's answers do not change under a running
    /// batch often enough to be worth reading again).
    public static let current = UsableCPUs.read()

    /// Reads the online count, the affinity mask and the cgroup quotas now.
    public static func read() -> UsableCPUs {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let quota = cgroupQuota(cgroupFile: contents("/proc/self/cgroup"), mountInfo: contents("/proc/self/mountinfo"),
                                read: contents)
        return UsableCPUs(online: online, affinity: affinityCount(), cgroupQuota: quota?.cpus, cgroupQuotaFile: quota?.file)
    }

    /// One line for `throbber info`: "1 usable (affinity 1 of 2 online; cgroup quota none)".
    public var summary: String {
        let affinityText = affinity.map { "affinity \($0) of \(online) online" } ?? "\(online) online, affinity unknown"
        let quotaText = cgroupQuota.map { "cgroup quota \($0) (\(cgroupQuotaFile ?? "?"))" } ?? "cgroup quota none"
        return "\(usable) usable, set by \(limit.rawValue) (\(affinityText); \(quotaText))"
    }

    // MARK: - Affinity

    /// The CPUs in this thread's affinity mask (inherited from the process at start), or nil.
    ///
    /// The mask is sized by the kernel's answer, not by glibc's fixed 1024-CPU `cpu_set_t`: the
    /// call fails with EINVAL while the buffer is smaller than the kernel's mask, so it doubles
    /// until the mask fits. The bits are counted here rather than with `CPU_COUNT_S`, a macro
    /// Swift cannot import.
    static func affinityCount() -> Int? {
        #if os(Linux)
        var bytes = 128  // glibc's cpu_set_t: 1024 CPUs
        while bytes <= 1 << 20 {
            let words = bytes / MemoryLayout<UInt>.size
            let mask = UnsafeMutablePointer<UInt>.allocate(capacity: words)
            defer { mask.deallocate() }
            mask.initialize(repeating: 0, count: words)
            let result = CSched_getaffinity(bytes, mask)
            if result == 0 {
                let count = UnsafeBufferPointer(start: mask, count: words).reduce(0) { $0 + $1.nonzeroBitCount }
                return count > 0 ? count : nil
            }
            guard errno == EINVAL else { return nil }
            bytes *= 2
        }
        return nil
        #else
        return nil
        #endif
    }

    // MARK: - cgroup quotas

    /// The quota a cgroup v2 `cpu.max` sets, in whole CPUs rounded up: "150000 100000" → 2,
    /// "50000 100000" → 1; nil for "max 100000" (no limit) and for text that is not a quota and a
    /// period (ignored rather than guessed at).
    public static func parseCPUMax(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let period = Int(fields[1]) else { return nil }
        return wholeCPUs(quota: String(fields[0]), period: period)
    }

    /// The quota cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` set, as `parseCPUMax`;
    /// nil for a quota of -1 (no limit).
    public static func parseCFSQuota(quota: String, period: String) -> Int? {
        guard let period = Int(period.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return wholeCPUs(quota: quota.trimmingCharacters(in: .whitespacesAndNewlines), period: period)
    }

    private static func wholeCPUs(quota text: String, period: Int) -> Int? {
        guard let quota = Int(text), quota > 0, period > 0 else { return nil }
        return quota / period + (quota % period == 0 ? 0 : 1)
    }

    /// A cgroup directory to read a quota from, and the hierarchy's version.
    struct CgroupDirectory: Equatable {
        var path: String
        var version: Int
    }

    /// The directories of this process's CPU cgroups, innermost first, up to each hierarchy's
    /// mount point: the v2 group (the `0::` line of /proc/self/cgroup) and the v1 group of the
    /// `cpu` controller, each under the mount of its hierarchy found in /proc/self/mountinfo.
    /// A quota set on a parent limits every group under it, so each level counts.
    ///
    /// The group's path is relative to the hierarchy's root; a mount whose root is that group or
    /// a parent of it (a container without a cgroup namespace sees its own group mounted at
    /// /sys/fs/cgroup) shows it under the mount point without that root's part.
    static func cgroupDirectories(cgroupFile: String, mountInfo: String) -> [CgroupDirectory] {
        // (mount root, mount point) of the v2 hierarchy and of the v1 hierarchy holding `cpu`.
        var v2Mount: (root: String, point: String)?
        var v1Mount: (root: String, point: String)?
        for line in mountInfo.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            // id parent major:minor root point options [optional…] - type source super-options
            guard let dash = fields.firstIndex(of: "-"), dash >= 5, dash + 3 < fields.count else { continue }
            let root = unescape(fields[3]), point = unescape(fields[4])
            switch fields[dash + 1] {
            case "cgroup2": if v2Mount == nil { v2Mount = (root, point) }
            case "cgroup" where fields[dash + 3].split(separator: ",").contains("cpu"):
                if v1Mount == nil { v1Mount = (root, point) }
            default: break
            }
        }
        var directories: [CgroupDirectory] = []
        for line in cgroupFile.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { continue }
            let version: Int
            let mount: (root: String, point: String)?
            if parts[0] == "0" && parts[1].isEmpty {
                version = 2
                mount = v2Mount
            } else if parts[1].split(separator: ",").contains("cpu") {
                version = 1
                mount = v1Mount
            } else {
                continue
            }
            guard let mount, let inside = relative(parts[2], to: mount.root) else { continue }
            var path = inside
            while true {
                directories.append(CgroupDirectory(path: mount.point + path, version: version))
                guard let slash = path.lastIndex(of: "/") else { break }
                path = String(path[..<slash])
            }
        }
        return directories
    }

    /// `path` below `root` as "" or "/a/b"; nil when it is not below it.
    private static func relative(_ path: String, to root: String) -> String? {
        let trimmedRoot = root == "/" ? "" : root
        guard path == trimmedRoot || path.hasPrefix(trimmedRoot + "/") else { return nil }
        let inside = String(path.dropFirst(trimmedRoot.count))
        return inside == "/" ? "" : inside
    }

    /// mountinfo writes a space, tab, newline and backslash in a path as octal escapes (`\040`).
    private static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var result = ""
        var characters = Substring(field)
        while let first = characters.first {
            if first == "\\", characters.count >= 4, let code = UInt8(characters.dropFirst().prefix(3), radix: 8) {
                result.append(Character(Unicode.Scalar(code)))
                characters = characters.dropFirst(4)
            } else {
                result.append(first)
                characters = characters.dropFirst()
            }
        }
        return result
    }

    /// The tightest quota of the process's cgroups and their parents, and the file it is in.
    ///
    /// - Parameter read: a file's contents, or nil (tests pass a dictionary's lookup).
    static func cgroupQuota(cgroupFile: String?, mountInfo: String?, read: (String) -> String?) -> (cpus: Int, file: String)? {
        guard let cgroupFile, let mountInfo else { return nil }
        var tightest: (cpus: Int, file: String)?
        for directory in cgroupDirectories(cgroupFile: cgroupFile, mountInfo: mountInfo) {
            let found: (Int, String)?
            if directory.version == 2 {
                let file = directory.path + "/cpu.max"
                found = read(file).flatMap(parseCPUMax).map { ($0, file) }
            } else {
                let file = directory.path + "/cpu.cfs_quota_us"
                found = read(file).flatMap { quota in
                    read(directory.path + "/cpu.cfs_period_us").flatMap { parseCFSQuota(quota: quota, period: $0) }
                }.map { ($0, file) }
            }
            if let (cpus, file) = found, cpus < tightest?.cpus ?? .max { tightest = (cpus, file) }
        }
        return tightest
    }

    private static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
