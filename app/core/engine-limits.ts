/**
 * The sketch engine's limits (docs/design.md §4, docs/decisions/005 and 021): how many pixels a
 * photo may claim before decoding, the printed page's size, the detail levels a page can be
 * drawn at and the JPEG decoder's work bounds. Both Workers read them: the app to refuse a photo
 * at upload, the sketch Worker to stay inside an isolate's 128 MB and CPU time.
 */

/**
 * A photo whose header claims more pixels than this is refused before any decoding: a Worker
 * isolate has 128 MB in all, and a decoded 24 MP photo is already ~96 MB of RGBA.
 */
export const MAX_SOURCE_PIXELS = 24_000_000;
/**
 * PNG and WebP are decoded by jSquash, whose wasm memory holds the file and the RGBA (4 bytes per
 * pixel), copied out once more: about 8 bytes per pixel, and a wasm memory never shrinks. Our
 * pages downscale to print size before upload, so this leaves room to spare for them.
 * Measured with bench/memory.mjs (docs/decisions/005).
 */
export const MAX_PNG_WEBP_SOURCE_PIXELS = 8_500_000;
/** 11 in at 300 dpi: the long edge of a printed page. */
export const PRINT_LONG_EDGE_PX = 3300;

/**
 * How much of the photo a page draws: Simple (few bold lines, for young children), Standard,
 * Detailed. An engine parameter of the sketch Worker (workers/sketch/kernel/tuning.ts).
 */
export const DETAIL_LEVELS = ["simple", "standard", "detailed"] as const;
export type DetailLevel = (typeof DETAIL_LEVELS)[number];
export const DEFAULT_DETAIL_LEVEL: DetailLevel = "standard";

// JPEG decoder limits (workers/sketch/decode/jpeg/decode-luma.ts). A hostile JPEG can be a few tens of
// KB and still ask the decoder to walk a 24 MP frame thousands of times; these bound the work per
// file far above what any camera or editor writes (what the customer is told: engine-messages.ts).
/**
 * Scans per JPEG: libjpeg's and mozjpeg's progressive scripts write 6-10, cameras 1-10; a file
 * with more is made to waste time, not to show a photo.
 */
export const JPEG_MAX_SCANS = 64;
/**
 * Work per JPEG, in passes over every coefficient of the frame: each block a scan visits counts
 * its spectral band (1 for a DC scan, Se - Ss + 1 for an AC scan), blocks skipped by an
 * end-of-band run included. A baseline JPEG is one pass, libjpeg's and mozjpeg's progressive
 * scripts about three; eight leaves room for unusual encoders and refuses a refinement-scan bomb
 * after about eight times the work of an ordinary photo.
 */
export const JPEG_MAX_COEFFICIENT_PASSES = 8;
