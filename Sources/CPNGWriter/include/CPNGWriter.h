#ifndef CPNGWRITER_H
#define CPNGWRITER_H
// Throbber's own PNG writer: the container (signature, IHDR, tEXt, one IDAT, IEND, CRC-32) and
// the row filters are written here, the DEFLATE stream by libdeflate, Intel ISA-L (igzip) or zlib.
// It writes only 8-bit RGBA, non-interlaced, which is all Throbber's frames ever are; libpng
// (CPNGCodec) stays the reader and the reference encoder these files are tested against.
//
// Compressor state is kept per thread and reused across frames: one libdeflate compressor per
// level, one igzip stream and level buffer, the filter and output buffers, and (in a sequence)
// the frame encoded before, whose unchanged segments of rows are taken instead of compressed.
// Nothing is shared between threads, so encoders may run on any number of threads at once. Functions
// return 0 on success or -1 with a one-line message in `error`.
#include <stddef.h>
#include <stdint.h>

/// The DEFLATE library behind the writer.
typedef enum CPNGWriter_Backend {
    CPNGWriter_libdeflate = 1, ///< libdeflate_zlib_compress, levels 0–12
    CPNGWriter_isal = 2,       ///< igzip isal_deflate with IGZIP_ZLIB framing, levels 0–3
    CPNGWriter_zlib = 3,       ///< zlib deflate (raw, reset and sync-flushed per segment), levels 0–9
} CPNGWriter_Backend;

/// PNG row filters (filter method 0). `CPNGWriter_adaptive` picks, per row, the filter whose
/// output has the smallest sum of absolute (signed) bytes: the heuristic of the PNG
/// specification (section 12.8), which libpng also uses when given more than one filter.
typedef enum CPNGWriter_Filter {
    CPNGWriter_none = 0,
    CPNGWriter_sub = 1,
    CPNGWriter_up = 2,
    CPNGWriter_average = 3,
    CPNGWriter_paeth = 4,
    CPNGWriter_adaptive = 5,
} CPNGWriter_Filter;

/// One tEXt chunk: a keyword of 1–79 bytes, printable Latin-1 (32–126, 161–255) with no
/// leading, trailing or doubled space, as libpng accepts unchanged; the text is written as given.
typedef struct CPNGWriter_Text {
    const char *_Nonnull key;
    const char *_Nonnull text;
} CPNGWriter_Text;

/// Encodes straight-alpha RGBA8 rows (top-down, tightly packed) as an 8-bit RGBA PNG with the
/// tEXt chunks between IHDR and IDAT, where libpng's png_write_info puts them.
///
/// On success `*png` and `*size` describe the file in a buffer owned by this thread's writer
/// state: it stays valid until this thread's next call, so copy it out first.
///
/// `sequence`: frames of one animation encoded in order pass the same nonzero number. The image
/// is compressed in segments of rows (igzip: 128 KiB of filtered rows each, zlib: 96 KiB, or
/// 1/64 of an image larger than 64 of them, compressed apart; libdeflate: the whole image), and a segment whose filtered bytes equal those of the
/// frame this thread kept for the same sequence, size, encoder, level and filter takes that
/// frame's compressed bytes instead of being compressed again; this frame is kept in its place.
/// A thread keeps the last frame of two such keys (the least recently kept is dropped for a third),
/// with at most 72 MiB of filtered rows in all (one 4096 px frame). The file is byte for byte the one a fresh encode
/// writes. 0: nothing is taken, and every kept frame stays as it was. A frame that fails leaves
/// its key with no kept frame.
/// `rowStamps` (NULL: none): `height` stamps from the renderer, one per row, such that two rows at
/// the same index with the same nonzero stamp hold the same bytes. With no filter or `sub`, a row
/// whose stamp is the one the kept frame's row was made from is taken as unchanged without
/// comparing its bytes; a false stamp would write a wrong file, so only a renderer that keeps
/// the promise gives them (Throbber's CPU renderer, `Image.rowStamps`).
/// `threads`: how many threads may work on this frame at once, the calling one among them. With
/// more than one, igzip's and zlib's segments are filtered and compressed in parallel by workers
/// this writer keeps for the process's life (each with its own compressors); the file is the
/// same byte for byte whatever the count. libdeflate, which cannot flush, and igzip's level 0
/// write one segment, on the calling thread. 0 and 1: the calling thread alone.
/// `*reusedRows` (when not NULL) is set to how many rows were taken so.
int CPNGWriter_encode(const unsigned char *_Nonnull rgba, uint32_t width, uint32_t height,
                      CPNGWriter_Backend backend, int level, CPNGWriter_Filter filter,
                      const CPNGWriter_Text *_Nullable texts, int textCount, uint64_t sequence,
                      const uint64_t *_Nullable rowStamps, int threads,
                      const unsigned char *_Nullable *_Nonnull png, size_t *_Nonnull size,
                      uint32_t *_Nullable reusedRows, char *_Nonnull error, size_t errorSize);

#endif
