import Foundation

/// SHA-256 (FIPS 180-4 §6.2) in plain Swift, for fingerprinting frames and output files.
///
/// Linux has no CryptoKit, and nothing outside the toolchain can be a dependency, so the hash is
/// written here. Whole 64-byte blocks are compressed straight from the caller's buffer; only a
/// partial block at the end of an update is copied aside. Feed bytes with any of the `update`
/// overloads, in chunks of any size, then call `finalize()`.
public struct SHA256: Sendable {
    /// H0…H7, the working hash value (FIPS 180-4 §5.3.3 gives the initial one).
    private var state: State = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// The bytes of an unfinished block, fewer than 64.
    private var pending: [UInt8] = []
    /// The message length so far, in bytes.
    private var byteCount: UInt64 = 0

    private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// Creates a hasher for an empty message.
    public init() {
        pending.reserveCapacity(64)
    }

    /// Adds bytes to the message.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes of the message; any count, including 0.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        let count = bytes.count
        byteCount &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = (count - offset) / 64
        if blocks > 0 {
            Self.compress(&state, base + offset, blocks: blocks)
            offset += blocks * 64
        }
        if offset < count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: count - offset))
        }
    }

    /// Adds bytes to the message.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes of the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Adds bytes to the message.
    ///
    /// - Parameters:
    ///   - data: the next bytes of the message.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Pads the message, returns its 32-byte digest and starts over with an empty message.
    ///
    /// - Returns: the digest, H0 first, each word big-endian (FIPS 180-4 §6.2.2 step 4).
    public mutating func finalize() -> [UInt8] {
        // FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, then the length in bits.
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = byteCount &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { Self.compress(&state, $0.baseAddress!, blocks: tail.count / 64) }
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        self = SHA256()
        return digest
    }

    /// Writes bytes as lowercase hexadecimal, two digits per byte.
    ///
    /// - Parameters:
    ///   - bytes: the bytes to write, typically a digest.
    /// - Returns: a string of `2 × bytes.count` characters from `0-9a-f`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Hashes a whole message at once.
    ///
    /// - Parameters:
    ///   - bytes: the message.
    /// - Returns: the digest as 64 lowercase hexadecimal digits.
    public static func hexDigest(_ bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }

    /// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
    /// 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Runs the compression function (FIPS 180-4 §6.2.2) over `blocks` consecutive 64-byte blocks
    /// starting at `base`, which need not be aligned.
    private static func compress(_ state: inout State, _ base: UnsafeRawPointer, blocks: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<blocks {
                    let p = base + block * 64
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t - 15], y = w[t - 2]
                        let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                        let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    // Eight rounds per pass with the roles renamed instead of the eight values
                    // shifted along, so no round spends moves on the rotation.
                    for t in stride(from: 0, to: 64, by: 8) {
                        round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                        round(h, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1])
                        round(g, h, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2])
                        round(f, g, h, &a, b, c, d, &e, k[t + 3] &+ w[t + 3])
                        round(e, f, g, &h, a, b, c, &d, k[t + 4] &+ w[t + 4])
                        round(d, e, f, &g, h, a, b, &c, k[t + 5] &+ w[t + 5])
                        round(c, d, e, &f, g, h, a, &b, k[t + 6] &+ w[t + 6])
                        round(b, c, d, &e, f, g, h, &a, k[t + 7] &+ w[t + 7])
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    /// One round of FIPS 180-4 §6.2.2 step 3 with `kw` = K_t + W_t. The caller renames the working
    /// variables between rounds: only d (becoming e) and h (becoming a) change.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
    ) {
        let sigma1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
        let choice = g ^ (e & (f ^ g))
        let t1 = h &+ sigma1 &+ choice &+ kw
        let sigma0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
        let majority = (a & b) | (c & (a | b))
        d &+= t1
        h = t1 &+ sigma0 &+ majority
    }
}
