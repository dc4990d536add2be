/**
 * Shrinks a photo in the browser to what the printed page can use before it is uploaded:
 * a phone's 12-48 MP photo becomes at most 3300 px on the long edge (11 in at 300 dpi). The
 * upload is a fraction of the size (fast on a phone connection), the sketch Worker decodes far
 * fewer pixels inside its 128 MB, and the re-encoded file carries no EXIF/GPS at all.
 *
 * Browser only. Anything the browser cannot decode or draw is sent as it is: the server checks
 * and refuses it with a clear message.
 */
import { MAX_PNG_WEBP_SOURCE_PIXELS, PRINT_LONG_EDGE_PX } from "../core/engine-limits";

/** The browser's JPEG quality for a shrunk photo (the benchmark makes its upload-sized photo with it). */
export const JPEG_QUALITY = 0.92;

export interface PhotoSize {
  width: number;
  height: number;
}

/** The size to draw at, or null when the photo may go as it is. */
export function targetSize(size: PhotoSize, type: string): PhotoSize | null {
  const longEdge = Math.max(size.width, size.height);
  const losslessTooBig = (type === "image/png" || type === "image/webp") && size.width * size.height > MAX_PNG_WEBP_SOURCE_PIXELS;
  if (longEdge <= PRINT_LONG_EDGE_PX && !losslessTooBig) return null;
  const scale = Math.min(1, PRINT_LONG_EDGE_PX / longEdge);
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

export async function preparePhotoForUpload(file: File): Promise<File> {
  if (typeof createImageBitmap !== "function") return file;
  let bitmap: ImageBitmap;
  try {
    // "from-image" applies the EXIF orientation, so the pixels we draw are upright.
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  try {
    const size = targetSize(bitmap, file.type);
    if (!size) return file;
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext("2d");
    if (!context) return file;
    // Transparent areas become white paper, as the sketch Worker would treat them.
    context.fillStyle = "#fff";
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
    // Keep the visitor's file name: it is how they recognise the photo on the next pages.
    return blob ? new File([blob], file.name, { type: "image/jpeg", lastModified: file.lastModified }) : file;
  } finally {
    bitmap.close();
  }
}
