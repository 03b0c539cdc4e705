/// Per-band outcomes written by the band workers, each its own.
struct SharedOutcomes: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<BandOutcome>
    init(_ buffer: UnsafeMutableBufferPointer<BandOutcome>) { self.buffer = buffer }
}

/// Per-row stamps written by the band workers, each its own rows.
struct SharedStamps: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<UInt64>
}
