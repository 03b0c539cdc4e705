import Glibc
import Throbber

/// The two clocks every benchmark reads: wall time of the timed work, and the process's CPU time
/// meanwhile.
enum Stopwatch {
    private static let clock = ContinuousClock()

    /// Runs `body` and returns its wall time in ms.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = clock.now
        try body()
        return (clock.now - start).seconds * 1000
    }

    /// Runs `body` and returns the CPU time the whole process spent meanwhile (user + system,
    /// every thread: llvmpipe's and the encoders' too), in ms.
    static func cpuMilliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = processCPUSeconds()
        try body()
        return (processCPUSeconds() - start) * 1000
    }
}

/// User + system CPU time of the whole process so far, in seconds.
public func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
