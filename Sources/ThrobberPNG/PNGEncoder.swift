import CPNGWriter
import Foundation
import Synchronization
import Throbber

/// A PNG row filter (filter method 0), applied to every row; ``adaptive`` picks one per row.
/// The raw values are the filters' names in the PNG specification, in lower case.
public enum PNGRowFilter: String, Sendable, Hashable, CaseIterable {
    /// The row as it is (the specification's filter "None"; not called `none` here, which an
    /// optional filter would read as `nil`).
    case unfiltered = "none"
    /// Each byte minus the one a pixel to the left.
    case sub
    /// Each byte minus the one above.
    case up
    /// Each byte minus the mean of left and above.
    case average
    /// Each byte minus the Paeth predictor of left, above and upper left.
    case paeth
    /// Per row, the filter whose bytes have the smallest sum taken as signed values (the PNG
    /// specification's heuristic, which libpng also uses when given every filter).
    case adaptive

    /// libpng's `PNG_FILTER_*` bit set for this choice.
    var libpngBits: Int {
        switch self {
        case .unfiltered: 0x08
        case .sub: 0x10
        case .up: 0x20
        case .average: 0x40
        case .paeth: 0x80
        case .adaptive: 0xF8
        }
    }

    var writerFilter: CPNGWriter_Filter {
        switch self {
        case .unfiltered: CPNGWriter_none
        case .sub: CPNGWriter_sub
        case .up: CPNGWriter_up
        case .average: CPNGWriter_average
        case .paeth: CPNGWriter_paeth
        case .adaptive: CPNGWriter_adaptive
        }
    }
}

/// Which library writes a frame's PNG, at what level, with which row filter.
///
/// Every encoder writes the same image: 8-bit straight-alpha RGBA, not interlaced, with the
/// given tEXt chunks between IHDR and IDAT. They differ in speed and size only; libpng reads
/// each back to exactly the pixels given (PNGEncoderTests checks every encoder that way).
///
/// - ``automatic``: the default (`auto`): the fastest setting whose files are no larger than
///   libpng's at its own defaults, chosen from what the frames are — their size, how many rows
///   change from frame to frame, how flat they are, and a trial on sampled rows
///   (``AutomaticRule``, ``choice(for:previous:)``).
/// - ``libpng(level:filter:)``: libpng over zlib, levels 0–9; the reference.
/// - ``libdeflate(level:filter:)``: Throbber's own PNG writer over libdeflate, levels 0–12.
/// - ``isal(level:filter:)``: the same writer over Intel ISA-L's igzip, levels 0–3; the fastest
///   and the largest files.
/// - ``zlib(level:filter:)``: the same writer over zlib's deflate, levels 0–9, in segments of
///   rows like igzip's (reset and sync-flushed), so unchanged segments of a sequence are taken
///   as they were at zlib's higher ratios.
///
/// A `nil` filter is the encoder's ``defaultFilter``. The fast writers keep their compressors
/// per thread and reuse them from frame to frame (see Sources/CPNGWriter). The named settings
/// `fast`, `small` and `compact` (``PNGEncoderCatalog/namedSettings``) stand for one of these at
/// a level.
///
/// Two values that differ only in a `nil` against an explicit default filter are unequal but
/// write the same bytes.
public enum PNGEncoder: Sendable, Hashable {
    /// The fastest setting no larger than libpng's defaults for frames like these
    /// (``choice(for:previous:)``, by ``AutomaticRule/current``).
    case automatic
    /// libpng over zlib (CPNGCodec), level 0–9.
    case libpng(level: Int, filter: PNGRowFilter? = nil)
    /// Our writer (CPNGWriter) over `libdeflate_zlib_compress`, level 0–12.
    case libdeflate(level: Int, filter: PNGRowFilter? = nil)
    /// Our writer (CPNGWriter) over ISA-L's `isal_deflate` with zlib framing, level 0–3.
    case isal(level: Int, filter: PNGRowFilter? = nil)
    /// Our writer (CPNGWriter) over zlib's `deflate`, raw, one reset stream per segment of rows, level 0–9.
    case zlib(level: Int, filter: PNGRowFilter? = nil)

    /// The names `--png-encoder` and the job file's `"pngEncoder"` take: the encoders, then the
    /// named settings.
    public static let names = PNGEncoderCatalog.names

