import ThrobberPNG

/// A benchmark's sample sets taken together: what a row or a ceiling of the report is made of.
struct Measurement {
    /// The sets in the order they were taken, one per repeat.
    var sets: [SampleSet]

    /// Every sample, in repeat order.
    var samples: [Double] { sets.flatMap(\.samples) }

    /// Min, median and max over every sample.
    var summary: Summary { Summary(samples) }

    /// The median of each set: the run's own noise, which `--baseline` goes by.
    var repeatMedians: [Double] { sets.map { Summary($0.samples).median } }

    /// The sets' checksums folded together.
    var checksum: UInt64 { sets.reduce(0) { $0 &+ $1.checksum } }

    /// CPU ms per frame over every set; nil unless every set measured it.
    var cpuMsPerFrame: Double? {
        let measured = sets.compactMap(\.cpuMs)
        guard !sets.isEmpty, measured.count == sets.count else { return nil }
        return measured.reduce(0, +) / Double(sets.map(\.frames).reduce(0, +))
    }

    /// The share of row bands painted over every set; nil where no set counted bands.
    var paintedShare: Double? {
        let counted = sets.compactMap(\.bands)
        guard let first = counted.first else { return nil }
        return counted.dropFirst().reduce(first, +).share
    }

    /// What wrote the PNG files, as the first set that says reports it.
    var pngChoice: PNGChoice? { sets.lazy.compactMap(\.pngChoice).first }

    /// The share of rows a PNG encoder compressed over every set (the others it took from the
    /// frame before); nil where no set counted rows.
    var compressedShare: Double? {
        let counted = sets.compactMap(\.compressedRows)
        guard !counted.isEmpty else { return nil }
        let total = counted.map(\.total).reduce(0, +)
        return total > 0 ? Double(counted.map(\.compressed).reduce(0, +)) / Double(total) : nil
    }

    /// The median over sets of each set's frames/s over its own ceiling sample's; nil unless
    /// every set sampled its ceiling.
    var ratioToOwnCeilingSamples: Double? {
        let ratios = sets.compactMap { set in set.ceilingMs.map { $0 / Summary(set.samples).median } }
        guard !sets.isEmpty, ratios.count == sets.count else { return nil }
        return Summary(ratios).median
    }
}
