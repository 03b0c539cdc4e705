/// A pointer shared by the band workers; each writes disjoint rows.
struct SharedBuffer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
}