    /// What frames are written with unless a user says otherwise (``PNGEncoderCatalog/defaultName``).
    public static let `default` = try! PNGEncoder(name: PNGEncoderCatalog.defaultName)

    /// The encoder a setting of ``AutomaticRule`` names (an unfiltered setting gets the
    /// encoder's default filter, nil, so it equals the plain `.isal(level:)` and the like).
    public init(_ setting: AutomaticRule.Setting) {
        self = try! PNGEncoder(name: setting.encoder, level: setting.level,
                               filter: setting.filter == .unfiltered ? nil : setting.filter)
    }

    /// The encoder that writes `image` (after `previous`, the frame before it, when there is
    /// one), and why: ``automatic``'s choice by ``AutomaticRule/current`` and its trial, or this
    /// encoder itself (and no reason) when it is not ``automatic``. A caller resolves once per
    /// clip, from the clip's first two frames, and once per sheet page or preview, from the image
    /// itself, before encoding, so a clip's frames share one setting (and so the rows the frame
    /// before left alone); ``encode(_:text:sequence:threads:)`` of ``automatic`` itself resolves
    /// from the one image it is given.
    public func choice(for image: Image, previous: Image? = nil) throws -> PNGChoice {
        guard self == .automatic else { return PNGChoice(encoder: self, reason: nil) }
        let choice = try AutomaticRule.current.choice(for: image, previous: previous)
        return PNGChoice(encoder: PNGEncoder(choice.setting), reason: choice.reason)
    }

    /// libpng at ``defaultPNGLevel`` with no row filter: what every command wrote before the
    /// default was chosen by measurement, and `--png-encoder libpng`.
    public static let standard = PNGEncoder.libpng(level: defaultPNGLevel)

    /// The encoder a name (an encoder's or a named setting's) and an optional level stand for:
    /// the one parse of both, which every edge that reads them (the command line's options, the
    /// job file's keys) calls once and words the refusal in its own terms. `auto` without a level
    /// is ``automatic``; with one, libdeflate at that level.
    ///
    /// - Returns: the encoder, at `level` or its ``defaultLevel(for:)``, or why the two are refused.
    public static func parse(_ name: String, level: Int?, filter: PNGRowFilter? = nil) -> Result<PNGEncoder, PNGEncoderCatalog.Refusal> {
        PNGEncoderCatalog.resolve(name, level: level).map { resolved in
            switch resolved.encoder {
            case PNGEncoderCatalog.automatic: .automatic
            case "libpng": .libpng(level: resolved.level, filter: filter)
            case "libdeflate": .libdeflate(level: resolved.level, filter: filter)
            case "zlib": .zlib(level: resolved.level, filter: filter)
            default: .isal(level: resolved.level, filter: filter)
            }
        }
    }

    /// Makes an encoder from its name or a named setting's, at `level` or the encoder's
    /// ``defaultLevel(for:)`` (``parse(_:level:filter:)``).
    ///
    /// - Parameters:
    ///   - nameField, levelField: how the caller's user spells the two settings (an option or
    ///     a job-file key), named in the error.
    /// - Throws: a usage error naming the field, the value and what is allowed, for an unknown
    ///   name, a level outside the encoder's ``levels(for:)``, or a level with a named setting.
    public init(name: String, level: Int? = nil, filter: PNGRowFilter? = nil,
                nameField: String = "PNG encoder", levelField: String = "PNG level") throws {
        switch PNGEncoder.parse(name, level: level, filter: filter) {
        case .success(let encoder):
            self = encoder
        case .failure(let refusal):
            if refusal == .unknownName {
                throw ThrobberError.invalid(nameField, name, allowed: PNGEncoderCatalog.allowed(refusal, name: name))
            }
            throw ThrobberError.invalid(levelField, String(level ?? 0), allowed: PNGEncoderCatalog.allowed(refusal, name: name))
        }
    }

    /// The levels an encoder accepts, or nil for an unknown name or a named setting
    /// (``PNGEncoderCatalog``'s table).
    public static func levels(for name: String) -> ClosedRange<Int>? { PNGEncoderCatalog.levels(for: name) }

    /// An encoder's level when none is given, or a named setting's (``PNGEncoderCatalog``'s table).
    public static func defaultLevel(for name: String) -> Int? { PNGEncoderCatalog.defaultLevel(for: name) }

