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

    /// A frame is compressed on the threads the frames that can be encoding at once leave idle:
    /// one each for a clip of many small frames, all of them for a one-frame clip, and half each
    /// for 4096 px frames on 16 threads, of which the budget holds two in flight.
    @Test func bigAndFewFramesAreSplitAcrossThreads() {
        let side4096 = 4096 * 4096 * 4
        let inFlight = BatchRun.framesInFlight(threads: 16, frameBytes: side4096)
        #expect(inFlight == 2)
        #expect(BatchRun.threadsPerFrame(threads: 16, inFlight: inFlight, frames: 300) == 8)
        #expect(BatchRun.threadsPerFrame(threads: 2, inFlight: 4, frames: 300) == 1)
        #expect(BatchRun.threadsPerFrame(threads: 2, inFlight: 4, frames: 1) == 2)
        #expect(BatchRun.threadsPerFrame(threads: 16, inFlight: 32, frames: 3) == 5)
        #expect(BatchRun.threadsPerFrame(threads: 1, inFlight: 2, frames: 1) == 1)
    }
}
