import Testing
import ThrobberBatch

/// Issue 17.5: the batch pipeline's frames in flight bounded in bytes, not per thread, so that
/// many threads on large frames do not take a gigabyte.
struct FrameBudgetTests {
    /// Twice the threads, unless the byte budget holds fewer; never below 2.
    @Test func framesInFlightAreBoundedInBytes() {
        let side1024 = 1024 * 1024 * 4
        #expect(BatchRun.framesInFlight(threads: 2, frameBytes: side1024) == 4)
        #expect(BatchRun.framesInFlight(threads: 128, frameBytes: side1024) == 32)
        #expect(BatchRun.framesInFlight(threads: 128, frameBytes: 64 * 64 * 4) == 256)
        #expect(BatchRun.framesInFlight(threads: 2, frameBytes: 8192 * 8192 * 4) == 2)
        #expect(BatchRun.framesInFlight(threads: 1, frameBytes: 64 * 64 * 4) == 2)
        #expect(BatchRun.framesInFlight(threads: 64, frameBytes: side1024, budget: 16 << 20) == 2)
    }
}