    /// The encoder's name (one of ``names``).
    public var name: String {
        switch self {
        case .automatic: PNGEncoderCatalog.automatic
        case .libpng: "libpng"
        case .libdeflate: "libdeflate"
        case .isal: "isal"
        case .zlib: "zlib"
        }
    }

    /// The encoder, level and filter in words, as reports and the sweeps write a setting:
    /// "zlib 4 none".
    public var setting: String { "\(name) \(level) \(filter.rawValue)" }

    /// The compression level.
    public var level: Int {
        switch self {
        case .automatic: PNGEncoderCatalog.defaultLevel(for: PNGEncoderCatalog.automatic)!
        case .libpng(let level, _), .libdeflate(let level, _), .isal(let level, _), .zlib(let level, _): level
        }
    }

    /// The row filter used: the one given, or ``defaultFilter``.
    public var filter: PNGRowFilter {
        switch self {
        case .automatic: defaultFilter
        case .libpng(_, let filter), .libdeflate(_, let filter), .isal(_, let filter), .zlib(_, let filter): filter ?? defaultFilter
        }
    }

    /// The row filter when none is given, chosen per encoder by measurement: `bench --png-sweep`
    /// over every scene at 64, 512 and 1024 px found unfiltered rows the smallest at every level
    /// of every encoder and every size (a filter turns each flat run's first pixel and every edge
    /// into new byte patterns), and the fastest or within noise of it; docs/png-encoders.md has
    /// the numbers.
    public var defaultFilter: PNGRowFilter {
        switch self {
        case .automatic: .unfiltered
        case .libpng: .unfiltered
        case .libdeflate: .unfiltered
        case .isal: .unfiltered
        case .zlib: .unfiltered
        }
    }

    /// Encodes an image as an 8-bit RGBA PNG (straight alpha) with the given tEXt chunks, in
    /// order, as ``PNGCodec/encode(_:settings:text:)`` does.
    ///
    /// - Parameter sequence: the animation this frame belongs to, when its frames are encoded in
    ///   order. The fast writers then take the compressed bytes of rows that did not change from
    ///   the frame the same thread last encoded in the sequence at the same settings (``PNGSequence``); the bytes
    ///   written are the same either way. libpng ignores it.
    /// - Throws: a usage error (as ``init(name:level:filter:nameField:levelField:)``) when the
    ///   level is outside the encoder's range; a backend-failure error with the library's
    ///   message when encoding fails (an empty image, an invalid tEXt keyword, out of memory).
    /// - Parameter threads: how many threads may work on this one image at once, the calling one
    ///   among them: igzip's and zlib's segments of rows are then filtered and compressed in
    ///   parallel (a sheet page, a preview, a clip of a few big frames). The bytes are the same
    ///   whatever the count; libpng and libdeflate, which cannot flush, use the calling thread.
    public func encode(_ image: Image, text: [(String, String)] = [], sequence: PNGSequence? = nil,
                       threads: Int = 1) throws -> Data {
        try encodeCounting(image, text: text, sequence: sequence, threads: threads).data
    }

    /// ``encode(_:text:sequence:)``, with how many of the image's rows were taken from the frame
    /// before in the sequence instead of compressed (0 for libpng and without a sequence).
    public func encodeCounting(_ image: Image, text: [(String, String)] = [],
                               sequence: PNGSequence? = nil, threads: Int = 1) throws -> (data: Data, reusedRows: Int) {
        let range = Self.levels(for: name)!
        guard range.contains(level) else { throw Self.levelError(name: name, level: level, field: "PNG level") }
        switch self {
        case .automatic:
            return try choice(for: image).encoder.encodeCounting(image, text: text, sequence: sequence, threads: threads)
        case .libpng:
            let filters = filter.libpngBits
            if let sequence, let reused = LibpngSequence.reuse(image, sequence: sequence, level: level, filters: filters, text: text) {
                return reused
            }
            let data = try PNGCodec.encode(image, settings: PNGCodec.Settings(level: level, filters: filters), text: text)
            if let sequence { LibpngSequence.keep(image, file: data, sequence: sequence, level: level, filters: filters) }
            return (data, 0)
        case .libdeflate:
            return try Self.write(image, backend: CPNGWriter_libdeflate, level: level, filter: filter, text: text, sequence: sequence,
                                  threads: threads)
        case .isal:
            return try Self.write(image, backend: CPNGWriter_isal, level: level, filter: filter, text: text, sequence: sequence,
                                  threads: threads)
        case .zlib:
            return try Self.write(image, backend: CPNGWriter_zlib, level: level, filter: filter, text: text, sequence: sequence,
                                  threads: threads)
        }
    }

