import CCrypto
import Foundation
import Throbber

/// SHA-256 through libcrypto, which uses the CPU's SHA instructions: hashing every frame's raw
/// pixels for the batch manifest then costs a fraction of encoding it. Same digests as the
/// pure-Swift `SHA256` of the core (the tests check both).
public enum PixelDigest {
    /// The lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(CCrypto_SHA256_LENGTH))
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { out in
            EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &length, EVP_sha256(), nil)
        }
        guard status == 1 else {
            // libcrypto refused (it never does for SHA-256): the portable implementation is exact too.
            var fallback = SHA256()
            fallback.update(bytes)
            return SHA256.hex(fallback.finalize())
        }
        return SHA256.hex(digest)
    }

    /// The lowercase hex SHA-256 of `data`.
    public static func sha256Hex(_ data: Data) -> String {
        data.withUnsafeBytes { sha256Hex($0) }
    }

    /// The lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256Hex($0) }
    }
}
