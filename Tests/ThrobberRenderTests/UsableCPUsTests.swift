import Foundation
import Testing
@testable import ThrobberRender

/// Issue 17.5: the CPUs a scheduler gave, from the affinity mask and the cgroup quota.
struct UsableCPUsTests {
    @Test(arguments: [
        ("max 100000", nil),
        ("150000 100000\n", 2),
        ("50000 100000", 1),
        ("200000 100000", 2),
        ("100001 100000", 2),
        // Malformed: ignored, never guessed at.
        ("", nil), ("max", nil), ("150000", nil), ("abc 100000", nil), ("150000 0", nil), ("-5 100000", nil),
        ("150000 100000 7", nil),
    ] as [(String, Int?)])
    func cpuMaxIsQuotaOverPeriodRoundedUp(text: String, cpus: Int?) {
        #expect(UsableCPUs.parseCPUMax(text) == cpus, "\(text.debugDescription)")
    }

    @Test func cfsQuotaOfMinusOneIsNoLimit() {
        #expect(UsableCPUs.parseCFSQuota(quota: "-1\n", period: "100000\n") == nil)
        #expect(UsableCPUs.parseCFSQuota(quota: "150000\n", period: "100000\n") == 2)
        #expect(UsableCPUs.parseCFSQuota(quota: "50000", period: "100000") == 1)
        #expect(UsableCPUs.parseCFSQuota(quota: "50000", period: "x") == nil)
    }

    @Test func theSmallestFigureIsUsedAndNamed() {
        let free = UsableCPUs(online: 64, affinity: 64, cgroupQuota: nil)
        #expect(free.usable == 64 && free.limit == .online)
        let pinned = UsableCPUs(online: 64, affinity: 1, cgroupQuota: nil)
        #expect(pinned.usable == 1 && pinned.limit == .affinity)
        #expect(pinned.summary == "1 usable, set by affinity (affinity 1 of 64 online; cgroup quota none)")
        let quota = UsableCPUs(online: 64, affinity: 8, cgroupQuota: 2, cgroupQuotaFile: "/sys/fs/cgroup/a/cpu.max")
        #expect(quota.usable == 2 && quota.limit == .cgroupQuota)
        #expect(quota.summary.hasSuffix("cgroup quota 2 (/sys/fs/cgroup/a/cpu.max))"), "\(quota.summary)")
        // On a tie the mask is named; an unreadable mask or nonsense still leaves at least 1.
        #expect(UsableCPUs(online: 8, affinity: 2, cgroupQuota: 2).limit == .affinity)
        #expect(UsableCPUs(online: 0, affinity: nil, cgroupQuota: nil).usable == 1)
        #expect(UsableCPUs(online: 4, affinity: 0, cgroupQuota: 0).usable == 4)
    }

    /// A v2 hierarchy at /sys/fs/cgroup and the v1 `cpu` controller mounted beside others; the
    /// quota of a parent group counts as much as the process's own.
    @Test func cgroupsAreWalkedUpToTheMountAndTheTightestQuotaWins() {
        let mountInfo = """
            24 30 0:22 / /sys rw,nosuid - sysfs sysfs rw
            31 23 0:28 / /sys/fs/cgroup rw,relatime shared:9 - cgroup2 cgroup2 rw
            32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
            33 31 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
            """
        let cgroupFile = """
            4:cpuset:/
            3:cpu,cpuacct:/slurm/job7
            0::/kubepods/pod1/c1
            """
        let directories = UsableCPUs.cgroupDirectories(cgroupFile: cgroupFile, mountInfo: mountInfo)
        #expect(directories.map(\.path) == [
            "/sys/fs/cgroup/cpu,cpuacct/slurm/job7", "/sys/fs/cgroup/cpu,cpuacct/slurm", "/sys/fs/cgroup/cpu,cpuacct",
            "/sys/fs/cgroup/kubepods/pod1/c1", "/sys/fs/cgroup/kubepods/pod1", "/sys/fs/cgroup/kubepods", "/sys/fs/cgroup",
        ])
        let files = [
            "/sys/fs/cgroup/kubepods/pod1/c1/cpu.max": "max 100000\n",
            "/sys/fs/cgroup/kubepods/pod1/cpu.max": "350000 100000\n",
            "/sys/fs/cgroup/kubepods/cpu.max": "garbage\n",
            "/sys/fs/cgroup/cpu,cpuacct/slurm/job7/cpu.cfs_quota_us": "-1\n",
            "/sys/fs/cgroup/cpu,cpuacct/slurm/job7/cpu.cfs_period_us": "100000\n",
            "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_quota_us": "500000\n",
            "/sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_period_us": "100000\n",
        ]
        let quota = UsableCPUs.cgroupQuota(cgroupFile: cgroupFile, mountInfo: mountInfo) { files[$0] }
        #expect(quota?.cpus == 4)
        #expect(quota?.file == "/sys/fs/cgroup/kubepods/pod1/cpu.max")
        #expect(UsableCPUs.cgroupQuota(cgroupFile: cgroupFile, mountInfo: mountInfo) { _ in nil } == nil)
    }

    /// A container without a cgroup namespace sees its own group mounted at /sys/fs/cgroup: the
    /// mount's root is cut from the group's path.
    @Test func aGroupMountedAsTheRootIsReadAtTheMountPoint() {
        let mountInfo = "40 31 0:38 /docker/abc /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n"
        let directories = UsableCPUs.cgroupDirectories(cgroupFile: "0::/docker/abc/sub\n", mountInfo: mountInfo)
        #expect(directories.map(\.path) == ["/sys/fs/cgroup/sub", "/sys/fs/cgroup"])
        // A group outside the mounted part is not guessed at.
        #expect(UsableCPUs.cgroupDirectories(cgroupFile: "0::/other\n", mountInfo: mountInfo).isEmpty)
    }
}