    static func levelError(name: String, level: Int, field: String) -> ThrobberError {
        let levels = Self.levels(for: name)!
        return ThrobberError.invalid(field, String(level),
                                     allowed: "an integer in [\(levels.lowerBound), \(levels.upperBound)] for \(name)")
    }

    /// Runs the C writer; its result lives in this thread's writer state, so it is copied into
    /// the returned Data before anything else runs on this thread.
    static func write(_ image: Image, backend: CPNGWriter_Backend, level: Int, filter: PNGRowFilter,
                      text: [(String, String)], sequence: PNGSequence?, threads: Int) throws -> (data: Data, reusedRows: Int) {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else {
            throw ThrobberError("PNG encoding failed: a \(image.width)×\(image.height) px image has no pixels to write",
                                kind: .backendFailure)
        }
        var message = [CChar](repeating: 0, count: 256)
        var png: UnsafePointer<UInt8>?
        var size = 0
        var reused: UInt32 = 0
        let status = withCText(text) { pairs in
            let chunks = pairs.map { CPNGWriter_Text(key: $0.key, text: $0.text) }
            // Stamps only matter in a sequence, and only when there is one per row.
            let stamps = sequence != nil ? image.rowStamps.map(\.values) : nil
            return image.pixels.withUnsafeBufferPointer { pixels in
                chunks.withUnsafeBufferPointer { chunkPointer in
                    withStamps(stamps) { stampPointer in
                        CPNGWriter_encode(pixels.baseAddress!, UInt32(clamping: image.width),
                                          UInt32(clamping: image.height), backend, Int32(level), filter.writerFilter,
                                          chunkPointer.baseAddress, Int32(chunks.count), sequence?.number ?? 0, stampPointer,
                                          Int32(clamping: threads), &png, &size, &reused, &message, message.count)
                    }
                }
            }
        }
        guard status == 0, let png else {
            throw ThrobberError("PNG encoding failed: \(String(nulTerminated: message))", kind: .backendFailure)
        }
        return (Data(bytes: png, count: size), Int(reused))
    }
}

/// Calls `body` with a pointer to `stamps`' first element, or nil.
private func withStamps<R>(_ stamps: [UInt64]?, _ body: (UnsafePointer<UInt64>?) -> R) -> R {
    guard let stamps else { return body(nil) }
    return stamps.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// The encoder that writes an image, and, when `auto` chose it, why (``PNGEncoder/choice(for:previous:)``).
public struct PNGChoice: Sendable, Hashable, CustomStringConvertible {
    /// Never ``PNGEncoder/automatic``.
    public var encoder: PNGEncoder
    /// What ``AutomaticRule`` read from the frames ("1024 px; 13 % rows changed, under 40 %"), or
    /// nil when the encoder was named.
    public var reason: String?

    public init(encoder: PNGEncoder, reason: String?) {
        self.encoder = encoder
        self.reason = reason
    }

    /// "auto: zlib 4 none (1024 px; 13 % rows changed, under 40 %)", or the named encoder's setting.
    public var description: String {
        reason.map { "auto: \(encoder.setting) (\($0))" } ?? encoder.setting
    }
}

/// The frames of one animation, encoded in order (``PNGEncoder/encode(_:text:sequence:)``).
///
/// Each encoding thread of the fast writers keeps the last frame it encoded in a sequence at
/// each of two settings (two PNG outputs of one clip with different encoders both gain); the
/// next frame it encodes in the same sequence, at the same size and settings, takes the
/// compressed bytes of each stretch of rows (about 128 KiB of them with ISA-L, the whole image
/// with libdeflate) that is byte for byte the same, instead of compressing it again. A wave
/// ball's waves move a sixth of its rows; the tick ring and the still water are taken as they
/// were. Every value is new: frames of two sequences never share.
public struct PNGSequence: Sendable, Hashable {
    /// Never 0, which the writer reads as no sequence.
    let number: UInt64

    private static let counter = Mutex<UInt64>(0)

    /// A sequence no other value shares.
    public init() {
        number = Self.counter.withLock { value in
            value += 1
            return value
        }
    }
}
