import Synchronization

/// A renderer's promise to an encoder about an image's rows: two rows at the same index of two
/// images of the same size that carry the same nonzero stamp hold the same bytes.
///
/// The CPU renderer makes it (a painted band's rows get a fresh stamp, a band kept or copied
/// from an earlier frame that frame's stamps); the PNG writer keeps it (a row whose stamp equals
/// the one its kept compressed row was made from is taken as unchanged without comparing bytes,
/// docs/png-encoders.md). A false stamp would write a wrong file, so only a renderer of this
/// package can attach stamps (`Image.promising`), and any change to the pixels drops them.
/// `CPURendererTests.rowStampsPromiseEqualRows` holds the CPU renderer to the promise over every
/// scene; `PNGSequenceTests` holds the writer to using stamps only as stated.
public struct RowStamps: Sendable, Equatable {
    /// One stamp per row, top first; 0 promises nothing about that row.
    public let values: [UInt64]

    package init(_ values: [UInt64]) { self.values = values }

    /// Stamps handed out so far in this process: a fresh stamp is the next, so no two paintings
    /// by any renderer share one (a sequence, not a cache).
    private static let issued = Atomic<UInt64>(0)

    /// A stamp no row has had before (never 0).
    package static func fresh() -> UInt64 { issued.add(1, ordering: .relaxed).newValue }
}

extension Image {
    /// This image with `stamps` attached, for the renderer that made it.
    ///
    /// - Precondition: one stamp per row.
    package func promising(_ stamps: RowStamps) -> Image {
        precondition(stamps.values.count == height, "one row stamp per row")
        var image = self
        image.rowStamps = stamps
        return image
    }
}
