/**
 * What the sketch engine tells a customer when a photo cannot become a page (docs/product.md §9, decision 014). The
 * sketch Worker stores these in images.error or answers them over RPC; the app shows them as they
 * are. The internal cause (D1, R2, codec text, stacks) goes to the sketch Worker's log only.
 */
import { JPEG_MAX_SCANS } from "./engine-limits";

// Processing failures: what a customer reads in images.error. Decoders throw these as
// PermanentSketchError (workers/sketch/errors.ts).
export const PROCESSING_FAILURES = {
  /** Retries used up, or an internal error we cannot name to a customer. */
  gaveUp: "We could not convert this photo after several attempts. Please try again later.",
  /** A decoder's own check of the pixel budget (workers/sketch/decode/index.ts refuses with the sizes before this). */
  tooManyPixels: "This image has more pixels than we can convert. Please upload a smaller photo.",
  gifDamaged: "The GIF file is damaged or incomplete; please upload it again.",
  gifFrameOutsideScreen:
    "This GIF's picture does not fit inside its own canvas, so we cannot convert it. Please save it as JPEG or PNG and upload it again.",
  bmpDamaged: "The BMP file is damaged or incomplete; please upload it again.",
  bmpUnsupported: (what: string) =>
    `This BMP is ${what}, which we cannot convert. Please save it as JPEG or PNG and upload it again.`,
  codecDamaged: (format: string) => `The ${format} file is damaged and could not be decoded. Please upload it again.`,
} as const;
/** A conversion that failed for a reason we cannot name to a customer (the free preview's RPC). */
export const CONVERSION_ERROR_DEFAULT = "Failed to convert image. Please try again later.";

const SAVE_AS_ORDINARY_JPEG = "Please open it in a photo app, save it again as an ordinary JPEG and upload it again.";
export const JPEG_LIMIT_MESSAGES = {
  tooManyScans: `The JPEG file has more than ${JPEG_MAX_SCANS} scans, far more than any camera or photo app writes, so we do not decode it. ${SAVE_AS_ORDINARY_JPEG}`,
  tooMuchWork: `The JPEG file would take far longer to decode than a photo of its size should (its progressive scans go over the picture again and again), so we stopped. ${SAVE_AS_ORDINARY_JPEG}`,
  /** `what` says which part is damaged, in a few words. */
  damaged: (what: string) => `The JPEG file is damaged (${what}) and could not be decoded.`,
} as const;
