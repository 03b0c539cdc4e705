/// Per-band outcomes written by the band workers, each its own.
struct SharedOutcomes: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<BandOutcome>
    init(_ buffer: UnsafeMutableBufferPointer<BandOutcome>) { self.buffer = buffer }
}
