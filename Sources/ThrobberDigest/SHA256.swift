import CCrypto
import Foundation

/// SHA-256 through libcrypto, which uses the CPU's SHA instructions: the one implementation in
/// Throbber (manifests, job digests, streams hashed as they are written, `verify`).
///
/// One-shot with `hex(_:)`; incremental with an instance: `update` as the bytes come, then
/// `finalizeHex()` once.
public final class SHA256 {
    private let context: OpaquePointer
    private var finished = false

    /// A fresh digest of nothing yet.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            // Allocation of a few hundred bytes failed: nothing sensible is left to do.
            fatalError("libcrypto could not set up a SHA-256 context")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "SHA256.update after finalizeHex")
        guard bytes.count > 0 else { return }
        _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// Adds `data` to the digest.
    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The lowercase hex digest of everything added; the digest takes no more bytes after it.
    public func finalizeHex() -> String {
        precondition(!finished, "SHA256.finalizeHex called twice")
        finished = true
        var digest = [UInt8](repeating: 0, count: Int(CCrypto_SHA256_LENGTH))
        var length: UInt32 = 0
        _ = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        return SHA256.hex(digest: digest)
    }

    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(CCrypto_SHA256_LENGTH))
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { out in
            EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil)
        }
        precondition(status == 1, "libcrypto refused SHA-256")
        return hex(digest: digest)
    }

    /// The lowercase hex SHA-256 of `data`.
    public static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }

    /// The lowercase hex SHA-256 of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { hex($0) } }

    /// `digest` as lowercase hex.
    static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
