import Throbber

extension Band {
    /// Quantises the band into the output rows (SPEC §0, `resolvePixel`): a solid run's bytes
    /// once, repeated; the accumulators pixel by pixel. Every output byte is written exactly once.
    func resolve(into out: UnsafeMutablePointer<UInt8>) {
        for r in 0..<(y1 - y0) {
            let rowOut = out + (y0 + r) * width * 4
            let slots = runSlots + r * runCapacity
            var x = 0
            for i in 0..<Int(runCounts[r]) {
                let run = slots[i]
                quantise(r, x, Int(run.lo), rowOut)
                let bytes = resolvePixel(run.value[0], run.value[1], run.value[2], run.value[3])
                let pattern = (UInt32(bytes.0) | UInt32(bytes.1) << 8 | UInt32(bytes.2) << 16 | UInt32(bytes.3) << 24).littleEndian
                fill(rowOut + Int(run.lo) * 4, count: Int(run.hi - run.lo), with: pattern)
                x = Int(run.hi)
            }
            quantise(r, x, width, rowOut)
        }
    }

    /// Writes `count` copies of a pixel's four bytes (as one little-endian word), eight at a time.
    @inline(__always)
    func fill(_ out: UnsafeMutablePointer<UInt8>, count: Int, with pattern: UInt32) {
        let raw = UnsafeMutableRawPointer(out)
        let eight = SIMD8<UInt32>(repeating: pattern)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: eight, toByteOffset: i * 4, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < count {
            raw.storeBytes(of: pattern, toByteOffset: i * 4, as: UInt32.self)
            i += 1
        }
    }

    /// Quantises the accumulators of columns [a, b) of band row `r` into `rowOut`.
    @inline(__always)
    func quantise(_ r: Int, _ a: Int, _ b: Int, _ rowOut: UnsafeMutablePointer<UInt8>) {
        guard a < b else { return }
        var p = accum + (r * width + a) * 4
        var o = rowOut + a * 4
        // Flat colour is the common case: a pixel equal to its left neighbour reuses its bytes.
        var last: (Float, Float, Float, Float) = (.nan, 0, 0, 0)
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        for _ in a..<b {
            let value = (p[0], p[1], p[2], p[3])
            if value != last {
                bytes = resolvePixel(value.0, value.1, value.2, value.3)
                last = value
            }
            o[0] = bytes.0; o[1] = bytes.1; o[2] = bytes.2; o[3] = bytes.3
            p += 4
            o += 4
        }
    }
}
